/* Depth-first proof-number search (df-pn): proves or disproves one goal for
 * the side to move at the root — "win" or "at least a draw" — with proof and
 * disproof numbers over the game's moves, a transposition table of bounded
 * size (least-work replacement), and the 1+epsilon threshold trick. Two runs
 * give the value: win? if not, at least a draw? The game's ab_expand hook,
 * when it has one, prunes moves and settles nodes by proven bounds. */
#ifndef GSW_DFPN_H
#define GSW_DFPN_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

typedef enum { DFPN_GOAL_WIN = 0, DFPN_GOAL_DRAW } dfpn_goal_t;   /* DRAW: at least a draw */
typedef enum { DFPN_UNKNOWN = 0, DFPN_PROVEN, DFPN_DISPROVEN } dfpn_status_t;

/* A df-pn table that outlives one proof (a batch of positions): entries
 * are keyed by position, goal and the root's side to move (whose goal it
 * is), so they stay true from one proof to the next; it is cleared when
 * another variant uses it. */
typedef struct dfpn_table {
    void *e;
    uint64_t mask;             /* buckets - 1 */
    uint64_t used;
    char owner[96];            /* game:variant */
} dfpn_table_t;
int dfpn_table_init(dfpn_table_t *t, size_t mb, err_t *err);
void dfpn_table_free(dfpn_table_t *t);
void dfpn_table_clear(dfpn_table_t *t);

/* What a long proof is doing, about once a second. */
typedef struct dfpn_progress {
    const char *phase;         /* "searching: a win?", "extracting the tree", .. */
    uint64_t nodes;            /* searched so far */
    double ms;                 /* since the start */
    int tree_nodes;            /* extracting: the tree's nodes so far (-1: searching) */
} dfpn_progress_t;

/* The most nodes a proof tree gets by default: a larger one is expanded
 * only as deep as fits (see dfpn_proof_tree). */
#define DFPN_TREE_NODES 200000

typedef struct dfpn_options {
    dfpn_table_t *table;       /* a table to use (NULL: a private one of hash_mb) */
    size_t hash_mb;            /* the private table's size (default 64) */
    uint64_t node_limit;       /* 0: none */
    double time_limit_ms;      /* 0: none */
    gsw_flag_t *stop;
    double epsilon;            /* the 1+epsilon trick (default 0.25) */
    const uint64_t *history;   /* pos_hash of the positions of the line before
                                  pos (games with repetitions): meeting one
                                  again is a repetition */
    int nhistory;
    int no_best;               /* 1: skip finding a proving move (batch scores) */
    const gsw_oracle_t *oracle; /* endgame databases: positions they settle are leaves */
    int count;                 /* the game's move-count rule applies, from each position's
                                  clock: one whose clock ran out is a draw (ab_options_t.count) */
    /* Depth-limited goal (a mate search): "win within max_plies plies" —
     * the game must end in the attacker's win by then; reaching the limit
     * without it is not a win. 0: no limit (the goals above). Entries are
     * keyed by the plies left, so a table serves every limit. Repetitions
     * are not looked for (the limit ends every line, and a shortest win
     * never repeats a position). At the attacker's last ply only moves that
     * end the game are tried; games with pos_in_check try only the moves
     * that give check there (a game lost by the rules is lost in check:
     * checkmate). Only DFPN_GOAL_WIN. */
    int max_plies;
    int defend;                /* 1: the goal is the other side's (the root's side to move
                                  defends): "is the side to move lost within max_plies?" */
    int tree_nodes;            /* proof trees: the most nodes (0: DFPN_TREE_NODES) */
    void (*progress)(void *ctx, const dfpn_progress_t *p);   /* NULL: quiet */
    void *progress_ctx;
} dfpn_options_t;

typedef struct dfpn_result {
    dfpn_status_t status;      /* for the goal asked */
    outcome_t outcome;         /* dfpn_solve: the value (OUTCOME_UNKNOWN when stopped) */
    move_t best;               /* a proving move at the root, or MOVE_NONE */
    uint32_t pn, dn;           /* the root's numbers when stopped */
    uint64_t nodes;            /* positions expanded or evaluated */
    double time_ms;
    uint64_t tt_entries, tt_used;   /* the table's size and entries in use */
    int runs;                  /* dfpn_solve: proofs run */
} dfpn_result_t;

#define DFPN_INF 0x3fffffffu

/* A minimal proof (or disproof) tree: at a node where the winning side of
 * the result chooses, one child; where the other side moves, every child.
 * Nodes are in depth-first order; node 0 is the root. */
typedef struct proof_node {
    move_t move;               /* the move from the parent (MOVE_NONE at the root) */
    int parent;                /* -1 at the root */
    int nchildren;             /* children follow in depth-first order */
    uint8_t choice;            /* 1: one child chosen (the result's owner moves) */
    uint8_t leaf;              /* 1: settled without children (game over, bounds, a
                                  database, a repetition); 2: settled by the search,
                                  not expanded (prove it to see its tree) */
    int size;                  /* nodes in this subtree */
} proof_node_t;
typedef struct proof_tree {
    dfpn_goal_t goal;
    dfpn_status_t result;      /* DFPN_PROVEN: a proof; DFPN_DISPROVEN: a disproof */
    int n, cap;
    proof_node_t *node;
    int depth;                 /* longest line */
    int searched;              /* leaves settled by the search, not expanded (leaf 2) */
} proof_tree_t;
void proof_tree_free(proof_tree_t *t);
/* What a tree proves for the side to move at its root, in plain words: "a
 * win", "at most a draw" (a win disproven), "at least a draw", "a loss" (a
 * draw disproven). */
const char *proof_result_text(dfpn_goal_t goal, dfpn_status_t result);
/* Is a tree read back from storage about pos? Every move legal where it
 * stands, leaves and chosen nodes where the game allows them. GSW_EINPUT
 * naming the first bad node otherwise. */
int proof_tree_check(const gv_t *v, const void *pos, const proof_tree_t *t, err_t *err);
/* Prove goal at pos and extract the tree (children evicted from the table
 * are proved again). Where the whole tree has more than o->tree_nodes
 * nodes it is expanded as deep as fits (1, 2, 4, .. plies) and the nodes
 * below that the search settled are leaves (leaf 2, counted in searched).
 * The side that chooses picks the child of the lowest proof (the search
 * keeps each settled node's height), so lines make progress and never go
 * round a cycle. GSW_EFAIL when the budget ends first. */
int dfpn_proof_tree(const gv_t *v, const void *pos, dfpn_goal_t goal, const dfpn_options_t *o, proof_tree_t *t,
                    dfpn_result_t *r, err_t *err);
/* The value of pos (as dfpn_solve) and the tree that shows it, over one
 * table: a win proved as a win, a draw as "at least a draw", a loss as the
 * disproof of "at least a draw" (t->goal says which). */
int dfpn_value_tree(const gv_t *v, const void *pos, const dfpn_options_t *o, proof_tree_t *t, dfpn_result_t *r,
                    err_t *err);

/* The principal line of a proof tree: at a choice node its one child, at
 * any other node the child whose subtree is deepest (the longest
 * resistance; ties to the larger subtree). Moves into line (at most max);
 * returns how many. */
int proof_tree_line(const proof_tree_t *t, move_t *line, int max);

/* The shortest win (a mate in N): proves "win within D plies" (see
 * max_plies) for D = first, first + step, .. up to last, all over one
 * table, and stops at the first D proven — the least, as the one before
 * was disproven. step 2 where a game is won only on the winner's own move
 * (chess: checkmate), so that a win within D - 1 plies is one within
 * D - 2; else 1. o->defend says whose win (o->max_plies is ignored). *plies
 * gets D and t (may be NULL) the proof tree of that D, or *plies = -1 when
 * every D was disproven (t empty). r gets the totals (nodes, time) and the
 * last run's status. GSW_EFAIL when the budget ends first. */
int dfpn_shortest_win(const gv_t *v, const void *pos, int first, int last, int step, const dfpn_options_t *o,
                      proof_tree_t *t, int *plies, dfpn_result_t *r, err_t *err);

/* Prove or disprove goal for the side to move at pos. */
int dfpn_prove(const gv_t *v, const void *pos, dfpn_goal_t goal, const dfpn_options_t *o, dfpn_result_t *r,
               err_t *err);
/* The win/draw/loss value of pos by as many proofs as it takes. */
int dfpn_solve(const gv_t *v, const void *pos, const dfpn_options_t *o, dfpn_result_t *r, err_t *err);

#endif

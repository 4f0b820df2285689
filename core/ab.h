/* Alpha-beta: negamax with a transposition table, fail-soft null-window
 * searches and move-ordering hooks. Exact mode proves values (win/draw/loss
 * with distance) by iterated null-window tests; heuristic mode searches to a
 * depth, time or node limit with iterative deepening and the game's
 * evaluation. Several threads may share one table (lazy SMP). */
#ifndef GSW_AB_H
#define GSW_AB_H

#include <stdint.h>

#include "core/game.h"
#include "core/tt.h"
#include "core/value.h"

#define AB_MAX_PLY 1024

typedef struct ab_search ab_t;
struct ab_result;
typedef val_t (*ab_exact_fn)(ab_t *s, const void *pos, val_t alpha, val_t beta);

/* The exact search's line, for games whose positions repeat: pos_hash of
 * the game's history (h[0 .. base-1], oldest first), then of the node at
 * ply p of the search at h[base + p]; filter counts the line's positions
 * by a slice of their hash, so most nodes need no scan. One per thread. */
#define AB_LINE_FILTER 1024
typedef struct ab_line {
    int base, cap;
    uint16_t filter[AB_LINE_FILTER];
    uint64_t h[];
} ab_line_t;
static inline unsigned ab_line_slot(uint64_t h) { return (unsigned)(h >> 7) & (AB_LINE_FILTER - 1); }

/* The threads' table of positions being searched (ab_exact.h): 64 K slots
 * (512 KB), a key each, overwritten freely (a lost mark only costs a
 * duplicated search). */
#define AB_BUSY_SLOTS (1u << 16)

struct ab_search {
    const gv_t *v;
    tt_t *tt;
    uint64_t nodes;
    uint64_t node_limit;        /* 0: none */
    uint64_t *pool_nodes;       /* a pool's threads under a node budget: their nodes
                                   together since the test began, counted at each
                                   check (NULL: one thread, or no budget) */
    double deadline_ms;         /* monotonic ms; 0: none */
    gsw_flag_t *stop;         /* set by the user (a signal): abort */
    gsw_flag_t *halt;         /* set when another thread of a pool finished */
    int aborted;                /* the search ran out of budget or was stopped */
    int ply;                    /* distance from the root of this search */
    int etc_plies;              /* probe children's entries (enhanced transposition
                                   cutoffs) at plies below this */
    int etc_left;               /* ... and where draw_plies is at least this, once */
    uint64_t etc_nodes;         /* ... the search has visited this many nodes */
    int thread_id;              /* the thread's index in its pool (0: the caller's) */
    uint64_t *busy;             /* exact, several threads: the keys of positions some
                                   thread is searching now, AB_BUSY_SLOTS of them
                                   (NULL: one thread) */
    int fold;                   /* fold symmetries in table keys (symmetric root) */
    int pass_valid, pass_sym;   /* a table key handed from parent to child */
    uint64_t pass_key;
    uint64_t static_nodes;      /* look at every child's static bounds first once the
                                   search has visited this many nodes (ab_expand) */
    const move_t *pass_mv;      /* a child's expansion handed down with it (NULL: none): */
    int pass_n;                 /* its moves, their count and its bounds */
    val_t pass_lo, pass_hi;
    ab_exact_fn exact;          /* the exact search for this game */
    ab_line_t *line;            /* exact, games with repetitions: the line (else NULL) */
    int rep_low;                /* exact: the lowest line index a repetition met in the
                                   subtree just searched refers to (INT_MAX: none) */
    int line_full;              /* exact: a line outgrew AB_MAX_PLY (the search gave up) */
    int history_dep;            /* exact: a result rested on a repetition of the history */
    /* heuristic search, for games with repetitions: the game's line before
     * the root (pos_hash, oldest first) with a filter of its hashes, and
     * the hashes of the search path by ply */
    const uint64_t *heur_hist;
    int heur_hist_len;
    uint64_t heur_filter[16];
    uint64_t *heur_line;
    const gsw_oracle_t *oracle; /* databases: positions below the root they know are leaves */
    int count;                  /* the game's move-count rule applies (ab_options_t.count) */
    int32_t *heur_order;        /* history heuristic (games without ab_order, or with
                                   ab_tactical: their quiet moves): cut-offs by move
                                   (ab_tactical: less for the quiet moves searched
                                   before a cut-off, so it goes negative too) */
    move_t (*heur_killer)[2];   /* ... and the last two moves that cut off, by ply */
    int16_t *heur_cont;         /* continuation history (games with ab_move_class):
                                   [class of a move][class of a reply two or one
                                   plies later], AB_MOVE_CLASSES squared; NULL: none */
    int16_t *heur_corr;         /* correction history (games with ab_eval_keys): a
                                   table of AB_CORR_SIZE entries (ab_think.c) for each
                                   of the AB_EVAL_KEYS keys; NULL: none */
    uint64_t *heur_ecache;      /* the static evaluations of positions met before (games
                                   with ab_futility): AB_ECACHE entries (ab_think.c) of
                                   a check from the hash's high word and the value;
                                   NULL: none */
    int32_t heur_eval[AB_MAX_PLY + 1];  /* the static evaluation at each ply of the path
                                   (games with ab_futility; -VAL_INF: in check) */
    int16_t heur_cls[AB_MAX_PLY + 1];   /* ... the class of the move into each ply
                                   of the path (-1: a null move, or none) */
    int heur_floor;             /* repetitions are looked for on the path at plies >= this
                                   only, and in the history only when it is 0 (a null
                                   move cuts the line) */
    int heur_depth;             /* the iteration's depth: checks extend within twice it */
    unsigned heur_gen;          /* this search's generation in the table (0..7) */
    int heur_no_prune;          /* no null moves, no late-move reductions */
    int heur_no_tt;             /* no cut-offs from the table's heuristic bounds */
    move_t heur_root_move;      /* the last iteration's best move: searched first */
    move_t heur_skip[AB_MAX_PLY + 1];   /* singular extensions: the move a ply's search
                                   leaves out (MOVE_NONE: none) */
    const move_t *heur_excl;    /* multi-PV: root moves not searched (the lines before) */
    int heur_nexcl;
};

/* A heuristic search's memory of which quiet moves cut off (the history
 * by move and the continuation history), kept by the caller from one
 * search to the next: a game's moves start from what the searches of the
 * moves before learnt. Opaque; ab_memory_clear empties it (a new game). */
typedef struct ab_memory ab_memory_t;
ab_memory_t *ab_memory_new(void);   /* empty; NULL: out of memory */
void ab_memory_clear(ab_memory_t *m);
void ab_memory_free(ab_memory_t *m);

typedef struct ab_options {
    /* threads sharing the table. Exact: a pool's null-window tests.
     * Heuristic (lazy SMP): the calling thread deepens as with one and
     * alone reports (on_iter, the result); threads - 1 helpers deepen the
     * same root over the same table until it ends, their entries ordering
     * and cutting its search. Results then vary from run to run (with
     * no_prune and no_tt_cuts the score does not: plain alpha-beta). */
    int threads;
    int wdl_only;               /* exact: win/draw/loss only, not the distance */
    int no_best;                /* exact: the value only, no best move */
    uint64_t node_limit;        /* several threads: their nodes together */
    double time_limit_ms;
    int depth_limit;            /* heuristic mode */
    /* heuristic: 0 or 1, one line; k > 1, the k best root moves, each
     * depth searching line j with the moves of lines 1..j-1 left out (at
     * most as many lines as the root has moves), each in a full window
     * (k lines cost about k searches); a proven best line ends the
     * deepening, as with one */
    int multipv;
    gsw_flag_t *stop;
    /* exact: bounds already proven (a resumed solve), when seeded */
    int seeded;
    val_t seed_lo, seed_hi;
    /* exact: bounds known from elsewhere (an opening book's value, the
     * parent's value in an analysis), when known: taken as proven, never
     * tested again, unlike a seed (a cache row might be stale) */
    int known;
    val_t known_lo, known_hi;
    /* games with repetitions: pos_hash of the positions played before the
     * root (the game's line, oldest first); a search meets them as
     * repetitions. NULL / 0: none. */
    const uint64_t *history;
    int history_len;
    /* endgame databases (NULL: none): every search below the root asks
     * them first; what they know is proven (under count, the oracle's
     * values must hold under the rule: the door's oracle does) */
    const gsw_oracle_t *oracle;
    /* heuristic: the histories to start from and leave for the next search
     * (the calling thread's; helpers start empty). NULL: empty each search. */
    ab_memory_t *memory;
    /* games with a move-count rule (game_ops_t.count_rule): apply it, from
     * the clock each position carries. A position whose clock has run out
     * (game_count_left 0) and that the rules do not end otherwise is a
     * draw, and table entries are keyed by the plies left too, so a value
     * is the game's under the rule. 0: the rule is ignored (values of the
     * position alone, as endgame databases hold them). */
    int count;
    /* exact, games with ab_expand: look at every child's static bounds
     * before searching any, at every node (by default only once a search
     * is big; the value is the same either way: tests) */
    int static_always;
    /* exact, games with draw_plies: narrow by halving from the first ply
     * on (by default the first plies test the sign first; the value is the
     * same either way: tests) */
    int halving_only;
    /* exact: called after each test with the bounds proven so far */
    void (*progress)(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms);
    void *progress_ctx;
    /* heuristic: no null-move pruning and no late-move reductions (the
     * search is then a plain alpha-beta over the same tree: its score is
     * the minimax value of that depth; tests, analysis) */
    int no_prune;
    /* heuristic: no cut-offs from the table's bounds (it still orders
     * moves by the table's best move) */
    int no_tt_cuts;
    /* heuristic: no evaluation cache (every static evaluation made; tests:
     * the cache changes nothing but the time) */
    int no_ecache;
    /* heuristic: called after each completed iteration (depth) with the
     * result so far: depth, score, proven, best, pv/pvlen, nodes and
     * time_ms (a UCI front end prints its "info" line from it). From the
     * searching thread; r is valid during the call only. Multi-PV: once
     * per line of the depth, best score first, r->multipv 1, 2, ..., each
     * with its line's score, best, pv; nodes and time_ms are the search's
     * so far (the same for the depth's lines). A depth stopped between
     * its lines reports the lines it finished. One line: a depth stopped
     * after it settled a root move (below, ab_think) reports that move
     * once more, at the depth last finished. */
    void (*on_iter)(void *ctx, const struct ab_result *r);
    void *on_iter_ctx;
} ab_options_t;

typedef struct ab_result {
    val_t lo, hi;               /* proven bounds (exact when equal) */
    move_t best;                /* MOVE_NONE at a finished position */
    uint64_t nodes;
    double time_ms;
    int aborted;                /* budget spent or stopped: lo/hi still valid */
    int contradiction;          /* exact: the seeded bounds contradicted the search
                                   (they were wrong); lo/hi were proven without them */
    int history_dependent;      /* exact: the value rests on a repetition of a position
                                   of o->history: true of this line, not of the position */
    int line_full;              /* exact: aborted because a line outgrew AB_MAX_PLY plies */
    /* heuristic mode */
    int32_t score;              /* heuristic score (or a proven val_t) */
    int depth;
    int proven;                 /* heuristic search found a proven value */
    move_t pv[64];
    int pvlen;
    int multipv;                /* heuristic: the line reported (1: the best; the result's is 1) */
} ab_result_t;

/* The generic exact search (indirect calls through v->ops). */
val_t ab_exact_generic(ab_t *s, const void *pos, val_t alpha, val_t beta);

/* Prepare a search over an existing table. */
void ab_init(ab_t *s, const gv_t *v, tt_t *tt, const ab_options_t *o);

/* Solve pos exactly (or to win/draw/loss with wdl_only). On budget
 * exhaustion returns with aborted = 1 and the bounds proven so far. Seeded
 * bounds that the search contradicts are dropped and the solve starts again
 * without them (contradiction = 1); a search that contradicts itself is an
 * error, never a value. */
int ab_solve(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
             ab_result_t *r, err_t *err);
/* Exact value of every legal move: vals[i] for moves[i], from the mover's
 * side (the value of the position after the move, seen by the player who
 * made it). Returns the number of moves, or -1 on error. */
int ab_analyze(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
               move_t *moves, ab_result_t *vals, err_t *err);
/* Heuristic search with iterative deepening: principal-variation search
 * with a table of heuristic bounds (salted: exact searches over the same
 * table never see them), killer moves and a history table, and for games
 * with the hooks: quiescence with stand-pat over ab_tactical's moves, check
 * extensions (pos_in_check), null-move pruning (play_null) and late-move
 * reductions of quiet moves (ab_tactical). Games without ab_tactical go on
 * past the depth from positions pos_quiet calls unquiet, with every move.
 * Stopped (time, nodes, o->stop), it returns the last completed
 * iteration's result (aborted = 1), unless the depth stopped had settled
 * a root move (one line): one whose search finished with a score above
 * the window's floor, with its line and score, or else one that failed
 * high at the root; r->depth stays the depth last finished. r->best is a
 * legal move whenever the position has one. With multipv > 1 the result
 * is the last depth's best line; nodes count every thread's. */
int ab_think(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
             ab_result_t *r, err_t *err);

double gsw_now_ms(void);

#endif

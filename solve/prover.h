/* The prover: proof trees through the door. It obtains a position's df-pn
 * proof tree (the one stored in the cache, else a fresh proof that is then
 * stored), runs the proof-tree manager goal by goal with its tree saved as
 * it grows (resumable), finds a stored manager tree for browsing, and names
 * the value at a tree's nodes. The CLI's `proof` verbs and the workbench's
 * `proof` command both call it; endgame databases are opened here, so
 * their positions are leaves of every tree. */
#ifndef GSW_PROVER_H
#define GSW_PROVER_H

#include <stddef.h>

#include "core/dfpn.h"
#include "core/manager.h"
#include "db/cache.h"

/* What a proof may use: the cache (NULL: none, nothing stored), the
 * endgame databases' folder (NULL: the default beside the cache), and the
 * budget (a zero is no limit), stopped by *stop. */
typedef struct prover_options {
    cache_t *cache;
    const char *egdb_dir;
    const char *db;            /* the cache file's path when cache is NULL (for egdb_dir's default) */
    size_t hash_mb;
    uint64_t node_limit;
    double time_limit_ms;
    gsw_flag_t *stop;
    /* fresh proofs: what the search is doing, about once a second (NULL: quiet) */
    void (*progress)(void *ctx, const dfpn_progress_t *p);
    void *progress_ctx;
    /* leave the knowledge sources aside (gsw proof run --sources search):
       no values from the cache, no endgame databases; leaves are searched */
    int search_only;
} prover_options_t;

/* The df-pn proof tree of pos (text: the position as people write it,
 * stored beside the tree). goal_text "win" or "draw", or NULL: the goal
 * follows the value (a win is proved as a win, a draw as "at least a
 * draw", a loss as the disproof of that). *found: it came from the cache;
 * *stored: a fresh one was stored; *r the search's counts (fresh only).
 * t->goal is the goal proved; free t with proof_tree_free. A stored tree
 * that does not check out is proved again and replaced. */
int prover_tree(const prover_options_t *po, gv_t *v, const void *pos, const char *text, const char *goal_text,
                proof_tree_t *t, int *found, int *stored, dfpn_result_t *r, err_t *err);

/* The manager tree stored for pos (gsw proof run), in pos's orientation
 * and checked: the win tree when it is proven, else the draw tree where
 * there is one. 1 found (m filled; free with manager_free, state
 * "running", "proven" or "disproven"), 0 none, -1 error (a damaged tree
 * is an error). */
int prover_manager_stored(cache_t *cache, gv_t *v, const void *pos, manager_t *m, char *state, size_t n, err_t *err);

/* A manager run: the goals asked for (goal_text "win", "draw", or NULL:
 * win?, then at least a draw? unless the win is proven), each from its
 * stored tree when resume is set, saved every save_ms while it runs and
 * at the end. say gets one line at a time of what happens (resuming,
 * progress once a second, each goal's result); the answer: */
typedef struct prover_run {
    const char *goal_text;
    int resume;
    int workers;
    double save_ms;            /* 0: 5000 (GSW_SAVE_MS overrides) */
    void (*say)(void *ctx, const char *line);
    void *say_ctx;
    /* leaves evaluated by other processes (manager_options_t.farm: dist/);
     * workers is then their number */
    int (*farm)(void *ctx, mg_leaf_t *leaf, int n, err_t *err);
    void *farm_ctx;
    /* out */
    int complete;              /* every goal asked was settled */
    int stopped;               /* a stop or a spent budget left a goal open (its tree is stored: resume) */
    int goal_done;             /* the last goal settled (dfpn_goal_t), -1: none */
    dfpn_status_t last;        /* its result */
} prover_run_t;
int prover_manager_run(const prover_options_t *po, gv_t *v, const void *pos, const char *text, prover_run_t *run,
                       err_t *err);
/* A worker's side of a farmed manager run: leaves from next() (1: one is
 * in *leaf; 0: no more; -1: failure, err) evaluated by one solver with
 * the databases po names, each handed back to answer() (nonzero: stop).
 * The leaf's v and o are set here. */
int prover_serve_leaves(const prover_options_t *po, gv_t *v, int (*next)(void *ctx, mg_leaf_t *leaf, err_t *err),
                        int (*answer)(void *ctx, const mg_leaf_t *leaf, err_t *err), void *ctx, err_t *err);

/* The value the run proved: "win", "at most a draw", "draw", "at least a
 * draw", "loss"; "unknown" or "at most a draw" when it stopped. */
const char *prover_run_value(const prover_run_t *run);

/* A database leaf's perfect line: from pos, the move of the best value
 * for the side to move each ply (the fastest win, the slowest loss) by the
 * distance-to-win files, down to the end of the game or max moves. 1 with
 * *value pos's exact value and line[0..*n-1]; 0 when the databases do not
 * hold pos exactly (no distance-to-win file for it or for a position on
 * the way: why says which, in a few words), -1 on error. */
int prover_db_line(const prover_options_t *po, gv_t *v, const void *pos, val_t *value, move_t *line, int max, int *n,
                   char *why, size_t wn, err_t *err);

/* The value at a node of t whose side to move is (attacker) or is not the
 * root's: "=W", "=L", "<=D" (ascii) or "≤D", ... */
const char *prover_value_text(const proof_tree_t *t, int attacker, int ascii);
/* The same as proven bounds for the side to move there (a win or a loss
 * of unknown distance as the solver stores one: [VAL_PROVEN, val_win(1)],
 * [val_loss(0), -VAL_PROVEN]; at least / at most a draw). */
void prover_node_bounds(dfpn_goal_t goal, dfpn_status_t result, int attacker, val_t *lo, val_t *hi);
/* Bounds for a child's side to move as bounds for the player who moved
 * there (val_up, keeping a distance that is unknown unknown). */
void prover_bounds_up(val_t clo, val_t chi, val_t *lo, val_t *hi);

#endif

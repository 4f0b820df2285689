/* The proof-tree manager, after the checkers proof: a best-first
 * proof-number tree over the top of the game whose leaves go to solvers — a
 * heuristic alpha-beta search first, whose score counts as a win (loss)
 * for the goal when it reaches the threshold t (-t), then exact alpha-beta
 * and df-pn, each with a node budget. Results come back proven, disproven, assumed (by t) or open; an
 * open leaf chosen again is expanded. When the root is settled with
 * assumptions, t rises, assumed leaves the new t no longer covers are
 * solved again, and so on until the root is settled by proofs alone.
 * Leaves are evaluated by several threads at once (a batch of the most
 * proving leaves, each held busy while in flight). The tree is a plain
 * array, so the caller can store it and resume. */
#ifndef GSW_MANAGER_H
#define GSW_MANAGER_H

#include <stdint.h>

#include "core/dfpn.h"

enum { MG_OPEN = 0, MG_PROVEN, MG_DISPROVEN, MG_ASSUMED_PROVEN, MG_ASSUMED_DISPROVEN };

typedef struct mg_node {
    move_t move;               /* from the parent; MOVE_NONE at the root */
    int32_t parent;            /* -1 at the root */
    int32_t first_child;       /* children are contiguous; -1 until expanded */
    int32_t nchildren;
    uint32_t pn, dn;
    int32_t score;             /* the heuristic score, from the attacker's side */
    uint8_t status;            /* MG_* */
    uint8_t evaluated;         /* a solver has looked at it */
    uint8_t busy;              /* in a worker's hands */
    uint8_t attacker;          /* the root's side moves here (an OR node) */
} mg_node_t;

typedef struct manager {
    dfpn_goal_t goal;
    int32_t t;                 /* the heuristic threshold now */
    int n, cap;
    mg_node_t *node;
    /* statistics of this run */
    uint64_t leaves, expansions, solver_nodes;
    double solver_ms, manager_ms;
} manager_t;

#define MG_LINE 512            /* a leaf's line: the history's last positions, then the tree's */

/* One leaf to evaluate, and (out) what the solvers found: what a worker
 * thread, or a worker process (dist/), is handed. v and o are the
 * evaluating side's own. */
struct manager_options;
typedef struct mg_leaf {
    const gv_t *v;
    const struct manager_options *o;
    dfpn_goal_t goal;
    int32_t t;
    int node, attacker;
    GSW_POSBUF pos[GSW_MAX_POS];
    uint64_t line[MG_LINE];    /* pos_hash of the positions before it (games with repetitions) */
    int nline;
    int settled;               /* mg_leaf_settle answered it (the search is not needed) */
    /* out */
    int status;
    uint32_t pn, dn;
    int32_t score;
    uint64_t nodes;
    double ms;
    int failed;
} mg_leaf_t;

/* The leaf solver can consult a cache: 1 when it settles the goal at pos
 * (*proven set), 0 otherwise. */
typedef int (*mg_probe_fn)(void *ctx, const gv_t *v, const void *pos, dfpn_goal_t goal, int attacker, int *proven);

typedef struct manager_options {
    int workers;               /* threads evaluating leaves (default 1) */
    size_t hash_mb;            /* each worker's tables (default 32) */
    uint64_t dfpn_budget;      /* df-pn nodes per leaf (default 200000) */
    int ab_depth;              /* the heuristic search's depth (default 8) */
    int32_t t0;                /* the first threshold (default 100) */
    gsw_flag_t *stop;
    double time_limit_ms;
    uint64_t node_limit;       /* stop once the leaves' solvers spent this many nodes (0: none) */
    /* games with repetitions: pos_hash of the positions before the root
     * (the game's line, oldest first); NULL / 0: none */
    const uint64_t *history;
    int nhistory;
    mg_probe_fn probe;
    void *probe_ctx;
    const gsw_oracle_t *oracle; /* endgame databases: leaves they settle, and every search's probes */
    /* called after each batch; returns nonzero to stop (e.g. after saving) */
    int (*progress)(void *ctx, const manager_t *m, double ms);
    void *progress_ctx;
    /* leaves evaluated elsewhere (dist/: other processes): each batch of
     * at most `workers` leaves goes to farm() after mg_leaf_settle has
     * answered what it can here; farm fills in the others' results (by
     * mg_solver_eval there) and returns nonzero on failure (err).
     * NULL: threads here. */
    int (*farm)(void *ctx, mg_leaf_t *leaf, int n, err_t *err);
    void *farm_ctx;
} manager_options_t;

/* The cheap part of a leaf's evaluation: the game over, a repetition, the
 * probe (a cache), the oracle. 1 when it settled the leaf (result set). */
int mg_leaf_settle(mg_leaf_t *leaf);
/* One worker's solvers and tables, which leaves evaluated one after
 * another share (so a worker's results depend on the leaves it had). */
typedef struct mg_solver mg_solver_t;
int mg_solver_new(size_t hash_mb, mg_solver_t **out, err_t *err);
void mg_solver_free(mg_solver_t *s);
/* Evaluate leaf whole: mg_leaf_settle, then the searches. */
void mg_solver_eval(mg_solver_t *s, mg_leaf_t *leaf);

/* Is a tree read back from storage whole and about pos? Every node after
 * its parent and inside its parent's children, every move legal where it
 * stands, every node's side to move as recorded. GSW_EINPUT naming the
 * first bad node otherwise. */
int manager_check(const manager_t *m, const gv_t *v, const void *pos, err_t *err);
/* Does the settled node i rest on an assumption (a heuristic score taken
 * as a proof) somewhere in its subtree? */
int manager_assumes(const manager_t *m, int i);

/* A fresh tree for pos and goal. */
int manager_init(manager_t *m, dfpn_goal_t goal, err_t *err);
void manager_free(manager_t *m);
/* Run until the root is proven or disproven without assumptions, or a stop
 * or budget (then GSW_OK with *done = 0: the tree can be stored and
 * resumed). *status is the result when done. */
int manager_run(manager_t *m, const gv_t *v, const void *pos, const manager_options_t *o, int *done,
                dfpn_status_t *status, err_t *err);

#endif

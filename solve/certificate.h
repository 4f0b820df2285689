/* Proof certificates (docs/CERTIFICATE.md): a position's value written as
 * a graph a separate checker (check/, gsw-check) can verify without any
 * of gsw's searches. The writer proves the claim through the door's
 * prover (df-pn trees, the mate prover) and uses those trees only as
 * hints: at the prover's nodes it keeps one move, at the opponent's it
 * lists every legal move, and it goes on down every line until the
 * position rests on evidence the checker can judge itself: the game's
 * end by its rules, a database or tablebase file's value, a strong
 * solution's set. A leaf "by search" never appears. Positions reached by
 * two lines are one node, so the certificate is a graph; distances (a
 * win in N plies) are worked out from the graph where its evidence gives
 * them. */
#ifndef GSW_SOLVE_CERTIFICATE_H
#define GSW_SOLVE_CERTIFICATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"
#include "core/value.h"
#include "db/cache.h"

typedef struct cert_options {
    const char *egdb_dir;       /* the databases' folder (NULL: egdb/ beside db, or the default cache) */
    const char *strong_dir;     /* the strong solutions' folder (NULL: strong/ beside db) */
    const char *db;             /* the cache file's path, for those defaults */
    size_t hash_mb;             /* each proof's table */
    uint64_t max_nodes;         /* the most nodes written (0: 2,000,000) */
    double time_limit_ms;       /* 0: none */
    gsw_flag_t *stop;
    const char *made;           /* the `made` line: who wrote it, how */
    /* about every 2 s: nodes so far and the time */
    void (*progress)(void *ctx, uint64_t nodes, double ms);
    void *progress_ctx;
} cert_options_t;

enum { CERT_LEAF_END, CERT_LEAF_DB, CERT_LEAF_STRONG, CERT_LEAF_KINDS };

typedef struct cert_report {
    char claim[64];             /* "win in 5 plies", "draw", "at least a draw" */
    uint64_t nodes;             /* node lines written */
    uint64_t leaves[CERT_LEAF_KINDS];
    int depth;                  /* the longest line from a root, through no node twice */
    int files;                  /* evidence files named */
    uint64_t proofs;            /* proof searches run for hints */
    double ms;
} cert_report_t;

/* The goals a certificate can prove (docs/CERTIFICATE.md's bounds at its
 * roots): CERT_VALUE proves the value (a win; a loss; a draw as at least
 * and at most a draw), the others one bound. */
typedef enum { CERT_VALUE, CERT_WIN, CERT_DRAW } cert_goal_t;

/* Prove pos's value (or goal) and write its certificate to path (written
 * under a temporary name, then renamed). GSW_EFAIL with one line when the
 * value cannot be proven within the budget, the graph would pass
 * max_nodes, or a stop came. */
int cert_export(const cert_options_t *o, gv_t *v, const void *pos, cert_goal_t goal, const char *path,
                cert_report_t *rep, err_t *err);

/* The same where the value is known already (a solve's answer): bounds
 * [lo, hi] for pos's side to move; the certificate proves the bounds
 * they settle (a win, a loss, a draw, at least or at most a draw).
 * GSW_EINPUT when they settle nothing. */
int cert_export_bounds(const cert_options_t *o, gv_t *v, const void *pos, val_t lo, val_t hi, const char *path,
                       cert_report_t *rep, err_t *err);

#endif

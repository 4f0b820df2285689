/* Runs beyond one machine: gsw started N times by Open MPI's mpirun
 * (`mpirun -np N gsw VERB ... --mpi`). Rank 0 is the manager: it plans,
 * hands work out, holds the cache and writes stdout; ranks 1..N-1 are
 * workers that answer it. This file is the transport (messages between
 * ranks) and the checks made at the start; dist_egdb.c and dist_proof.c
 * put database builds and proof trees on it. Built without Open MPI
 * (GSW_MPI off), dist_start says so and nothing else changes. */
#ifndef GSW_DIST_H
#define GSW_DIST_H

#include <stddef.h>

#include "core/err.h"
#include "solve/egdb.h"
#include "solve/prover.h"
#include "core/evolve.h"

typedef struct dist dist_t;

/* Message tags */
enum {
    DIST_TAG_JOB = 1,          /* rank 0 -> a worker: work */
    DIST_TAG_DONE,             /* a worker -> rank 0: its answer */
    DIST_TAG_STOP,             /* rank 0 -> a worker: no more work */
};

/* 1 when this gsw was built with Open MPI. */
int dist_built(void);
/* A rank other than 0 of an mpirun job (from the launcher's environment;
 * before any parsing): its ordinary stderr goes to /dev/null, so that a
 * bad argument is said once, by rank 0, and dist_say keeps the real
 * stderr for what only this rank knows. */
void dist_quiet_worker(void);
/* One line on a worker's real stderr: "gsw (rank R): ..." */
void dist_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* This process's part of an mpirun job: MPI started, and every rank found
 * to run the same gsw binary. GSW_EINPUT (one line in err) when the
 * process was not started by mpirun or gsw was built without Open MPI;
 * GSW_EFAIL when the ranks' binaries differ (every rank fails; rank 0's
 * err says which rank differs, the others' err is empty). */
int dist_start(int *argc, char ***argv, dist_t **out, err_t *err);
int dist_rank(const dist_t *d);
int dist_size(const dist_t *d);
/* Does every rank see dir? Rank 0 writes a file there, the others read
 * it. Collective: every rank gets the same code; rank 0's err names the
 * first rank that could not (the others' err is empty). */
int dist_check_dir(dist_t *d, const char *dir, err_t *err);
/* Collective: rank 0's n bytes at buf, on every rank. */
int dist_bcast(dist_t *d, void *buf, size_t n, err_t *err);
/* Rank 0: tell every worker there is no more work. */
void dist_stop_workers(dist_t *d);
/* One message of n bytes with tag to rank `to`. */
int dist_send(dist_t *d, int to, int tag, const void *buf, size_t n, err_t *err);
/* The next message from `from` (-1: any rank): its rank, tag and bytes
 * (*buf malloc'd, free() it). */
int dist_recv(dist_t *d, int from, int *src, int *tag, void **buf, size_t *n, err_t *err);
/* The end of the job for this rank (MPI finalized). */
void dist_end(dist_t *d);

/* A worker's place among the workers (ranks 1..N-1, part = rank - 1) as
 * the parts of divided units: their collectives over their own
 * communicator. -1 on rank 0 (or without Open MPI). */
int dist_worker_parts(dist_t *d, egdb_parts_t *out);

/* egdb build on every rank (dist_egdb.c): rank 0 runs egdb_build with o,
 * its units built by the workers, and fills rep; a worker builds the
 * units it is handed, in set's folder, until rank 0 is done (GSW_OK; its
 * rep holds what it built). With one rank, or o->plan_only, rank 0
 * builds alone. */
int dist_egdb_build(dist_t *d, egdb_set_t *set, egdb_build_options_t *o, egdb_build_report_t *rep, err_t *err);

/* proof run on every rank (dist_proof.c): rank 0 runs the manager
 * (prover_manager_run with po, its cache and its tree), the workers
 * evaluate its leaves, worker k getting batch place k-1, as thread k-1
 * would with --workers N-1. A worker returns GSW_OK when rank 0 is done. */
int dist_proof_run(dist_t *d, const prover_options_t *po, gv_t *v, const void *pos, const char *text,
                   prover_run_t *run, err_t *err);

/* Tuning games on the ranks (dist_evo.c): dist_evo_farm is an
 * evo_hooks_t farm for rank 0 (ctx: a dist_evo_t); it deals a round's
 * games to the workers one at a time, the next to whichever answers. A
 * worker plays them by play (worker slot 0) in dist_evo_serve until rank 0
 * stops it. Games depend only on their seed, so the run is the same as a
 * single process's. */
typedef struct dist_evo {
    dist_t *d;
    gsw_flag_t *stop;        /* set: no more games handed out */
} dist_evo_t;
int dist_evo_farm(void *ctx, evo_game_t *games, int n);
int dist_evo_serve(dist_t *d, evo_game_fn play, void *ctx, err_t *err);

#endif

/* The TUI's worker thread: runs the analyst on a copy of one position
 * (analysis or a heuristic opponent's move) so the keyboard never waits,
 * posting each result as it is found. The session stays on the UI thread:
 * the worker sees only the job it was given. */
#ifndef GSW_WORKER_H
#define GSW_WORKER_H

#include <pthread.h>

#include "solve/analyst.h"
#include "workbench/session.h"

typedef enum { JOB_NONE = 0, JOB_ANALYZE, JOB_THINK } job_kind_t;

typedef struct job {
    job_kind_t kind;
    char spec[96];         /* game:variant */
    posbuf_t pos;
    size_t pos_size;
    int ply;               /* the session ply it is for */
    int level;             /* JOB_THINK */
    uint64_t line[SESSION_MAX_PLY];   /* JOB_THINK: pos_hash of the positions before pos */
    int nline;
    analysis_t an;         /* JOB_ANALYZE: what is known so far */
    int scores_only;       /* JOB_ANALYZE: the heuristic scores and no proof (the value history's back-fill) */
} job_t;

typedef struct worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, quit;
    int busy;              /* a job is running */
    job_t job;             /* the running (or next) job */
    int pending;           /* job holds a job not yet started */
    volatile int stop;     /* stop the running job */
    /* results, under mu */
    unsigned seq;          /* bumped at every post */
    job_kind_t done_kind;
    int done_ply;
    posbuf_t done_pos;
    analysis_t done_an;
    move_t done_move;
    int finished;          /* the job ran to its end (not stopped) */
    char progress[160];
    char error[600];
    /* the worker's own */
    char db[1024];         /* cache path, "" none */
    size_t hash_mb;
    int threads;
} worker_t;

int worker_start(worker_t *w, const char *db_path, size_t hash_mb, int threads, err_t *err);
void worker_stop(worker_t *w);
/* Give a job (the previous one must have ended: see worker_idle). */
void worker_submit(worker_t *w, const job_t *job);
/* Stop the running job (it posts what it has). */
void worker_cancel(worker_t *w);
int worker_idle(worker_t *w);

#endif

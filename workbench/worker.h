/* The TUI's worker thread: runs the analyst on one position (an analysis,
 * or a heuristic opponent's move) so the keyboard never waits. The worker
 * owns the analysis it computes; the session, on the UI thread, receives
 * small updates tagged with the job's number (a move's value, the
 * position's own value, the end of the job) and keeps what it shows
 * (worker_take). The worker is handed the game it works on, its own to
 * close. */
#ifndef GSW_WORKER_H
#define GSW_WORKER_H

#include <pthread.h>
#include <signal.h>

#include "solve/analyst.h"
#include "workbench/session.h"

typedef enum { JOB_NONE = 0, JOB_ANALYZE, JOB_THINK } job_kind_t;

/* What the worker is asked to do. */
typedef struct job {
    job_kind_t kind;
    unsigned id;           /* worker_submit numbers it: its updates carry the number */
    posbuf_t pos;
    int level;             /* JOB_THINK: the heuristic player's level */
    double ms;             /* JOB_THINK: its time, where less than the level's (a clock's share; 0: none) */
    uint64_t line[SESSION_MAX_PLY];   /* JOB_THINK: pos_hash of the positions before pos */
    int nline;
    analyst_task_t task;   /* JOB_ANALYZE: its budget and the game's line */
    int scores_only;       /* JOB_ANALYZE: the heuristic scores and no proof (the value history's back-fill) */
    int reread;            /* JOB_ANALYZE: first read every move's value again (analyst_reread) */
    int lines;             /* JOB_ANALYZE: the best this many heuristic moves searched again for
                              deeper lines (lines N; 0: none) after the first pass */
} job_t;

/* One update of a job's results. */
typedef enum {
    UPD_MOVE,              /* move i's value (mv) */
    UPD_HEAD,              /* the analysis's own values (head: analysis_head_copy's part) */
    UPD_THINK,             /* the heuristic player's move (move) */
    UPD_END                /* the job ended (finished: ran to its end, not stopped) */
} upd_kind_t;

typedef struct worker_update {
    unsigned job;
    upd_kind_t kind;
    int i;
    move_t move;           /* UPD_THINK */
    int finished;          /* UPD_THINK, UPD_END */
    union {
        move_value_t mv;   /* UPD_MOVE: move i's value */
        /* UPD_HEAD: the analysis's head (the bytes analysis_head_copy copies) */
        _Alignas(analysis_t) unsigned char head[ANALYSIS_HEAD_SIZE];
    };
} worker_update_t;

typedef struct worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, quit;
    int busy;              /* a job is running */
    int pending;           /* next holds a job not yet started */
    job_t *next;           /* the job to start (owned) */
    gv_t *next_game;       /* ... the game it is for, handed over (NULL: the same as before) */
    analysis_t *next_from; /* ... what is known of it so far, copied once at worker_submit */
    gsw_flag_t stop;       /* stop the running job */
    /* updates, under mu, in order; worker_take drains them */
    worker_update_t *upd;
    int nupd, capupd;
    unsigned last_id;      /* the last job number given */
    char progress[160];
    char error[600];
    /* the worker thread's own, not shared */
    job_t *job;            /* the running job */
    gv_t *game;            /* the game it works on (owned) */
    analysis_t *an;        /* the analysis it computes */
    analysis_t *posted;    /* ... as last sent to the session: only what changed is sent */
    char db[1024];         /* cache path, "" none */
    char egdb_dir[1024];   /* the endgame databases' folder, "" beside the cache */
    size_t hash_mb;
    int threads;
} worker_t;

int worker_start(worker_t *w, const char *db_path, const char *egdb_dir, size_t hash_mb, int threads, err_t *err);
void worker_stop(worker_t *w);
/* Give a job (the previous one must have ended: see worker_idle); returns
 * its number. game: the game it works on when it is not the last job's
 * (the worker's to close; NULL: the same game as before). from: JOB_ANALYZE,
 * what is known of the analysis already (NULL: nothing; it goes on from it). */
unsigned worker_submit(worker_t *w, const job_t *job, gv_t *game, const analysis_t *from);
/* Stop the running job, or the one given and not started yet (it ends
 * at once); it posts what it has. */
void worker_cancel(worker_t *w);
int worker_idle(worker_t *w);
/* Is the running job building an ending (its progress says "building")? */
int worker_building(worker_t *w);
/* The updates posted since the last call, in order, handed to each(ctx,
 * update) under the worker's lock (keep each short). */
void worker_take(worker_t *w, void (*each)(void *ctx, const worker_update_t *u), void *ctx);
/* Apply an analysis update to an (UPD_MOVE, UPD_HEAD). */
void worker_apply(analysis_t *an, const worker_update_t *u);

#endif

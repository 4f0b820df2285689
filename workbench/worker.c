/* The TUI's worker thread (see worker.h). */
#include "workbench/worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queue an update (under mu). A queue that cannot grow drops it: the
 * session shows less until the next one. */
static void worker_push(worker_t *w, const worker_update_t *u)
{
    if (w->nupd == w->capupd) {
        int cap = w->capupd ? 2 * w->capupd : 16;
        worker_update_t *n = realloc(w->upd, (size_t)cap * sizeof *n);
        if (!n) return;
        w->upd = n;
        w->capupd = cap;
    }
    w->upd[w->nupd++] = *u;
}

/* Send what changed in the analysis since it was last sent: each move
 * whose value changed, and the head when it did. */
static void worker_post(worker_t *w)
{
    const analysis_t *an = w->an;
    analysis_t *p = w->posted;
    pthread_mutex_lock(&w->mu);
    for (int i = 0; i < an->n; i++) {
        if (!memcmp(&an->mv[i], &p->mv[i], sizeof an->mv[i])) continue;
        worker_update_t u = { .job = w->job->id, .kind = UPD_MOVE, .i = i, .mv = an->mv[i] };
        worker_push(w, &u);
        p->mv[i] = an->mv[i];
    }
    if (memcmp(an, p, ANALYSIS_HEAD_SIZE)) {
        worker_update_t u = { .job = w->job->id, .kind = UPD_HEAD };
        memcpy(u.head, an, ANALYSIS_HEAD_SIZE);
        worker_push(w, &u);
        analysis_head_copy(p, an);
    }
    pthread_mutex_unlock(&w->mu);
}

/* The job's end (or a heuristic player's move). */
static void worker_end(worker_t *w, upd_kind_t kind, move_t m, int finished)
{
    worker_update_t u = { .job = w->job->id, .kind = kind, .move = m, .finished = finished };
    pthread_mutex_lock(&w->mu);
    worker_push(w, &u);
    pthread_mutex_unlock(&w->mu);
}

static void worker_say(worker_t *w, char *to, size_t n, const char *msg)
{
    pthread_mutex_lock(&w->mu);
    snprintf(to, n, "%s", msg);
    pthread_mutex_unlock(&w->mu);
}

static void worker_progress(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms)
{
    worker_t *w = ctx;
    char b[96], line[160];
    value_open_text(lo, hi, b, sizeof b);
    snprintf(line, sizeof line, "%.1f s, %.1f M nodes: %s", ms / 1000, nodes / 1e6, b);
    worker_say(w, w->progress, sizeof w->progress, line);
}

/* A stored row found wrong and repaired: said on the status line, not on
 * stderr under the screen. */
static void worker_warn(void *ctx, const char *msg)
{
    worker_t *w = ctx;
    worker_say(w, w->error, sizeof w->error, msg);
}

/* A notice (a tablebase being built): on the status line as progress. */
static void worker_note(void *ctx, const char *msg)
{
    worker_t *w = ctx;
    worker_say(w, w->progress, sizeof w->progress, msg);
}

/* The analyst on the worker's game: opened on the first job, retargeted
 * when the game changes. */
static int worker_analyst(worker_t *w, analyst_t *a, cache_t *cache, int new_game, err_t *err)
{
    if (!a->ready) {
        if (analyst_open(a, w->game, w->hash_mb, w->threads, cache, w->egdb_dir[0] ? w->egdb_dir : NULL,
                         &w->stop, err))
            return err->code;
        a->solver.ab.progress = worker_progress;
        a->solver.ab.progress_ctx = w;
        a->solver.warn = worker_warn;
        a->solver.note = worker_note;
        a->solver.warn_ctx = w;
    } else if (new_game) {
        analyst_retarget(a, w->game);
    }
    return GSW_OK;
}

/* An analysis job: the heuristic scores, the position's value, then each
 * move's, sending what changes as it comes. */
/* lines N: the N best heuristic moves after the first pass (a few ms
 * each: shallow lines) searched again, WORKER_LINE_MS each, best first,
 * each shown as it comes. */
#define WORKER_LINE_MS 300
static int worker_deepen(worker_t *w, analyst_t *a, err_t *err)
{
    const job_t *j = w->job;
    analysis_t *an = w->an;
    int order[GSW_MAX_MOVES], done = 0;
    move_values_order(an->mv, an->n, order);
    for (int r = 0; r < an->n && done < j->lines && !w->stop; r++) {
        int i = order[r];
        if (an->mv[i].state != MV_HEURISTIC) continue;
        char line[160];
        snprintf(line, sizeof line, "line %d of %d: %s", ++done, j->lines, an->mv[i].text);
        worker_say(w, w->progress, sizeof w->progress, line);
        if (analyst_deepen(a, &j->task, j->pos.b, an, i, WORKER_LINE_MS, err)) return -1;
        worker_post(w);
    }
    return 0;
}

static int worker_analyze(worker_t *w, analyst_t *a, cache_t *cache, err_t *err)
{
    const job_t *j = w->job;
    analysis_t *an = w->an;
    if (j->reread && an->heuristic_done) {   /* something was learned since it was made */
        if (analyst_reread(a, &j->task, j->pos.b, an, err)) return -1;
        worker_post(w);
    }
    if (!an->heuristic_done) {
        /* where perfect play is out of reach the heuristic scores are what
         * the person reads: give them time to mean something */
        double hb = w->game->game->play_opponent ? 600 : 100;
        if (analyst_heuristic(a, &j->task, j->pos.b, an, hb, err)) return -1;
        worker_post(w);
        if (!j->scores_only && worker_deepen(w, a, err)) return -1;
    }
    if (j->scores_only) return 0;
    if (!an->root_done && !w->stop) {   /* the position's own value and best move come first */
        worker_say(w, w->progress, sizeof w->progress, "solving the position");
        if (analyst_root(a, &j->task, j->pos.b, an, err) < 0) return -1;
        worker_post(w);
    }
    int i;
    while (!w->stop && (i = analyst_next(an)) >= 0) {
        char line[160];
        snprintf(line, sizeof line, "solving %s", an->mv[i].text);
        worker_say(w, w->progress, sizeof w->progress, line);
        an->active = i;
        worker_post(w);
        int r = analyst_prove(a, &j->task, j->pos.b, an, i, err);
        an->active = -1;   /* (a twin's value, copied, leaves it set: the pane's ".." would stay) */
        if (r < 0) return -1;
        worker_post(w);
        if (r > 0) break;
    }
    if (cache) cache_flush(cache, err);
    return 0;
}

static void worker_run(worker_t *w, analyst_t *a, cache_t *cache, int new_game)
{
    err_t err;
    const job_t *j = w->job;
    int rc = worker_analyst(w, a, cache, new_game, &err);
    if (!rc && j->kind == JOB_THINK) {
        move_t m;
        rc = analyst_think(a, j->pos.b, j->line, j->nline, j->level, j->ms, &m, &err);
        if (!rc) { worker_end(w, UPD_THINK, m, !w->stop); return; }
    } else if (!rc) {
        rc = worker_analyze(w, a, cache, &err);
    }
    if (rc) worker_say(w, w->error, sizeof w->error, err.msg);
    if (j->kind == JOB_ANALYZE) worker_post(w);
    worker_end(w, UPD_END, MOVE_NONE, !rc && !w->stop);
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    analyst_t a = { 0 };
    cache_t *cache = NULL;
    err_t err;
    if (w->db[0] && cache_open(w->db, &cache, &err)) {
        char msg[sizeof w->error];
        snprintf(msg, sizeof msg, "%s (solving without the cache)", err.msg);
        worker_say(w, w->error, sizeof w->error, msg);
        cache = NULL;
    }
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->pending && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        job_t *j = w->job;   /* the job handed over becomes the running one */
        w->job = w->next;
        w->next = j;
        analysis_t *an = w->an;   /* ... and what was known of it, the worker's analysis */
        w->an = w->next_from;
        w->next_from = an;
        int new_game = w->next_game != NULL;
        if (new_game) {
            if (w->game) game_close(w->game);
            w->game = w->next_game;
            w->next_game = NULL;
        }
        w->pending = 0;
        w->busy = 1;   /* (stop stays as it is: a job cancelled before it started ends at once) */
        w->progress[0] = 0;
        pthread_mutex_unlock(&w->mu);
        memcpy(w->posted, w->an, sizeof *w->posted);   /* (the session has it: nothing changed yet) */
        worker_run(w, &a, cache, new_game);
        pthread_mutex_lock(&w->mu);
        w->busy = 0;
        w->progress[0] = 0;
    }
    pthread_mutex_unlock(&w->mu);
    analyst_close(&a);
    if (cache) cache_close(cache, &err);
    return NULL;
}

static void worker_free(worker_t *w)
{
    free(w->job);
    free(w->next);
    free(w->an);
    free(w->next_from);
    free(w->posted);
    free(w->upd);
    if (w->game) game_close(w->game);
    if (w->next_game) game_close(w->next_game);
    w->job = w->next = NULL;
    w->an = w->next_from = w->posted = NULL;
    w->upd = NULL;
    w->game = w->next_game = NULL;
}

int worker_start(worker_t *w, const char *db_path, const char *egdb_dir, size_t hash_mb, int threads, err_t *err)
{
    memset(w, 0, sizeof *w);
    snprintf(w->db, sizeof w->db, "%s", db_path ? db_path : "");
    snprintf(w->egdb_dir, sizeof w->egdb_dir, "%s", egdb_dir ? egdb_dir : "");
    w->hash_mb = hash_mb;
    w->threads = threads;
    w->job = calloc(1, sizeof *w->job);
    w->next = calloc(1, sizeof *w->next);
    w->an = calloc(1, sizeof *w->an);
    w->next_from = calloc(1, sizeof *w->next_from);
    w->posted = calloc(1, sizeof *w->posted);
    if (!w->job || !w->next || !w->an || !w->next_from || !w->posted) {
        worker_free(w);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w)) {
        worker_free(w);
        return err_set(err, GSW_EFAIL, "cannot start the worker thread");
    }
    w->started = 1;
    return GSW_OK;
}

void worker_stop(worker_t *w)
{
    if (!w->started) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    w->stop = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    worker_free(w);
    w->started = 0;
}

unsigned worker_submit(worker_t *w, const job_t *job, gv_t *game, const analysis_t *from)
{
    pthread_mutex_lock(&w->mu);
    *w->next = *job;
    w->next->id = ++w->last_id;
    if (game) {
        if (w->next_game) game_close(w->next_game);   /* (handed over, never started) */
        w->next_game = game;
    }
    if (from) memcpy(w->next_from, from, sizeof *from);
    else memset(w->next_from, 0, sizeof *w->next_from);
    w->pending = 1;
    w->stop = 0;   /* (a cancel from here on is this job's) */
    w->error[0] = 0;
    unsigned id = w->next->id;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return id;
}

void worker_cancel(worker_t *w)
{
    w->stop = 1;
}

int worker_building(worker_t *w)
{
    pthread_mutex_lock(&w->mu);
    int b = w->busy && !strncmp(w->progress, "building ", 9);
    pthread_mutex_unlock(&w->mu);
    return b;
}

int worker_idle(worker_t *w)
{
    pthread_mutex_lock(&w->mu);
    int idle = !w->busy && !w->pending;
    pthread_mutex_unlock(&w->mu);
    return idle;
}

void worker_take(worker_t *w, void (*each)(void *ctx, const worker_update_t *u), void *ctx)
{
    pthread_mutex_lock(&w->mu);
    for (int k = 0; k < w->nupd; k++) each(ctx, &w->upd[k]);
    w->nupd = 0;
    pthread_mutex_unlock(&w->mu);
}

void worker_apply(analysis_t *an, const worker_update_t *u)
{
    if (u->kind == UPD_MOVE && u->i >= 0 && u->i < an->n) an->mv[u->i] = u->mv;
    else if (u->kind == UPD_HEAD) memcpy(an, u->head, ANALYSIS_HEAD_SIZE);
}

/* The TUI's worker thread (see worker.h). */
#include "workbench/worker.h"

#include <stdio.h>
#include <string.h>

static void worker_post(worker_t *w, const job_t *j, const analysis_t *an, move_t m, int finished)
{
    pthread_mutex_lock(&w->mu);
    w->done_kind = j->kind;
    w->done_ply = j->ply;
    memcpy(w->done_pos.b, j->pos.b, j->pos_size);
    if (an) w->done_an = *an;
    w->done_move = m;
    w->finished = finished;
    w->seq++;
    pthread_mutex_unlock(&w->mu);
}

static void worker_progress(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms)
{
    worker_t *w = ctx;
    char b[96];
    value_open_text(lo, hi, b, sizeof b);
    pthread_mutex_lock(&w->mu);
    snprintf(w->progress, sizeof w->progress, "%.1f s, %.1f M nodes: %s", ms / 1000, nodes / 1e6, b);
    pthread_mutex_unlock(&w->mu);
}

/* A stored row found wrong and repaired: said on the status line, not on
 * stderr under the screen. */
static void worker_warn(void *ctx, const char *msg)
{
    worker_t *w = ctx;
    pthread_mutex_lock(&w->mu);
    snprintf(w->error, sizeof w->error, "%s", msg);
    pthread_mutex_unlock(&w->mu);
}

/* A notice (a tablebase being built): on the status line as progress. */
static void worker_note(void *ctx, const char *msg)
{
    worker_t *w = ctx;
    pthread_mutex_lock(&w->mu);
    snprintf(w->progress, sizeof w->progress, "%s", msg);
    pthread_mutex_unlock(&w->mu);
}

static void worker_run(worker_t *w, job_t *j, gv_t **gv, analyst_t *a, cache_t *cache)
{
    err_t err;
    char spec[96] = "";
    if (*gv) game_spec(*gv, spec, sizeof spec);
    if (strcmp(spec, j->spec)) {
        gv_t *nv;
        if (game_open(j->spec, &nv, &err)) goto fail;
        if (!a->ready) {
            if (analyst_open(a, nv, w->hash_mb, w->threads, cache, &w->stop, &err)) { game_close(nv); goto fail; }
            a->solver.ab.progress = worker_progress;
            a->solver.ab.progress_ctx = w;
            a->solver.warn = worker_warn;
            a->solver.note = worker_note;
            a->solver.warn_ctx = w;
        }
        analyst_retarget(a, nv);
        if (*gv) game_close(*gv);
        *gv = nv;
    }
    if (j->kind == JOB_THINK) {
        move_t m;
        if (analyst_think(a, j->pos.b, j->line, j->nline, j->level, &m, &err)) goto fail;
        worker_post(w, j, NULL, m, !w->stop);
        return;
    }
    analysis_t *an = &j->an;
    /* scores only (a finished game's history, perfect play out of reach):
     * what is built answers; no tablebase is built for them */
    a->solver.no_build = j->scores_only;
    if (!an->heuristic_done) {
        /* where perfect play is out of reach the heuristic scores are what
         * the person reads: give them time to mean something */
        double hb = *gv && (*gv)->game->play_opponent ? 600 : 100;
        if (analyst_heuristic(a, j->pos.b, an, hb, &err)) goto fail;
        worker_post(w, j, an, MOVE_NONE, 0);
    }
    if (j->scores_only) {
        worker_post(w, j, an, MOVE_NONE, !w->stop);
        return;
    }
    if (!an->root_done && !w->stop) {   /* the position's own value and best move come first */
        pthread_mutex_lock(&w->mu);
        snprintf(w->progress, sizeof w->progress, "solving the position");
        pthread_mutex_unlock(&w->mu);
        int r = analyst_root(a, j->pos.b, an, &err);
        if (r < 0) goto fail;
        worker_post(w, j, an, MOVE_NONE, 0);
    }
    int i;
    while (!w->stop && (i = analyst_next(an)) >= 0) {
        pthread_mutex_lock(&w->mu);
        snprintf(w->progress, sizeof w->progress, "solving %s", an->mv[i].text);
        pthread_mutex_unlock(&w->mu);
        an->active = i;
        worker_post(w, j, an, MOVE_NONE, 0);
        int r = analyst_prove(a, j->pos.b, an, i, &err);
        if (r < 0) goto fail;
        worker_post(w, j, an, MOVE_NONE, 0);
        if (r > 0) break;
    }
    if (cache) cache_flush(cache, &err);
    worker_post(w, j, an, MOVE_NONE, !w->stop);
    return;
fail:
    pthread_mutex_lock(&w->mu);
    snprintf(w->error, sizeof w->error, "%s", err.msg);
    pthread_mutex_unlock(&w->mu);
    worker_post(w, j, j->kind == JOB_ANALYZE ? &j->an : NULL, MOVE_NONE, 0);
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    gv_t *gv = NULL;
    analyst_t a = { 0 };
    cache_t *cache = NULL;
    err_t err;
    if (w->db[0] && cache_open(w->db, &cache, &err)) {
        pthread_mutex_lock(&w->mu);
        snprintf(w->error, sizeof w->error, "%s (solving without the cache)", err.msg);
        pthread_mutex_unlock(&w->mu);
        cache = NULL;
    }
    static job_t j;   /* one worker per process: its job lives here */
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->pending && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        j = w->job;
        w->pending = 0;
        w->busy = 1;
        w->stop = 0;
        w->progress[0] = 0;
        pthread_mutex_unlock(&w->mu);
        worker_run(w, &j, &gv, &a, cache);
        pthread_mutex_lock(&w->mu);
        w->busy = 0;
        w->progress[0] = 0;
    }
    pthread_mutex_unlock(&w->mu);
    analyst_close(&a);
    if (gv) game_close(gv);
    if (cache) cache_close(cache, &err);
    return NULL;
}

int worker_start(worker_t *w, const char *db_path, size_t hash_mb, int threads, err_t *err)
{
    memset(w, 0, sizeof *w);
    snprintf(w->db, sizeof w->db, "%s", db_path ? db_path : "");
    w->hash_mb = hash_mb;
    w->threads = threads;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w)) return err_set(err, GSW_EFAIL, "cannot start the worker thread");
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
    w->started = 0;
}

void worker_submit(worker_t *w, const job_t *job)
{
    pthread_mutex_lock(&w->mu);
    w->job = *job;
    w->pending = 1;
    w->error[0] = 0;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void worker_cancel(worker_t *w)
{
    w->stop = 1;
}

int worker_idle(worker_t *w)
{
    pthread_mutex_lock(&w->mu);
    int idle = !w->busy && !w->pending;
    pthread_mutex_unlock(&w->mu);
    return idle;
}

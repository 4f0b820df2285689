/* The retrograde engine: solves one build unit of an endgame database by
 * propagating values backwards from the positions whose value is known
 * (no move left, or a move out of the unit into a finished slice), level by
 * level in distance, so every win is the shortest and every loss the
 * longest. Game-independent: the caller supplies each node's moves inside
 * the unit (a count), its best exit and its predecessors (core/retro.h). */
#include "core/retro.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RETRO_CHUNK 16384      /* nodes a thread takes at a time */
#define EX_NONE 0u             /* exit codes (uint16): no exit */
#define EX_DRAW 0xffffu        /* ... a drawing exit; else a retro_val_t */

const char *retro_metric_name(retro_metric_t m)
{
    static const char *const names[RETRO_METRICS] = { "wld", "dtc", "dtw" };
    return (unsigned)m < RETRO_METRICS ? names[m] : "?";
}

int retro_metric_parse(const char *s, retro_metric_t *m)
{
    for (int i = 0; i < RETRO_METRICS; i++)
        if (!strcmp(s, retro_metric_name((retro_metric_t)i))) { *m = (retro_metric_t)i; return 0; }
    return -1;
}

val_t retro_to_val(retro_val_t r)
{
    if (r == RETRO_UNKNOWN) return VAL_DRAW;
    return retro_is_loss(r) ? val_loss(retro_dist(r)) : val_win(retro_dist(r));
}

retro_val_t retro_from_val(val_t v)
{
    if (val_is_win(v)) return retro_win(val_plies(v) > RETRO_MAX_DIST ? RETRO_MAX_DIST : val_plies(v));
    if (val_is_loss(v)) return retro_loss(val_plies(v) > RETRO_MAX_DIST ? RETRO_MAX_DIST : val_plies(v));
    return RETRO_UNKNOWN;
}

typedef struct retro_run {
    const retro_unit_t *u;
    retro_val_t *val;
    uint8_t *cnt;              /* moves inside the unit not yet known to lose for the mover */
    uint16_t *ex;              /* best exit (EX_NONE, EX_DRAW or a retro_val_t) */
    int phase;                 /* 0 init, 1 exits due at level d, 2 propagate level d, 3 check */
    int d;
    uint64_t next;             /* the next chunk (atomic) */
    uint64_t done;             /* nodes done in this phase (atomic) */
    uint64_t frontier;         /* nodes at level d met in phase 2 (atomic) */
    int maxex;                 /* the longest exit distance (atomic max) */
    int failed;                /* an error or a stop: everyone leaves */
    pthread_mutex_t lock;      /* err and progress */
    err_t err;
} retro_run_t;

static void retro_fail(retro_run_t *r, const err_t *e)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) r->err = *e;
    __atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
}

static inline int ex_dist(uint16_t x) { return retro_dist((retro_val_t)x); }

static void retro_init_node(retro_run_t *r, int tid, uint64_t i, err_t *e)
{
    int nin = 0;
    val_t best = VAL_WIN + 1;
    if (r->u->init(r->u->ctx, tid, i, &nin, &best, e)) { retro_fail(r, e); return; }
    if (nin < 0 || nin > 255) {
        err_set(e, GSW_EFAIL, "retro: node %llu has %d moves inside its unit", (unsigned long long)i, nin);
        retro_fail(r, e);
        return;
    }
    r->cnt[i] = (uint8_t)nin;
    uint16_t x = EX_NONE;
    if (best <= VAL_WIN) {
        x = val_is_proven_decisive(best) ? retro_from_val(best) : EX_DRAW;
        if (x != EX_DRAW) {
            int d = ex_dist(x), m = __atomic_load_n(&r->maxex, __ATOMIC_RELAXED);
            while (d > m && !__atomic_compare_exchange_n(&r->maxex, &m, d, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        }
    } else if (nin == 0) {
        err_set(e, GSW_EFAIL, "retro: node %llu has neither a move nor a value", (unsigned long long)i);
        retro_fail(r, e);
        return;
    }
    r->ex[i] = x;
}

/* Exits due at level d: a winning exit of distance d, or a losing one of
 * distance d once every move inside the unit is known to lose. */
static void retro_exits_node(retro_run_t *r, uint64_t i)
{
    if (r->val[i] != RETRO_UNKNOWN) return;
    uint16_t x = r->ex[i];
    if (x == EX_NONE || x == EX_DRAW || ex_dist(x) != r->d) return;
    if (retro_is_win((retro_val_t)x) || r->cnt[i] == 0) r->val[i] = (retro_val_t)x;
}

static void retro_propagate_node(retro_run_t *r, int tid, uint64_t i, uint64_t *frontier, err_t *e)
{
    retro_val_t v = __atomic_load_n(&r->val[i], __ATOMIC_RELAXED);
    int d = r->d;
    if (v == RETRO_UNKNOWN || retro_dist(v) != d) return;
    (*frontier)++;
    uint64_t pred[RETRO_MAX_MOVES];
    int np = r->u->preds(r->u->ctx, tid, i, pred, e);
    if (np < 0) { retro_fail(r, e); return; }
    for (int k = 0; k < np; k++) {
        uint64_t p = pred[k];
        if (p >= r->u->n) {
            err_set(e, GSW_EFAIL, "retro: node %llu has a predecessor %llu outside the unit", (unsigned long long)i,
                    (unsigned long long)p);
            retro_fail(r, e);
            return;
        }
        if (__atomic_load_n(&r->val[p], __ATOMIC_RELAXED) != RETRO_UNKNOWN) continue;
        retro_val_t zero = RETRO_UNKNOWN;
        if (retro_is_loss(v)) {   /* a move to a lost position wins */
            __atomic_compare_exchange_n(&r->val[p], &zero, retro_win(d + 1), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
            continue;
        }
        uint8_t left = __atomic_sub_fetch(&r->cnt[p], 1, __ATOMIC_RELAXED);
        if (left) continue;
        uint16_t x = r->ex[p];   /* every move inside loses: the exits decide */
        if (x == EX_NONE || (retro_is_loss((retro_val_t)x) && ex_dist(x) <= d + 1))
            __atomic_compare_exchange_n(&r->val[p], &zero, retro_loss(d + 1), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        /* a longer losing exit waits for its level; a drawing exit draws;
           a winning one wins at its level */
    }
}

static void *retro_worker(void *arg_)
{
    struct { retro_run_t *r; int tid; } *arg = arg_;
    retro_run_t *r = arg->r;
    int tid = arg->tid;
    const retro_unit_t *u = r->u;
    err_t e = { 0 };
    uint64_t frontier = 0;
    for (;;) {
        if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
        if (u->stop && *u->stop) {
            err_set(&e, GSW_EFAIL, "stopped");
            retro_fail(r, &e);
            break;
        }
        uint64_t a = __atomic_fetch_add(&r->next, RETRO_CHUNK, __ATOMIC_RELAXED);
        if (a >= u->n) break;
        uint64_t b = a + RETRO_CHUNK < u->n ? a + RETRO_CHUNK : u->n;
        for (uint64_t i = a; i < b; i++) {
            if (r->phase == 0) retro_init_node(r, tid, i, &e);
            else if (r->phase == 1) retro_exits_node(r, i);
            else if (r->phase == 2) retro_propagate_node(r, tid, i, &frontier, &e);
            else if (u->check(u->ctx, tid, i, r->val, &e)) retro_fail(r, &e);
            if (r->phase != 1 && __atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
        }
        uint64_t done = __atomic_add_fetch(&r->done, b - a, __ATOMIC_RELAXED);
        if (tid == 0 && u->progress && (r->phase == 0 || r->phase == 3)) {
            pthread_mutex_lock(&r->lock);
            u->progress(u->ctx, r->phase ? "check" : "init", done, u->n);
            pthread_mutex_unlock(&r->lock);
        }
    }
    __atomic_add_fetch(&r->frontier, frontier, __ATOMIC_RELAXED);
    return NULL;
}

/* One phase over every node, on u->threads threads (this one included). */
static int retro_phase(retro_run_t *r, int phase)
{
    int t = r->u->threads > 0 ? r->u->threads : 1;
    if (t > 256) t = 256;
    r->phase = phase;
    r->next = 0;
    r->done = 0;
    r->frontier = 0;
    struct { retro_run_t *r; int tid; } args[256];
    pthread_t th[256];
    int started = 0;
    for (int i = 1; i < t; i++) {
        args[i].r = r;
        args[i].tid = i;
        if (pthread_create(&th[i], NULL, retro_worker, &args[i])) break;
        started = i;
    }
    args[0].r = r;
    args[0].tid = 0;
    retro_worker(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    return r->failed ? -1 : 0;
}

int retro_solve(const retro_unit_t *u, retro_val_t *val, err_t *err)
{
    retro_run_t r;
    memset(&r, 0, sizeof r);
    r.u = u;
    r.val = val;
    r.cnt = malloc(u->n ? u->n : 1);
    r.ex = malloc((u->n ? u->n : 1) * sizeof *r.ex);
    if (!r.cnt || !r.ex) {
        free(r.cnt);
        free(r.ex);
        return err_set(err, GSW_EFAIL, "retro: out of memory for a unit of %llu positions", (unsigned long long)u->n);
    }
    pthread_mutex_init(&r.lock, NULL);
    memset(val, 0, u->n * sizeof *val);
    int rc = retro_phase(&r, 0);
    uint64_t solved = 0;
    for (r.d = 0; !rc; r.d++) {
        if (r.d > RETRO_MAX_DIST - 2) {
            err_set(&r.err, GSW_EFAIL, "retro: distances beyond %d plies", RETRO_MAX_DIST);
            rc = -1;
            break;
        }
        if (r.d <= r.maxex && (rc = retro_phase(&r, 1))) break;
        if ((rc = retro_phase(&r, 2))) break;
        solved += r.frontier;
        if (u->progress) u->progress(u->ctx, "propagate", solved, u->n);
        if (!r.frontier && r.d >= r.maxex) break;
    }
    pthread_mutex_destroy(&r.lock);
    free(r.cnt);
    free(r.ex);
    if (rc) {
        *err = r.err;
        return err->code ? err->code : GSW_EFAIL;
    }
    return GSW_OK;
}

int retro_check(const retro_unit_t *u, const retro_val_t *val, err_t *err)
{
    retro_run_t r;
    memset(&r, 0, sizeof r);
    r.u = u;
    r.val = (retro_val_t *)val;   /* read only in this phase */
    pthread_mutex_init(&r.lock, NULL);
    int rc = retro_phase(&r, 3);
    pthread_mutex_destroy(&r.lock);
    if (rc) {
        *err = r.err;
        return err->code ? err->code : GSW_EFAIL;
    }
    return GSW_OK;
}

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
#include <time.h>

#include "core/pfor.h"

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

const char *retro_game_metric_name(const retro_game_t *rg, retro_metric_t m)
{
    return m == RETRO_DTW && rg && rg->mate_metric ? "dtm" : retro_metric_name(m);
}

int retro_game_metric_parse(const retro_game_t *rg, const char *s, retro_metric_t *m)
{
    for (int i = 0; i < RETRO_METRICS; i++)
        if (!strcmp(s, retro_game_metric_name(rg, (retro_metric_t)i))) { *m = (retro_metric_t)i; return 0; }
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

/* One node of a run, its three fields side by side so the propagation
 * touches one cache line per predecessor. */
typedef struct retro_node {
    uint16_t val;              /* a retro_val_t */
    uint16_t ex;               /* best exit (EX_NONE, EX_DRAW or a retro_val_t) */
    uint16_t cnt;              /* moves inside the unit not yet known to lose for the mover */
} retro_node_t;

#define RETRO_GROUP 8          /* nodes whose moves are listed before their targets are read */

typedef struct retro_run {
    const retro_unit_t *u;
    retro_node_t *node;        /* NULL in retro_check */
    const retro_val_t *val;    /* retro_check: the values checked */
    int phase;                 /* 0 init, 2 propagate level d, 3 check (retro_check), 4 check (retro_solve) */
    int d;
    uint64_t work;             /* items of this phase: nodes, or the frontier's length */
    const uint32_t *items;     /* the frontier (phase 2) */
    uint64_t next;             /* the next chunk (atomic) */
    uint64_t done;             /* items done in this phase (atomic) */
    int maxex;                 /* the longest exit distance (atomic max) */
    /* phase 2: the nodes each thread resolved for the next level */
    uint32_t *tnext[256];
    uint64_t tn[256], tcap[256];
    uint64_t *scratch[256];    /* per thread: twice RETRO_GROUP lists of RETRO_MAX_MOVES nodes */
    /* the moves inside the unit that init listed, kept for the check while
       u->keep_bytes allows: per chunk of RETRO_CHUNK nodes, each node's
       count then its moves' nodes (NULL: that chunk's are listed again) */
    uint32_t **kept;
    uint64_t kept_bytes;       /* atomic */
    uint64_t edges;            /* atomic: moves inside the unit, in all */
    const uint32_t *cursor[256];   /* per thread: the check's place in its chunk's kept lists */
    double busy[256];          /* per thread, this phase (ms) */
    uint64_t titems[256];      /* per thread, all phases */
    int failed;                /* an error or a stop: everyone leaves */
    pthread_mutex_t lock;      /* err and progress */
    err_t err;
} retro_run_t;

static double retro_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void retro_fail(retro_run_t *r, const err_t *e)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) r->err = *e;
    __atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
}

static inline int ex_dist(uint16_t x) { return retro_dist((retro_val_t)x); }

/* The best exit as the value it gives (VAL_WIN + 1: none). */
static inline val_t ex_value(uint16_t x)
{
    return x == EX_NONE ? VAL_WIN + 1 : x == EX_DRAW ? VAL_DRAW : retro_to_val((retro_val_t)x);
}

static void retro_init_node(retro_run_t *r, int tid, uint64_t i, err_t *e)
{
    val_t best = VAL_WIN + 1;
    int nin = r->u->moves(r->u->ctx, tid, i, r->scratch[tid], &best, e);
    if (nin < 0) { retro_fail(r, e); return; }
    if (nin > 255) {
        err_set(e, GSW_EFAIL, "retro: node %llu has %d moves inside its unit", (unsigned long long)i, nin);
        retro_fail(r, e);
        return;
    }
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
    r->node[i] = (retro_node_t){ .val = RETRO_UNKNOWN, .ex = x, .cnt = (uint16_t)nin };
}

/* p resolved for the next level by thread tid: it joins that frontier. */
static int retro_push(retro_run_t *r, int tid, uint32_t p)
{
    if (r->tn[tid] == r->tcap[tid]) {
        uint64_t cap = r->tcap[tid] ? r->tcap[tid] * 2 : 4096;
        uint32_t *a = realloc(r->tnext[tid], cap * sizeof *a);
        if (!a) return -1;
        r->tnext[tid] = a;
        r->tcap[tid] = cap;
    }
    r->tnext[tid][r->tn[tid]++] = p;
    return 0;
}

/* Lists of nodes (predecessors or moves) of up to RETRO_GROUP nodes into
 * buf (RETRO_MAX_MOVES each), their targets and the nodes themselves
 * prefetched. The worker makes one group's lists while the group before
 * waits, then applies that one: on a large unit the random reads of a group
 * then arrive while the next group's lists are made. */
static int retro_lists(retro_run_t *r, int tid, const uint64_t *at, int g, int *nl, uint64_t *buf, err_t *e)
{
    const retro_unit_t *u = r->u;
    for (int j = 0; j < g; j++) __builtin_prefetch(&r->node[at[j]], 0);
    for (int j = 0; j < g; j++) {
        uint64_t *l = buf + (size_t)j * RETRO_MAX_MOVES;
        if (r->phase == 4 && r->cursor[tid]) {   /* init's list of this node */
            const uint32_t *c = r->cursor[tid];
            nl[j] = (int)*c++;
            for (int k = 0; k < nl[j]; k++) l[k] = c[k];
            r->cursor[tid] = c + nl[j];
        } else
            nl[j] = r->phase == 2 ? u->preds(u->ctx, tid, at[j], l, e) : u->moves(u->ctx, tid, at[j], l, NULL, e);
        if (nl[j] < 0) { retro_fail(r, e); return -1; }
        for (int k = 0; k < nl[j]; k++) {
            if (l[k] >= u->n) {
                err_set(e, GSW_EFAIL, "retro: node %llu has a %s %llu outside the unit", (unsigned long long)at[j],
                        r->phase == 2 ? "predecessor" : "move to", (unsigned long long)l[k]);
                retro_fail(r, e);
                return -1;
            }
            __builtin_prefetch(&r->node[l[k]], 1);
        }
    }
    return 0;
}

/* Level d's frontier nodes at[0..g-1] with their predecessor lists: each
 * predecessor wins by a move to a lost node, or loses once its last move
 * inside the unit is known to lose and its exits lose no later. */
static void retro_propagate_apply(retro_run_t *r, int tid, const uint64_t *at, int g, const int *np,
                                  const uint64_t *buf, err_t *e)
{
    int d = r->d;
    for (int j = 0; j < g; j++) {
        retro_val_t v = r->node[at[j]].val;
        const uint64_t *pred = buf + (size_t)j * RETRO_MAX_MOVES;
        for (int k = 0; k < np[j]; k++) {
            retro_node_t *p = &r->node[pred[k]];
            if (__atomic_load_n(&p->val, __ATOMIC_RELAXED) != RETRO_UNKNOWN) continue;
            uint16_t zero = RETRO_UNKNOWN, nv;
            if (retro_is_loss(v)) nv = retro_win(d + 1);   /* a move to a lost position wins */
            else {
                if (__atomic_sub_fetch(&p->cnt, 1, __ATOMIC_RELAXED)) continue;
                uint16_t x = p->ex;   /* every move inside loses: the exits decide */
                if (!(x == EX_NONE || (retro_is_loss((retro_val_t)x) && ex_dist(x) <= d + 1))) continue;
                /* (a longer losing exit waits for its level; a drawing exit
                   draws; a winning one wins at its level) */
                nv = retro_loss(d + 1);
            }
            if (__atomic_compare_exchange_n(&p->val, &zero, nv, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
                retro_push(r, tid, (uint32_t)pred[k])) {
                err_set(e, GSW_EFAIL, "retro: out of memory for the frontier");
                retro_fail(r, e);
                return;
            }
        }
    }
}

/* retro_solve's check of nodes at[0..g-1] with their move lists: each
 * value is the best of its exit and its moves inside the unit. */
static void retro_check_apply(retro_run_t *r, const uint64_t *at, int g, const int *nm, const uint64_t *buf, err_t *e)
{
    for (int j = 0; j < g; j++) {
        const retro_node_t *x = &r->node[at[j]];
        val_t best = ex_value(x->ex);
        if (best > VAL_WIN) best = -VAL_INF;
        const uint64_t *m = buf + (size_t)j * RETRO_MAX_MOVES;
        for (int k = 0; k < nm[j]; k++) {
            val_t c = val_up(retro_to_val(r->node[m[k]].val));
            if (c > best) best = c;
        }
        if (retro_to_val(x->val) == best) continue;
        char name[300] = "";
        if (r->u->describe) r->u->describe(r->u->ctx, at[j], name, sizeof name);
        err_set(e, GSW_EFAIL, "retro: node %llu%s%s is solved as %d but its moves give %d", (unsigned long long)at[j],
                *name ? " " : "", name, (int)retro_to_val(x->val), (int)best);
        retro_fail(r, e);
        return;
    }
}

/* Items a..b of a propagation (2) or check (4) phase, a group at a time,
 * each group's lists made while the group before it waits for memory. */
static void retro_groups(retro_run_t *r, int tid, uint64_t a, uint64_t b, err_t *e)
{
    uint64_t at[2][RETRO_GROUP];
    int g[2], nl[2][RETRO_GROUP];
    uint64_t *buf[2] = { r->scratch[tid], r->scratch[tid] + (size_t)RETRO_GROUP * RETRO_MAX_MOVES };
    uint64_t i = a;
    for (int h = 0, first = 1;; h ^= 1, first = 0) {
        g[h] = 0;
        for (; g[h] < RETRO_GROUP && i < b; g[h]++, i++) at[h][g[h]] = r->phase == 2 ? r->items[i] : i;
        if (g[h] && retro_lists(r, tid, at[h], g[h], nl[h], buf[h], e)) return;
        int p = h ^ 1;   /* the group before: its reads are on their way */
        if (!first) {
            if (r->phase == 2) retro_propagate_apply(r, tid, at[p], g[p], nl[p], buf[p], e);
            else retro_check_apply(r, at[p], g[p], nl[p], buf[p], e);
        }
        if (!g[h] || __atomic_load_n(&r->failed, __ATOMIC_RELAXED)) return;
    }
}

static void *retro_worker(void *arg_)
{
    struct { retro_run_t *r; int tid; } *arg = arg_;
    retro_run_t *r = arg->r;
    int tid = arg->tid;
    const retro_unit_t *u = r->u;
    err_t e = { 0 };
    double t0 = retro_ms();
    uint64_t items = 0;
    for (;;) {
        if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
        if (u->stop && *u->stop) {
            err_set(&e, GSW_EFAIL, "stopped");
            retro_fail(r, &e);
            break;
        }
        uint64_t chunk = r->phase == 2 ? RETRO_CHUNK / 16 : RETRO_CHUNK;
        uint64_t a = __atomic_fetch_add(&r->next, chunk, __ATOMIC_RELAXED);
        if (a >= r->work) break;
        uint64_t b = a + chunk < r->work ? a + chunk : r->work;
        uint32_t *keep = NULL;   /* init: this chunk's lists, kept for the check */
        size_t klen = 0, kcap = 0;
        if (r->phase == 0 && r->kept) {
            kcap = (size_t)(b - a) * 8;
            keep = malloc(kcap * sizeof *keep);
        }
        if (r->phase == 4) r->cursor[tid] = r->kept ? r->kept[a / RETRO_CHUNK] : NULL;
        uint64_t edges = 0;
        for (uint64_t i = a; i < b && !__atomic_load_n(&r->failed, __ATOMIC_RELAXED);) {
            if (r->phase == 0) {
                retro_init_node(r, tid, i++, &e);
                if (__atomic_load_n(&r->failed, __ATOMIC_RELAXED)) break;
                int nin = r->node[i - 1].cnt;
                edges += (uint64_t)nin;
                if (!keep) continue;
                if (klen + 1 + (size_t)nin > kcap) {
                    uint32_t *x = realloc(keep, (kcap = 2 * kcap + 1 + (size_t)nin) * sizeof *keep);
                    if (!x) { free(keep); keep = NULL; continue; }
                    keep = x;
                }
                keep[klen++] = (uint32_t)nin;
                for (int k = 0; k < nin; k++) keep[klen++] = (uint32_t)r->scratch[tid][k];
                continue;
            }
            if (r->phase == 3) {
                if (u->check(u->ctx, tid, i, r->val, &e)) retro_fail(r, &e);
                i++;
                continue;
            }
            retro_groups(r, tid, i, b, &e);
            break;
        }
        if (keep) {   /* kept while the budget allows; else the check lists these nodes' moves again */
            uint64_t bytes = klen * sizeof *keep;
            if (__atomic_add_fetch(&r->kept_bytes, bytes, __ATOMIC_RELAXED) <= r->u->keep_bytes) {
                uint32_t *x = realloc(keep, klen ? klen * sizeof *keep : 1);
                r->kept[a / RETRO_CHUNK] = x ? x : keep;
            } else {
                __atomic_sub_fetch(&r->kept_bytes, bytes, __ATOMIC_RELAXED);
                free(keep);
            }
        }
        if (edges) __atomic_add_fetch(&r->edges, edges, __ATOMIC_RELAXED);
        items += b - a;
        uint64_t done = __atomic_add_fetch(&r->done, b - a, __ATOMIC_RELAXED);
        if (tid == 0 && u->progress && r->phase != 2) {
            pthread_mutex_lock(&r->lock);
            u->progress(u->ctx, r->phase ? "check" : "init", done, r->work);
            pthread_mutex_unlock(&r->lock);
        }
    }
    r->busy[tid] += retro_ms() - t0;
    r->titems[tid] += items;
    return NULL;
}

/* One phase over `work` items on u->threads threads (this one included;
 * one alone when the work is small). Its wall time; each thread's wait
 * is that less its busy time. */
static int retro_phase(retro_run_t *r, int phase, uint64_t work, double *wall)
{
    int t = r->u->threads > 0 ? r->u->threads : 1;
    if (t > 256) t = 256;
    if (work < 2048) t = 1;
    r->phase = phase;
    r->work = work;
    r->next = 0;
    r->done = 0;
    struct { retro_run_t *r; int tid; } args[256];
    pthread_t th[256];
    int started = 0;
    double t0 = retro_ms();
    double busy0[256];
    memcpy(busy0, r->busy, sizeof busy0);
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
    double w = retro_ms() - t0;
    if (wall) *wall += w;
    if (r->u->stats) {
        retro_stats_t *s = r->u->stats;
        int n = r->u->threads < RETRO_STATS_THREADS ? r->u->threads : RETRO_STATS_THREADS;
        if (n > s->threads) s->threads = n;
        for (int i = 0; i < n; i++) {
            double b = r->busy[i] - busy0[i];
            s->busy_ms[i] += b;
            s->wait_ms[i] += w > b ? w - b : 0;
        }
    }
    return r->failed ? -1 : 0;
}

static void retro_run_free(retro_run_t *r)
{
    for (int i = 0; i < 256; i++) {
        free(r->tnext[i]);
        free(r->scratch[i]);
    }
    if (r->u->stats) {
        int n = r->u->threads < RETRO_STATS_THREADS ? r->u->threads : RETRO_STATS_THREADS;
        for (int i = 0; i < n; i++) r->u->stats->items[i] += r->titems[i];
    }
    if (r->kept)
        for (uint64_t k = 0; k <= r->u->n / RETRO_CHUNK; k++) free(r->kept[k]);
    free(r->kept);
    free(r->node);
    pthread_mutex_destroy(&r->lock);
}

static int retro_run_init(retro_run_t *r, const retro_unit_t *u)
{
    memset(r, 0, sizeof *r);
    r->u = u;
    pthread_mutex_init(&r->lock, NULL);
    int t = u->threads > 0 ? (u->threads > 256 ? 256 : u->threads) : 1;
    for (int i = 0; i < t; i++)
        if (!(r->scratch[i] = malloc((size_t)2 * RETRO_GROUP * RETRO_MAX_MOVES * sizeof **r->scratch))) return -1;
    return 0;
}

/* --- the passes between phases, on the unit's threads too --- */

enum { RETRO_SORT_CHUNK = 1 << 20 };
typedef struct retro_job {
    retro_run_t *r;
    uint64_t *off;          /* by chunk, then by distance: counts, then where the chunk's first goes */
    uint32_t *bnode;
    int nd;                 /* distances (maxex + 1) */
    retro_val_t *val;
} retro_job_t;

static int retro_decisive(const retro_node_t *x) { return x->ex != EX_NONE && x->ex != EX_DRAW; }

static void retro_count_exits(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    uint64_t *h = j->off + a / RETRO_SORT_CHUNK * (uint64_t)j->nd;
    for (uint64_t i = a; i < b; i++)
        if (retro_decisive(&j->r->node[i])) h[ex_dist(j->r->node[i].ex)]++;
}

static void retro_place_exits(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    uint64_t *at = j->off + a / RETRO_SORT_CHUNK * (uint64_t)j->nd;
    for (uint64_t i = a; i < b; i++)
        if (retro_decisive(&j->r->node[i])) j->bnode[at[ex_dist(j->r->node[i].ex)]++] = (uint32_t)i;
}

static void retro_copy_vals(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    retro_job_t *j = ctx;
    for (uint64_t i = a; i < b; i++) j->val[i] = j->r->node[i].val;
}

/* The decisive exits by distance (a counting sort, each distance in index
 * order), so each level visits only its own: *bstart (maxex + 2 entries)
 * and *bnode. Counted and placed chunk by chunk on the unit's threads. */
static int retro_sort_exits(retro_run_t *r, uint64_t **bstart, uint32_t **bnode, uint64_t *nb)
{
    uint64_t n = r->u->n, nch = n / RETRO_SORT_CHUNK + 1;
    retro_job_t j = { r, NULL, NULL, r->maxex + 1, NULL };
    *bstart = calloc((size_t)r->maxex + 2, sizeof **bstart);
    j.off = calloc(nch * (uint64_t)j.nd, sizeof *j.off);
    if (!*bstart || !j.off) goto oom;
    gsw_pfor(r->u->threads, n, RETRO_SORT_CHUNK, retro_count_exits, &j);
    for (uint64_t k = 0; k < nch; k++)
        for (int d = 0; d < j.nd; d++) (*bstart)[d + 1] += j.off[k * j.nd + d];
    for (int d = 0; d <= r->maxex; d++) (*bstart)[d + 1] += (*bstart)[d];
    *nb = (*bstart)[r->maxex + 1];
    for (int d = 0; d < j.nd; d++)
        for (uint64_t k = 0, at = (*bstart)[d]; k < nch; k++) {
            uint64_t c = j.off[k * j.nd + d];
            j.off[k * j.nd + d] = at;
            at += c;
        }
    if (!(*bnode = j.bnode = malloc((*nb ? *nb : 1) * sizeof **bnode))) goto oom;
    gsw_pfor(r->u->threads, n, RETRO_SORT_CHUNK, retro_place_exits, &j);
    free(j.off);
    return 0;
oom:
    free(j.off);
    err_set(&r->err, GSW_EFAIL, "retro: out of memory for a unit of %llu positions", (unsigned long long)n);
    return -1;
}

int retro_solve(const retro_unit_t *u, retro_val_t *val, err_t *err)
{
    retro_run_t r;
    if (u->stats) memset(u->stats, 0, sizeof *u->stats);
    if (retro_run_init(&r, u)) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory");
    }
    if (u->n >= UINT32_MAX) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: a unit of %llu positions is more than one build can hold",
                       (unsigned long long)u->n);
    }
    r.node = malloc((u->n ? u->n : 1) * sizeof *r.node);
    if (u->keep_bytes) r.kept = calloc(u->n / RETRO_CHUNK + 1, sizeof *r.kept);   /* NULL: nothing kept */
    uint64_t *bstart = NULL;
    uint32_t *bnode = NULL, *cur = NULL;
    int rc = 0;
    if (!r.node) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory for a unit of %llu positions", (unsigned long long)u->n);
    }
    double dummy = 0, *t_init = u->stats ? &u->stats->init_ms : &dummy,
           *t_prop = u->stats ? &u->stats->propagate_ms : &dummy, *t_check = u->stats ? &u->stats->check_ms : &dummy;
    rc = retro_phase(&r, 0, u->n, t_init);
    /* the decisive exits by distance (a counting sort), so each level
       visits only its own */
    uint64_t nb = 0;
    if (!rc) rc = retro_sort_exits(&r, &bstart, &bnode, &nb);
    uint64_t ncur = 0, capcur = 0, solved = 0;
    for (r.d = 0; !rc; r.d++) {
        if (r.d > RETRO_MAX_DIST - 2) {
            err_set(&r.err, GSW_EFAIL, "retro: distances beyond %d plies", RETRO_MAX_DIST);
            rc = -1;
            break;
        }
        /* the frontier: what the last level resolved, then the exits due
           now (a winning exit of this distance, or a losing one once every
           move inside the unit is known to lose) */
        uint64_t want = ncur;
        for (int t = 0; t < 256; t++) want += r.tn[t];
        if (r.d <= r.maxex) want += bstart[r.d + 1] - bstart[r.d];
        if (want > capcur) {
            uint32_t *a = realloc(cur, (want ? want : 1) * sizeof *a);
            if (!a) { err_set(&r.err, GSW_EFAIL, "retro: out of memory for the frontier"); rc = -1; break; }
            cur = a;
            capcur = want;
        }
        ncur = 0;
        for (int t = 0; t < 256; t++) {
            if (r.tn[t]) memcpy(cur + ncur, r.tnext[t], r.tn[t] * sizeof *cur);
            ncur += r.tn[t];
            r.tn[t] = 0;
        }
        if (r.d <= r.maxex)
            for (uint64_t k = bstart[r.d]; k < bstart[r.d + 1]; k++) {
                retro_node_t *x = &r.node[bnode[k]];
                if (x->val != RETRO_UNKNOWN) continue;
                if (retro_is_win((retro_val_t)x->ex) || x->cnt == 0) {
                    x->val = x->ex;
                    cur[ncur++] = bnode[k];
                }
            }
        if (!ncur && r.d >= r.maxex) break;
        r.items = cur;
        if ((rc = retro_phase(&r, 2, ncur, t_prop))) break;
        solved += ncur;
        if (u->stats) u->stats->levels = r.d + 1;
        if (u->progress) u->progress(u->ctx, "propagate", solved, u->n);
    }
    free(bstart);
    free(bnode);
    free(cur);
    if (u->stats) {
        u->stats->edges = r.edges;
        u->stats->kept_bytes = r.kept_bytes;
    }
    if (!rc) rc = retro_phase(&r, 4, u->n, t_check);
    if (rc) {
        *err = r.err;
        retro_run_free(&r);
        return err->code ? err->code : GSW_EFAIL;
    }
    retro_job_t job = { &r, NULL, NULL, 0, val };
    gsw_pfor(u->threads, u->n, RETRO_SORT_CHUNK, retro_copy_vals, &job);
    retro_run_free(&r);
    return GSW_OK;
}

int retro_check(const retro_unit_t *u, const retro_val_t *val, err_t *err)
{
    retro_run_t r;
    if (retro_run_init(&r, u)) {
        retro_run_free(&r);
        return err_set(err, GSW_EFAIL, "retro: out of memory");
    }
    r.val = val;
    int rc = retro_phase(&r, 3, u->n, NULL);
    retro_run_free(&r);
    if (rc) {
        *err = r.err;
        return err->code ? err->code : GSW_EFAIL;
    }
    return GSW_OK;
}

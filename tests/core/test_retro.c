/* The retrograde engine on random graphs: its values (shortest win, longest
 * loss, exits out of the unit, draws by cycles) against a slow solver that
 * applies the definition level by level, on one thread and on several,
 * and divided between parts (threads standing in for Open MPI's ranks,
 * meeting at barriers). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/retro.h"
#include "core/retro_run.h"
#include "tests/test_rng.h"

typedef struct graph {
    int n;
    int *nsucc;
    int (*succ)[4];
    val_t *exit;            /* VAL_WIN + 1: none; else the mover's value of its best exit */
    int *npred;
    int (*pred)[64];
    int *listed;            /* NULL, or per node: the times the check listed its moves */
} graph_t;

static void graph_make(graph_t *g, int n, uint64_t seed)
{
    uint64_t s = seed;
    g->n = n;
    g->nsucc = calloc((size_t)n, sizeof *g->nsucc);
    g->succ = calloc((size_t)n, sizeof *g->succ);
    g->exit = calloc((size_t)n, sizeof *g->exit);
    g->npred = calloc((size_t)n, sizeof *g->npred);
    g->pred = calloc((size_t)n, sizeof *g->pred);
    g->listed = NULL;
    for (int i = 0; i < n; i++) {
        int k = (int)(test_splitmix(&s) % 5);
        for (int j = 0; j < k; j++) {
            int t = (int)(test_splitmix(&s) % (uint64_t)n);
            if (g->npred[t] >= 64) continue;
            g->succ[i][g->nsucc[i]++] = t;
            g->pred[t][g->npred[t]++] = i;
        }
        uint64_t e = test_splitmix(&s) % 8;
        int d = (int)(test_splitmix(&s) % 12);
        g->exit[i] = VAL_WIN + 1;
        if (e == 0) g->exit[i] = val_win(d | 1);
        else if (e == 1) g->exit[i] = val_loss(d & ~1);
        else if (e == 2) g->exit[i] = VAL_DRAW;
        if (g->nsucc[i] == 0 && g->exit[i] > VAL_WIN) g->exit[i] = val_loss(0);   /* no move: lost */
    }
}

static void graph_free(graph_t *g)
{
    free(g->nsucc);
    free(g->succ);
    free(g->exit);
    free(g->npred);
    free(g->pred);
}

static int g_moves(void *ctx, int tid, uint64_t node, uint64_t *inside, val_t *exit_best, err_t *err)
{
    (void)tid;
    (void)err;
    const graph_t *g = ctx;
    for (int k = 0; k < g->nsucc[node]; k++) inside[k] = (uint64_t)g->succ[node][k];
    if (exit_best) *exit_best = g->exit[node];
    else if (g->listed) __atomic_add_fetch(&g->listed[node], 1, __ATOMIC_RELAXED);
    return g->nsucc[node];
}

static int g_preds(void *ctx, int tid, uint64_t node, uint64_t *out, err_t *err)
{
    (void)tid;
    (void)err;
    const graph_t *g = ctx;
    for (int k = 0; k < g->npred[node]; k++) out[k] = (uint64_t)g->pred[node][k];
    return g->npred[node];
}

/* The definition: at level d a node wins if an option reaches a loss at
 * d - 1 (or an exit wins in d); loses in d if every option is a known win
 * and the longest is d - 1 (or a losing exit of d). */
static void slow_solve(const graph_t *g, val_t *out)
{
    int n = g->n;
    int *res = calloc((size_t)n, sizeof *res);   /* 0 unknown, 1 resolved */
    for (int d = 0, changed = 1; changed || d <= 12; d++) {   /* exits are at most 12 plies */
        changed = 0;
        int *now = calloc((size_t)n, sizeof *now);
        val_t *nv = calloc((size_t)n, sizeof *nv);
        for (int i = 0; i < n; i++) {
            if (res[i]) continue;
            int win = g->exit[i] <= VAL_WIN && val_is_win(g->exit[i]) && val_plies(g->exit[i]) == d;
            int all_win = 1, longest = -1;
            if (g->exit[i] <= VAL_WIN) {
                if (val_is_loss(g->exit[i])) longest = val_plies(g->exit[i]);
                else all_win = 0;
            }
            for (int k = 0; k < g->nsucc[i]; k++) {
                int t = g->succ[i][k];
                if (res[t] && val_is_loss(out[t]) && val_plies(out[t]) == d - 1) win = 1;
                if (res[t] && val_is_win(out[t])) {
                    if (val_plies(out[t]) + 1 > longest) longest = val_plies(out[t]) + 1;
                } else all_win = 0;
            }
            if (win) { now[i] = 1; nv[i] = val_win(d); }
            else if (all_win && longest == d) { now[i] = 1; nv[i] = val_loss(d); }
        }
        for (int i = 0; i < n; i++)
            if (now[i]) { res[i] = 1; out[i] = nv[i]; changed = 1; }
        free(now);
        free(nv);
    }
    for (int i = 0; i < n; i++)
        if (!res[i]) out[i] = VAL_DRAW;
    free(res);
}

/* The bytes a node's list takes kept for the check: a count byte, the
 * first node of the list in ascending order in 4, each next one's
 * distance from the one before in 2 below 2^15, else 4. */
static uint64_t kept_size(const int *succ, int n)
{
    int s[4];
    memcpy(s, succ, (size_t)n * sizeof *s);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (s[j] < s[i]) { int t = s[i]; s[i] = s[j]; s[j] = t; }
    uint64_t b = n ? 5 : 1;
    for (int i = 1; i < n; i++) b += s[i] - s[i - 1] < 0x8000 ? 2 : 4;
    return b;
}

/* The kept lists' format by itself: lists with every kind of distance
 * (0, small, 2^15 - 1, 2^15, large, 2^31 - 1) come back as the sorted
 * list; a distance of 2^31 is refused. */
static void test_keep_format(void **state)
{
    (void)state;
    const uint64_t cases[][6] = {
        { 7, 7, 7, 7, 7, 7 },
        { 100000, 3, 0x8002, 0x8003, 70000, 5 },
        { 0, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFE, 1 },
    };
    uint8_t buf[64];
    uint64_t l[RETRO_MAX_MOVES], back[RETRO_MAX_MOVES];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int n = 0; n <= 6; n++) {
            memcpy(l, cases[c], (size_t)n * sizeof *l);
            size_t put = retro_keep_put(buf, l, n);
            assert_true(put >= 1 && put <= 1 + 4 * (size_t)n);
            for (int i = 1; i < n; i++) assert_true(l[i - 1] <= l[i]);
            int k = -1;
            const uint8_t *end = retro_keep_get(buf, back, &k);
            assert_int_equal(k, n);
            assert_int_equal((size_t)(end - buf), put);
            for (int i = 0; i < n; i++) assert_int_equal(back[i], l[i]);
        }
    uint64_t far[2] = { 5, 5 + ((uint64_t)1 << 31) };
    assert_int_equal(retro_keep_put(buf, far, 2), 0);
    uint64_t near[2] = { 5, 4 + ((uint64_t)1 << 31) };
    assert_int_equal(retro_keep_put(buf, near, 2), 1 + 4 + 4);
}

/* The check's order (retro_unit_t.spans) for a unit of n nodes: spans of
 * every kind, whatever the graph (the order never changes a value): rows
 * cut in tiles, rows of fewer nodes than a tile's two, an empty span, a
 * low that does not divide its span, one row of the whole span, and a
 * span with no low (index order). */
static int make_spans(int n, uint64_t *at, uint64_t *low)
{
    int k = 0;
    uint64_t a = (uint64_t)n / 2, b = a + (uint64_t)n / 8, c = b + (uint64_t)n / 8, d = c + (uint64_t)n / 16;
    at[k] = 0, low[k++] = 75;                 /* tiles of 32, 32 and 11 in a / 75 rows */
    at[k] = a, low[k++] = (b - a) / 2 + 1;    /* does not divide: one row */
    at[k] = b, low[k++] = 0;                  /* index order */
    at[k] = b, low[k++] = 64;                 /* (empty) */
    at[k] = b, low[k++] = c - b;              /* one row */
    at[k] = c, low[k++] = 3;                  /* rows too short for tiles */
    at[k] = d, low[k++] = ((uint64_t)n - d) / 2;   /* two rows (tiles where they are long enough) */
    at[k] = (uint64_t)n;
    assert_int_equal(a % 75, 0);
    return k;
}

/* keep: retro_unit_t.keep_bytes (the check reads init's lists, all,
 * some or none of them); bits and round: retro_unit_t.bucket_bits and
 * .round (the propagation settled at once, or bucket by bucket in rounds);
 * spans: the check tile by tile (make_spans) */
static void check_graph_spans(int n, uint64_t seed, int threads, uint64_t keep, int bits, uint64_t round, int spans)
{
    graph_t g;
    graph_make(&g, n, seed);
    val_t *want = calloc((size_t)n, sizeof *want);
    slow_solve(&g, want);
    retro_val_t *got = calloc((size_t)n, sizeof *got);
    retro_stats_t st;
    retro_unit_t u = { .n = (uint64_t)n, .threads = threads, .ctx = &g, .moves = g_moves, .preds = g_preds,
                       .stats = &st, .keep_bytes = keep, .bucket_bits = bits, .round = round };
    uint64_t at[16], low[16];
    if (spans) {
        u.nspans = make_spans(n, at, low);
        u.span_at = at;
        u.span_low = low;
    }
    g.listed = calloc((size_t)n, sizeof *g.listed);
    err_t err;
    assert_int_equal(retro_solve(&u, got, &err), GSW_OK);
    if (!keep)   /* the check listed every node's moves once, in whatever order */
        for (int i = 0; i < n; i++)
            if (g.listed[i] != 1) fail_msg("seed %llu: node %d listed %d times by the check", (unsigned long long)seed, i, g.listed[i]);
    free(g.listed);
    g.listed = NULL;
    /* the figures add up: every node initialised and checked once, every
       decisive node propagated once */
    uint64_t items = 0, decisive = 0;
    for (int t = 0; t < st.threads; t++) items += st.items[t];
    for (int i = 0; i < n; i++) decisive += got[i] != RETRO_UNKNOWN;
    assert_int_equal(st.threads, threads);
    assert_int_equal(items, 2 * (uint64_t)n + decisive);
    assert_true(st.levels > 0);
    uint64_t edges = 0;
    for (int i = 0; i < n; i++) edges += (uint64_t)g.nsucc[i];
    assert_int_equal(st.edges, edges);
    uint64_t all = 0;   /* the kept lists' bytes (retro_keep_put's format) */
    for (int i = 0; i < n; i++) all += kept_size(g.succ[i], g.nsucc[i]);
    assert_true(st.kept_bytes <= keep);
    if (keep >= all) assert_int_equal(st.kept_bytes, all);
    if (keep > 0 && keep < all && n > 16384) assert_true(st.kept_bytes > 0 && st.kept_bytes < all);
    int wins = 0, losses = 0, draws = 0;
    for (int i = 0; i < n; i++) {
        if (retro_to_val(got[i]) != want[i]) fail_msg("seed %llu node %d: engine %d, definition %d",
                                                        (unsigned long long)seed, i, (int)retro_to_val(got[i]), (int)want[i]);
        wins += val_is_win(want[i]);
        losses += val_is_loss(want[i]);
        draws += want[i] == VAL_DRAW;
    }
    assert_true(wins > 0 && losses > 0 && draws > 0);   /* the graphs exercise every case */
    free(want);
    free(got);
    graph_free(&g);
}

static void check_graph_as(int n, uint64_t seed, int threads, uint64_t keep, int bits, uint64_t round)
{
    check_graph_spans(n, seed, threads, keep, bits, round, 0);
}

static void check_graph(int n, uint64_t seed, int threads, uint64_t keep)
{
    check_graph_as(n, seed, threads, keep, -1, 0);
}

/* The check tile by tile: every node checked once (the figures; listed
 * once where nothing is kept), from init's lists (all, some or none), on
 * 1 to 3 threads, the values those of the definition. */
static void test_random_graphs_spans(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 12; seed++) check_graph_spans(300, seed, 1 + (int)(seed % 3), seed & 1 ? UINT64_MAX : 0, -1, 0, 1);
    for (uint64_t seed = 300; seed <= 305; seed++)
        check_graph_spans(60000, seed, 1 + (int)(seed % 3), seed % 3 == 0 ? 0 : seed % 3 == 1 ? UINT64_MAX : 200000, -1, 0, 1);
}

static void test_random_graphs(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 40; seed++) check_graph(300, seed, 1, seed & 1 ? UINT64_MAX : 0);
}

static void test_random_graphs_threads(void **state)
{
    (void)state;
    /* the check from init's lists, from some of them, from none */
    for (uint64_t seed = 100; seed <= 104; seed++) check_graph(60000, seed, 3, seed % 3 == 0 ? 0 : seed % 3 == 1 ? UINT64_MAX : 200000);
}

/* The propagation's settlements in buckets (of 2^bits nodes, from 1 to
 * 2^14, so also one bucket for all), a level in one round or in many,
 * on 1 to 3 threads: the same values as the definition. */
static void test_random_graphs_buckets(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 24; seed++)
        check_graph_as(300, seed, 1 + (int)(seed % 3), seed & 1 ? UINT64_MAX : 0, 1 + (int)(seed % 9), seed % 4 ? 7 * seed : 0);
    for (uint64_t seed = 200; seed <= 203; seed++)
        check_graph_as(60000, seed, 1 + (int)(seed % 3), UINT64_MAX, seed == 203 ? 14 : 6 + (int)(seed % 4), seed % 2 ? 5000 : 0);
}

static int fail_moves(void *ctx, int tid, uint64_t node, uint64_t *inside, val_t *exit_best, err_t *err)
{
    (void)ctx;
    (void)tid;
    (void)inside;
    if (node == 77) return err_set(err, GSW_EFAIL, "node 77 is broken"), -1;
    if (exit_best) *exit_best = val_loss(0);
    return 0;
}

/* A predecessor list that misses one move: the propagation goes wrong and
 * the solve's own check must say where. */
static uint64_t missing_node;
static int g_preds_missing(void *ctx, int tid, uint64_t node, uint64_t *out, err_t *err)
{
    int n = g_preds(ctx, tid, node, out, err);
    return node == missing_node && n > 0 ? n - 1 : n;
}

static void test_check_catches_a_missing_predecessor(void **state)
{
    (void)state;
    graph_t g;
    graph_make(&g, 300, 3);
    val_t *want = calloc(300, sizeof *want);
    slow_solve(&g, want);
    /* a lost node whose last predecessor then wins by it */
    missing_node = UINT64_MAX;
    for (int i = 0; i < g.n && missing_node == UINT64_MAX; i++)
        if (val_is_loss(want[i]) && g.npred[i] > 0) missing_node = (uint64_t)i;
    assert_true(missing_node != UINT64_MAX);
    retro_val_t got[300];
    err_t err;
    retro_unit_t u = { .n = 300, .threads = 1, .ctx = &g, .moves = g_moves, .preds = g_preds };
    uint64_t at[16], low[16];
    int nspans = make_spans(300, at, low);
    /* the check lists the moves again, or reads init's; settled at once or
       in buckets; in index order or tile by tile */
    for (int v = 0; v < 8; v++) {
        u.keep_bytes = v & 1 ? UINT64_MAX : 0;
        u.bucket_bits = v & 2 ? 4 : -1;
        u.nspans = v & 4 ? nspans : 0;
        u.span_at = at;
        u.span_low = low;
        u.preds = g_preds;
        assert_int_equal(retro_solve(&u, got, &err), GSW_OK);
        int failures = 0;
        for (int lost = 0; lost < g.n; lost++) {   /* every lost node with a predecessor, one at a time */
            if (!val_is_loss(want[lost]) || g.npred[lost] == 0) continue;
            missing_node = (uint64_t)lost;
            u.preds = g_preds_missing;
            int rc = retro_solve(&u, got, &err);
            /* the missed move may not matter (its source wins anyway by
               another move at the same distance); when it does, the check
               stops the solve */
            if (rc) {
                assert_non_null(strstr(err.msg, "its moves give"));
                failures++;
            }
        }
        assert_true(failures > 0);
    }
    free(want);
    graph_free(&g);
}

static void test_errors_and_stop(void **state)
{
    (void)state;
    retro_val_t v[1000];
    err_t err;
    retro_unit_t u = { .n = 1000, .threads = 2, .moves = fail_moves, .preds = g_preds };
    assert_int_equal(retro_solve(&u, v, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "node 77"));
    gsw_flag_t stop = 1;
    graph_t g;
    graph_make(&g, 1000, 9);
    retro_unit_t s = { .n = 1000, .threads = 2, .ctx = &g, .moves = g_moves, .preds = g_preds, .stop = &stop };
    assert_int_equal(retro_solve(&s, v, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "stopped"));
    graph_free(&g);
}

/* --- a unit divided between parts: a transport over threads --- */
#define TP_MAX 8
typedef struct tp_shared {
    int parts;
    pthread_barrier_t bar;
    void *const *send[TP_MAX];
    const size_t *ns[TP_MAX];
    int failed[TP_MAX];
    int64_t *x[TP_MAX];
    uint64_t exchanges;        /* part 0's count */
} tp_shared_t;

typedef struct tp_part {
    tp_shared_t *s;
    retro_comm_t comm;
    retro_unit_t u;
    retro_val_t *val;          /* this part's values */
    int rc;
    err_t err;
} tp_part_t;

static int tp_exchange(void *ctx, void *const *send, const size_t *ns, void **recv, size_t *rcount, int *failed,
                       err_t *err)
{
    (void)err;
    tp_part_t *t = ctx;
    tp_shared_t *s = t->s;
    int me = t->comm.me;
    s->send[me] = send;
    s->ns[me] = ns;
    s->failed[me] = *failed;
    pthread_barrier_wait(&s->bar);
    int any = 0;
    for (int p = 0; p < s->parts; p++) any |= s->failed[p];
    *recv = NULL;
    if (!any) {
        size_t total = 0;
        for (int p = 0; p < s->parts; p++) total += rcount[p] = s->ns[p][me];
        assert_int_equal(rcount[me], 0);   /* nothing is sent to oneself */
        char *b = malloc(total ? total : 1);
        for (int p = 0, at = 0; p < s->parts; p++) {
            if (rcount[p]) memcpy(b + at, s->send[p][me], rcount[p]);
            at += (int)rcount[p];
        }
        *recv = b;
        if (me == 0) s->exchanges++;
    }
    pthread_barrier_wait(&s->bar);   /* (the senders keep their buffers until all have read) */
    *failed = any;
    return 0;
}

static int tp_max(void *ctx, int64_t *x, int k, err_t *err)
{
    (void)err;
    tp_part_t *t = ctx;
    tp_shared_t *s = t->s;
    s->x[t->comm.me] = x;
    pthread_barrier_wait(&s->bar);
    int64_t m[8];
    assert_true(k <= 8);
    for (int i = 0; i < k; i++) {
        m[i] = x[i];
        for (int p = 0; p < s->parts; p++)
            if (s->x[p][i] > m[i]) m[i] = s->x[p][i];
    }
    pthread_barrier_wait(&s->bar);
    memcpy(x, m, (size_t)k * sizeof *x);
    return 0;
}

static void *tp_run(void *arg)
{
    tp_part_t *t = arg;
    t->rc = retro_solve(&t->u, t->val, &t->err);
    return NULL;
}

/* Solve u divided at lo[] (parts parts, each on u's threads) into val
 * (the whole unit); each part's code in rc[] and error in errs[]. The
 * exchanges made, through *exchanges. */
static void tp_solve(const retro_unit_t *u, int parts, const uint64_t *lo, uint64_t replicate, retro_val_t *val,
                     int *rc, err_t *errs, uint64_t *exchanges)
{
    tp_shared_t s = { .parts = parts };
    pthread_barrier_init(&s.bar, NULL, (unsigned)parts);
    tp_part_t t[TP_MAX];
    pthread_t th[TP_MAX];
    for (int p = 0; p < parts; p++) {
        t[p] = (tp_part_t){ .s = &s, .u = *u };
        t[p].comm = (retro_comm_t){ .parts = parts, .me = p, .lo = lo, .ctx = &t[p], .exchange = tp_exchange,
                                    .max = tp_max, .replicate = replicate };
        t[p].u.comm = &t[p].comm;
        t[p].val = val + lo[p];
        assert_int_equal(pthread_create(&th[p], NULL, tp_run, &t[p]), 0);
    }
    for (int p = 0; p < parts; p++) {
        pthread_join(th[p], NULL);
        rc[p] = t[p].rc;
        errs[p] = t[p].err;
    }
    if (exchanges) *exchanges = s.exchanges;
    pthread_barrier_destroy(&s.bar);
}

/* Every division of random graphs, even and uneven (a part of no nodes, a
 * part of one), gives the undivided solve's values, and the definition's. */
static void test_divided_units(void **state)
{
    (void)state;
    static const int splits[][5] = { { 2, 50, 100 }, { 3, 10, 11, 100 }, { 4, 0, 40, 40, 100 }, { 3, 33, 67, 100 } };
    for (uint64_t seed = 200; seed < 208; seed++) {
        int n = seed < 204 ? 3000 : 70000;   /* the large ones take several rounds and check blocks */
        graph_t g;
        graph_make(&g, n, seed);
        val_t *want = calloc((size_t)n, sizeof *want);
        slow_solve(&g, want);
        retro_val_t *whole = calloc((size_t)n, sizeof *whole), *got = calloc((size_t)n, sizeof *got);
        err_t err;
        retro_unit_t u = { .n = (uint64_t)n, .threads = 1 + (int)(seed & 1), .ctx = &g, .moves = g_moves,
                           .preds = g_preds, .keep_bytes = seed % 3 == 0 ? 0 : seed % 3 == 1 ? UINT64_MAX : 60000 };
        assert_int_equal(retro_solve(&u, whole, &err), GSW_OK);
        u.round = seed & 2 ? 700 : 0;   /* many rounds a level and several check blocks, or one */
        const int *sp = splits[seed % 4];
        int parts = sp[0];
        uint64_t lo[TP_MAX + 1];
        lo[0] = 0;
        for (int p = 1; p <= parts; p++) lo[p] = (uint64_t)n * (uint64_t)sp[p] / 100;
        int rc[TP_MAX];
        err_t errs[TP_MAX];
        uint64_t ex = 0;
        /* the check with every part's values, or asking block by block */
        tp_solve(&u, parts, lo, seed % 3 == 2 ? UINT64_MAX : 0, got, rc, errs, &ex);
        for (int p = 0; p < parts; p++)
            if (rc[p]) fail_msg("seed %llu part %d: %s", (unsigned long long)seed, p, errs[p].msg);
        assert_true(ex > 0);
        for (int i = 0; i < n; i++) {
            if (got[i] != whole[i])
                fail_msg("seed %llu node %d: divided %u, whole %u", (unsigned long long)seed, i, got[i], whole[i]);
            assert_int_equal(retro_to_val(got[i]), want[i]);
        }
        free(want);
        free(whole);
        free(got);
        graph_free(&g);
    }
}

/* A part that fails stops every part: its own error names the node, the
 * others say another part failed; a predecessor missed in one part is
 * caught by the check across parts. */
static void test_divided_failures(void **state)
{
    (void)state;
    graph_t g;
    graph_make(&g, 3000, 5);
    retro_val_t got[3000];
    uint64_t lo[4] = { 0, 1000, 2000, 3000 };
    int rc[TP_MAX];
    err_t errs[TP_MAX];
    retro_unit_t u = { .n = 3000, .threads = 2, .moves = fail_moves, .preds = g_preds };
    tp_solve(&u, 3, lo, 0, got, rc, errs, NULL);   /* node 77 fails in part 0's init */
    assert_int_equal(rc[0], GSW_EFAIL);
    assert_non_null(strstr(errs[0].msg, "node 77"));
    for (int p = 1; p < 3; p++) {
        assert_int_equal(rc[p], GSW_EFAIL);
        assert_non_null(strstr(errs[p].msg, "another part"));
    }
    val_t *want = calloc(3000, sizeof *want);
    slow_solve(&g, want);
    u = (retro_unit_t){ .n = 3000, .threads = 2, .ctx = &g, .moves = g_moves, .preds = g_preds_missing };
    int caught = 0, tried = 0;
    for (int lost = 0; lost < g.n && tried < 60; lost++) {
        if (!val_is_loss(want[lost]) || g.npred[lost] == 0) continue;
        missing_node = (uint64_t)lost;
        tried++;
        tp_solve(&u, 3, lo, tried & 1 ? UINT64_MAX : 0, got, rc, errs, NULL);
        int bad = 0, says = 0;
        for (int p = 0; p < 3; p++) {
            bad += rc[p] != GSW_OK;
            says += rc[p] && strstr(errs[p].msg, "its moves give") != NULL;
        }
        assert_true(bad == 0 || bad == 3);   /* all stop, or none */
        if (bad) assert_true(says >= 1), caught++;
    }
    assert_true(caught > 0);
    free(want);
    graph_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keep_format),
        cmocka_unit_test(test_random_graphs),
        cmocka_unit_test(test_random_graphs_threads),
        cmocka_unit_test(test_random_graphs_buckets),
        cmocka_unit_test(test_random_graphs_spans),
        cmocka_unit_test(test_errors_and_stop),
        cmocka_unit_test(test_check_catches_a_missing_predecessor),
        cmocka_unit_test(test_divided_units),
        cmocka_unit_test(test_divided_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The genetic algorithm of core/evolve.h with stubbed games whose outcome
 * follows strengths known by construction: the quick-tournament's ranking
 * (exact when the stronger always wins, consistent with a draw margin,
 * correlated under noise), its cost (about 32.7 games for 12), selection,
 * crossover and mutation by their probabilities, the survivors' rules,
 * the same generation on 1 and 4 threads, and the state's text round trip
 * and its damage reported. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/evolve.h"

/* A stub's strength: the individual's first value. */
typedef struct stub {
    int margin;        /* |difference| <= margin: a draw */
    double noise;      /* probability that the outcome is a coin flip (win, draw or loss) */
} stub_t;

static int stub_play(void *ctx, int worker, const evo_ind_t *w, const evo_ind_t *b, uint64_t seed)
{
    (void)worker;
    const stub_t *s = ctx;
    if (s->noise > 0) {
        evo_rng_t r;
        evo_rng_seed(&r, seed);
        if (evo_rng_unit(&r) < s->noise) return (int)evo_rng_below(&r, 3) - 1;
    }
    int d = w->v[0] - b->v[0];
    return d > s->margin ? 1 : d < -s->margin ? -1 : 0;
}

static void fill(evo_ind_t *pop, int n, uint64_t seed)
{
    evo_rng_t r;
    evo_rng_seed(&r, seed);
    memset(pop, 0, (size_t)n * sizeof *pop);
    for (int i = 0; i < n; i++) {
        pop[i].v[0] = (int)evo_rng_below(&r, 100000);
        pop[i].id = (uint64_t)i;
    }
}

/* The stronger always wins (distinct strengths): the ranking is the order by strength. */
static void test_rank_exact(void **state)
{
    (void)state;
    stub_t st = { 0, 0 };
    evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = 1 };
    evo_ind_t pop[40];
    int order[40], games, draws;
    err_t err;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        int n = 2 + (int)(seed % 39);
        fill(pop, n, seed * 7);
        assert_int_equal(evo_rank(pop, n, seed, 1, &h, order, &games, &draws, &err), GSW_OK);
        for (int r = 0; r + 1 < n; r++) assert_true(pop[order[r]].v[0] >= pop[order[r + 1]].v[0]);
        for (int r = 0; r < n; r++) assert_int_equal(pop[order[r]].rank, r + 1);
        int sum = 0, wins = 0, losses = 0;
        for (int i = 0; i < n; i++) {
            sum += pop[i].games;
            wins += pop[i].wins;
            losses += pop[i].losses;
            assert_int_equal(pop[i].games, pop[i].wins + pop[i].draws + pop[i].losses);
        }
        assert_int_equal(sum, 2 * games);
        assert_int_equal(wins, losses);
        assert_true(games >= n - 1 && games <= n * (n - 1) / 2);
    }
}

/* With draws inside a margin: nobody ranked below another is stronger than
 * him by more than the margin (a pivot that separated them was beaten by the
 * one and not by the other). */
static void test_rank_draws(void **state)
{
    (void)state;
    stub_t st = { 8000, 0 };
    evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = 2 };
    evo_ind_t pop[30];
    int order[30], games, draws, total_draws = 0, misordered = 0;
    err_t err;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        fill(pop, 30, seed);
        assert_int_equal(evo_rank(pop, 30, seed, 3, &h, order, &games, &draws, &err), GSW_OK);
        total_draws += draws;
        for (int i = 0; i < 30; i++)
            for (int j = i + 1; j < 30; j++) {
                assert_true(pop[order[j]].v[0] <= pop[order[i]].v[0] + st.margin);
                misordered += pop[order[j]].v[0] > pop[order[i]].v[0];
            }
    }
    assert_true(total_draws > 0);
    assert_true(misordered > 0);   /* the margin does allow some */
}

/* Spearman's correlation of the ranking with the strengths. */
static double spearman(const evo_ind_t *pop, const int *order, int n)
{
    int by[64];
    for (int i = 0; i < n; i++) by[i] = i;
    for (int i = 1; i < n; i++)   /* slots by strength, strongest first */
        for (int j = i; j > 0 && pop[by[j]].v[0] > pop[by[j - 1]].v[0]; j--) {
            int t = by[j];
            by[j] = by[j - 1];
            by[j - 1] = t;
        }
    double d2 = 0;
    for (int r = 0; r < n; r++)
        for (int k = 0; k < n; k++)
            if (by[k] == order[r]) d2 += (double)(r - k) * (r - k);
    return 1 - 6 * d2 / ((double)n * ((double)n * n - 1));
}

/* Under noise the ranking still follows the strengths; under pure noise it does not. */
static void test_rank_noise(void **state)
{
    (void)state;
    evo_ind_t pop[24];
    int order[24], games, draws;
    err_t err;
    double rho[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        stub_t st = { 0, k ? 1.0 : 0.25 };
        evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = 1 };
        for (uint64_t seed = 1; seed <= 400; seed++) {
            fill(pop, 24, seed);
            assert_int_equal(evo_rank(pop, 24, seed, 1, &h, order, &games, &draws, &err), GSW_OK);
            rho[k] += spearman(pop, order, 24) / 400;
        }
    }
    assert_true(rho[0] > 0.6);
    assert_true(fabs(rho[1]) < 0.1);
}

/* A random pivot's quicksort of 12 takes 2(n+1)H(n) - 4n = 32.68 comparisons on average. */
static void test_rank_cost(void **state)
{
    (void)state;
    stub_t st = { 0, 0 };
    evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = 1 };
    evo_ind_t pop[12];
    int order[12], games, draws;
    long total = 0;
    err_t err;
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        fill(pop, 12, seed);
        assert_int_equal(evo_rank(pop, 12, seed, 1, &h, order, &games, &draws, &err), GSW_OK);
        total += games;
    }
    double mean = total / 2000.0;
    print_message("quick-tournament of 12: %.2f games on average (theory 32.68)\n", mean);
    assert_true(mean > 31.5 && mean < 34);
}

/* The pool passes every worker slot and stops when asked. */
typedef struct counting {
    gsw_flag_t *stop;
    int after;          /* set *stop after this many games */
    int n;
    unsigned workers;   /* bit w: worker w played */
} counting_t;

static int counting_play(void *ctx, int worker, const evo_ind_t *w, const evo_ind_t *b, uint64_t seed)
{
    (void)seed;
    counting_t *c = ctx;
    struct timespec ms = { 0, 1000000 };   /* a millisecond a game: every worker gets some */
    nanosleep(&ms, NULL);
    __atomic_fetch_or(&c->workers, 1u << worker, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&c->n, 1, __ATOMIC_SEQ_CST) >= c->after) __atomic_store_n(c->stop, 1, __ATOMIC_RELAXED);
    return w->v[0] > b->v[0] ? 1 : -1;
}

static void test_rank_stop(void **state)
{
    (void)state;
    gsw_flag_t stop = 0;
    counting_t c = { &stop, 5, 0, 0 };
    evo_hooks_t h = { .play = counting_play, .ctx = &c, .threads = 3, .stop = &stop };
    evo_ind_t pop[50];
    int order[50], games, draws;
    err_t err;
    fill(pop, 50, 3);
    assert_int_equal(evo_rank(pop, 50, 9, 2, &h, order, &games, &draws, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "stopped"));
    assert_true(c.n < 49);
    stop = 0;
    c.after = 1 << 30;
    c.n = 0;
    c.workers = 0;
    assert_int_equal(evo_rank(pop, 50, 9, 2, &h, order, &games, &draws, &err), GSW_OK);
    assert_int_equal(c.workers, 7u);   /* workers 0, 1 and 2, no other */
}

/* Parents by rank: never the bottom 20%, place k with probability (n-k)/sum. */
static void test_select(void **state)
{
    (void)state;
    evo_config_t c;
    evo_config_default(&c, 12, 5);
    assert_int_equal(evo_bottom(&c), 2);
    assert_int_equal(evo_top(&c), 2);
    evo_rng_t r;
    evo_rng_seed(&r, 5);
    int count[12] = { 0 };
    const int N = 200000;
    for (int i = 0; i < N; i++) count[evo_select(&c, &r)]++;
    assert_int_equal(count[10], 0);
    assert_int_equal(count[11], 0);
    double total = 0;
    for (int k = 0; k < 10; k++) total += 12 - k;
    for (int k = 0; k < 10; k++) {
        double want = N * (12 - k) / total;
        assert_true(fabs(count[k] - want) < 5 * sqrt(want));
    }
}

/* Crossover: a parent's value 2/3 of the time, else the mean; 2-4 parents. */
static void test_crossover(void **state)
{
    (void)state;
    evo_config_t c;
    evo_config_default(&c, 12, 5);
    evo_rng_t r;
    evo_rng_seed(&r, 11);
    evo_ind_t par[4];
    const evo_ind_t *pp[4] = { &par[0], &par[1], &par[2], &par[3] };
    for (int j = 0; j < 4; j++)
        for (int a = 0; a < 5; a++) par[j].v[a] = 1000 << j;   /* 1000 2000 4000 8000: no mean is a parent's */
    long inherited = 0, means = 0, total = 0;
    for (int t = 0; t < 20000; t++) {
        int k = 2 + t % 3;
        evo_ind_t ch;
        evo_crossover(&c, &r, pp, k, &ch);
        long sum = 0;
        for (int j = 0; j < k; j++) sum += par[j].v[0];
        for (int a = 0; a < 5; a++) {
            int from = 0;
            for (int j = 0; j < k; j++) from |= ch.v[a] == par[j].v[a];
            assert_true(from || ch.v[a] == (int)lround((double)sum / k));
            inherited += from;
            means += !from;
            total++;
        }
    }
    double p = (double)inherited / total;
    assert_true(fabs(p - 2.0 / 3) < 0.01);
    assert_int_equal(inherited + means, total);
    /* evo_child: 2, 3 or 4 distinct parents, about equally often */
    evo_ind_t pop[12];
    int order[12], kcount[5] = { 0 };
    for (int i = 0; i < 12; i++) {
        order[i] = 11 - i;
        for (int a = 0; a < 5; a++) pop[i].v[a] = 800 + 1000 * i;
    }
    for (int t = 0; t < 30000; t++) {
        evo_ind_t ch;
        int k = evo_child(&c, &r, pop, order, &ch);
        assert_true(k >= 2 && k <= 4);
        kcount[k]++;
        for (int a = 0; a < 5; a++) assert_true(ch.v[a] >= c.lo && ch.v[a] <= c.hi);
        /* the two worst (slots 1 and 0, places 10 and 11) are never parents: no value of theirs alone */
        assert_true(ch.v[0] != pop[0].v[0] && ch.v[0] != pop[1].v[0]);
    }
    for (int k = 2; k <= 4; k++) assert_true(abs(kcount[k] - 10000) < 500);
}

/* Mutation: each value with probability 0.4, by N(0, 400), clamped. */
static void test_mutate(void **state)
{
    (void)state;
    evo_config_t c;
    evo_config_default(&c, 12, 5);
    evo_rng_t r;
    evo_rng_seed(&r, 13);
    long changed = 0, drawn = 0, total = 0;
    double s1 = 0, s2 = 0;
    for (int t = 0; t < 40000; t++) {
        evo_ind_t x = { .v = { 8000, 8000, 8000, 8000, 8000 } };
        drawn += evo_mutate(&c, &r, &x);
        for (int a = 0; a < 5; a++) {
            total++;
            if (x.v[a] != 8000) {
                changed++;
                s1 += x.v[a] - 8000;
                s2 += (double)(x.v[a] - 8000) * (x.v[a] - 8000);
            }
        }
    }
    assert_true(fabs((double)drawn / total - 0.4) < 0.01);
    assert_true(changed <= drawn && changed > drawn * 0.99);   /* (a draw rounded to 0 changes nothing) */
    double mean = s1 / changed, sd = sqrt(s2 / changed - mean * mean);
    assert_true(fabs(mean) < 10);
    assert_true(fabs(sd - 400) < 10);
    /* at the edges: clamped into [lo, hi] */
    for (int t = 0; t < 10000; t++) {
        evo_ind_t x = { .v = { 1, 17000, 2, 16999, 100 } };
        evo_mutate(&c, &r, &x);
        for (int a = 0; a < 5; a++) assert_true(x.v[a] >= 1 && x.v[a] <= 17000);
    }
    /* random individuals: uniform in [800, 17000] */
    double sum = 0;
    for (int t = 0; t < 20000; t++) {
        evo_ind_t x;
        evo_random(&c, &r, &x);
        for (int a = 0; a < 5; a++) {
            assert_true(x.v[a] >= 800 && x.v[a] <= 17000);
            sum += x.v[a];
        }
    }
    assert_true(fabs(sum / 100000 - 8900) < 60);
}

/* Survivors: the top 20% kept, the bottom 20% new, the middle kept 20% /
 * mutant 40% / child 40%. */
static void test_breed(void **state)
{
    (void)state;
    evo_t *e = calloc(1, sizeof *e);
    assert_non_null(e);
    evo_config_t c;
    evo_config_default(&c, 20, 5);
    evo_start(e, &c, 77);
    int order[20], kind[3] = { 0 };
    for (int i = 0; i < 20; i++) order[i] = (i * 7) % 20;   /* a permutation */
    for (int t = 0; t < 2000; t++) {
        evo_ind_t before[20];
        memcpy(before, e->pop, sizeof before);
        evo_breed(e, order);
        for (int r = 0; r < 20; r++) {
            const evo_ind_t *x = &e->pop[r], *was = &before[order[r]];
            if (r < 4) {
                assert_int_equal(x->id, was->id);
                assert_memory_equal(x->v, was->v, sizeof x->v);
            } else if (r >= 16) {
                assert_int_equal(x->origin, 'r');
                assert_true(x->id > was->id);
            } else {
                assert_true(x->origin == 'k' || x->origin == 'm' || x->origin == 'c');
                kind[x->origin == 'k' ? 0 : x->origin == 'm' ? 1 : 2]++;
                if (x->origin == 'k') assert_int_equal(x->id, was->id);
                else assert_true(x->id != was->id);
            }
            for (int a = 0; a < 5; a++) assert_true(x->v[a] >= 1 && x->v[a] <= 17000);
        }
    }
    assert_int_equal(e->generation, 2000);
    double n = kind[0] + kind[1] + kind[2];
    assert_true(fabs(kind[0] / n - 0.2) < 0.015);
    assert_true(fabs(kind[1] / n - 0.4) < 0.015);
    assert_true(fabs(kind[2] / n - 0.4) < 0.015);
    free(e);
}

/* Generations with 1 and with 4 threads: the same rankings, the same populations. */
static void run_gens(evo_t *e, int threads, int gens, int *orders)
{
    stub_t st = { 500, 0.2 };
    evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = threads };
    evo_config_t c;
    evo_config_default(&c, 12, 5);
    evo_start(e, &c, 4242);
    err_t err;
    for (int g = 0; g < gens; g++) {
        int games, draws;
        assert_int_equal(evo_rank(e->pop, 12, e->seed, e->generation + 1, &h, orders + 12 * g, &games, &draws, &err),
                         GSW_OK);
        evo_breed(e, orders + 12 * g);
    }
}

static void test_threads_same(void **state)
{
    (void)state;
    evo_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    int oa[12 * 8], ob[12 * 8];
    run_gens(a, 1, 8, oa);
    run_gens(b, 4, 8, ob);
    assert_memory_equal(oa, ob, sizeof oa);
    assert_memory_equal(a->pop, b->pop, 12 * sizeof a->pop[0]);
    assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
    /* and a different seed gives a different run */
    evo_config_t c;
    evo_config_default(&c, 12, 5);
    evo_start(b, &c, 4243);
    assert_memory_not_equal(a->pop[0].v, b->pop[0].v, sizeof a->pop[0].v);
    free(a);
    free(b);
}

/* The state: written, read back the same, and resumed to the same run;
 * damage of every kind named. */
static void test_state(void **state)
{
    (void)state;
    evo_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b), *c2 = calloc(1, sizeof *c2);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c2);
    int oa[12 * 4];
    run_gens(a, 1, 3, oa);
    err_t err;
    assert_int_equal(evo_meta_set(a, "game", "chess", &err), GSW_OK);
    assert_int_equal(evo_meta_set(a, "nodes", "2000", &err), GSW_OK);
    assert_int_equal(evo_meta_set(a, "bad key", "x", &err), GSW_EINPUT);
    size_t need = evo_state_format(a, NULL, 0);
    char *text = malloc(need + 1);
    assert_int_equal(evo_state_format(a, text, need + 1), need);
    assert_int_equal(evo_state_parse(text, need, b, 0, &err), GSW_OK);
    assert_int_equal(b->generation, 3);
    assert_string_equal(evo_meta_get(b, "nodes"), "2000");
    assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
    char *again = malloc(need + 1);
    assert_int_equal(evo_state_format(b, again, need + 1), need);
    assert_string_equal(text, again);
    /* a resumed run goes on as the uninterrupted one */
    stub_t st = { 500, 0.2 };
    evo_hooks_t h = { .play = stub_play, .ctx = &st, .threads = 2 };
    int games, draws, ob[12];
    assert_int_equal(evo_rank(b->pop, 12, b->seed, b->generation + 1, &h, ob, &games, &draws, &err), GSW_OK);
    evo_breed(b, ob);
    run_gens(c2, 1, 4, oa);
    assert_memory_equal(ob, oa + 36, sizeof ob);
    assert_memory_equal(b->pop, c2->pop, 12 * sizeof b->pop[0]);

    /* truncated anywhere */
    for (size_t cut = 0; cut < need; cut += 7) {
        assert_int_equal(evo_state_parse(text, cut, b, 0, &err), GSW_EINPUT);
        assert_true(strlen(err.msg) > 5);
    }
    assert_int_equal(evo_state_parse(text, need - 1, b, 0, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "truncated"));
    /* a changed value: the checksum says so (and without the checksum it reads) */
    char *p = strstr(text, "\nind ");
    assert_non_null(p);
    char *d = strchr(p + 1, '\n') - 1;   /* the line's last digit: its last value */
    *d = *d == '9' ? '8' : (char)(*d + 1);
    assert_int_equal(evo_state_parse(text, need, b, 0, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "checksum"));
    assert_int_equal(evo_state_parse(text, need, b, EVO_PARSE_NO_SUM, &err), GSW_OK);
    /* bad lines, named */
    const char *bad[] = {
        "junk\n",
        "gsw-evolve 1\nseed x\n",
        "gsw-evolve 1\nseed 1\nseed 2\n",
        "gsw-evolve 1\npopulation 1\n",
        "gsw-evolve 1\nwhat 3\n",
        "gsw-evolve 1\nseed 1\nend 0000000000000000\n",
    };
    const char *why[] = { "line 1", "line 2: bad seed", "twice", "bad population", "unknown", "no generation" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(evo_state_parse(bad[i], strlen(bad[i]), b, 0, &err), GSW_EINPUT);
        if (!strstr(err.msg, why[i])) print_message("%zu: %s\n", i, err.msg);
        assert_non_null(strstr(err.msg, why[i]));
    }
    free(text);
    free(again);
    free(a);
    free(b);
    free(c2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_exact),
        cmocka_unit_test(test_rank_draws),
        cmocka_unit_test(test_rank_noise),
        cmocka_unit_test(test_rank_cost),
        cmocka_unit_test(test_rank_stop),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_crossover),
        cmocka_unit_test(test_mutate),
        cmocka_unit_test(test_breed),
        cmocka_unit_test(test_threads_same),
        cmocka_unit_test(test_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

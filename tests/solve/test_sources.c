/* The solver's knowledge sources (solve/source.h) through the one door: a
 * fake source added at run time, which knows one Connect Four position and
 * claims a value no search gives it, answers solver_run there under its own
 * name, is the searches' oracle below its parent (alpha-beta and df-pn), is
 * asked by per-move solves (analyze's) and by the analyst (the workbench's
 * pane, hint and perfect opponent), and shares the searches' oracle with
 * another source through the chain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "db/cache.h"
#include "solve/analyst.h"
#include "solve/egdb.h"
#include "solve/solver.h"
#include "solve/source.h"
#include "tests/test_tmpdir.h"

static gv_t *v;

/* The fake: one position (by canonical key) and the value it claims. */
typedef struct fake {
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    val_t val;
    int probes;                /* root probes and oracle probes that it answered */
    gsw_oracle_t oracle;
    int closed;
} fake_t;

static int fake_knows(void *ctx, const gv_t *gv, const void *pos, val_t *lo, val_t *hi)
{
    fake_t *f = ctx;
    uint8_t key[GSW_MAX_KEY];
    size_t klen = gv->ops->pos_key(gv, pos, key, NULL);
    if (!f->klen || klen != f->klen || memcmp(key, f->key, klen)) return 0;
    *lo = *hi = f->val;
    __atomic_add_fetch(&f->probes, 1, __ATOMIC_RELAXED);
    return 1;
}

static int fake_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    (void)err;
    fake_t *f = ctx;
    return source_oracle_answer(q, &f->oracle, a);
}

static const gsw_oracle_t *fake_oracle(void *ctx, const source_query_t *q)
{
    fake_t *f = ctx;
    return q->pos ? &f->oracle : NULL;
}

static void fake_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "fake";
    d->phrase = "the fake source";
}

static void fake_close(void *ctx)
{
    ((fake_t *)ctx)->closed = 1;
}

static const source_kind_t fake_kind = {
    .probe = fake_probe,
    .oracle = fake_oracle,
    .describe = fake_describe,
    .close = fake_close,
};

static void parse(const char *text, void *pos)
{
    err_t err;
    assert_int_equal(game_pos_parse(v, text, pos, &err), GSW_OK);
}

/* The fake knowing text's position, claiming val (klen 0: nothing). */
static void fake_init(fake_t *f, const char *text, val_t val)
{
    memset(f, 0, sizeof *f);
    f->oracle.probe = fake_knows;
    f->oracle.ctx = f;
    f->val = val;
    if (text) {
        GSW_POSBUF pos[GSW_MAX_POS];
        parse(text, pos);
        f->klen = v->ops->pos_key(v, pos, f->key, NULL);
    }
}

static int setup(void **st)
{
    (void)st;
    err_t err;
    if (game_open("connect4:4x4", &v, &err)) return -1;
    return test_tmpdir_make("gsw-sources");
}

static int teardown(void **st)
{
    (void)st;
    game_close(v);
    return test_tmpdir_remove();
}

/* 4x4 "12" is a draw; the fake says the side to move loses in 12 plies, so
 * "1" becomes a win in 13 by playing 2. */
#define FAKE_POS "12"
#define FAKE_VAL val_loss(12)

static void test_root(void **st)
{
    (void)st;
    err_t err;
    solver_t s;
    fake_t f;
    fake_init(&f, FAKE_POS, FAKE_VAL);
    GSW_POSBUF pos[GSW_MAX_POS];
    parse(FAKE_POS, pos);
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    answer_t a;
    assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);   /* without it: the truth */
    assert_null(a.source);
    assert_int_equal(a.r.lo, VAL_DRAW);
    assert_int_equal(a.r.hi, VAL_DRAW);
    assert_int_equal(solver_add_source(&s, &fake_kind, &f, &err), GSW_OK);
    assert_null(s.ab.oracle);   /* (not the heuristic engine's between solves) */
    assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
    assert_string_equal(a.source, "fake");
    assert_string_equal(a.phrase, "the fake source");
    assert_true(answer_from(&a, "fake"));
    assert_false(answer_from(&a, "cache"));
    assert_int_equal(a.r.lo, FAKE_VAL);
    assert_int_equal(a.r.hi, FAKE_VAL);
    assert_int_equal(a.r.nodes, 0);
    assert_true(f.probes > 0);
    /* solver_cached (no search) asks the whole chain too */
    f.probes = 0;
    assert_int_equal(solver_cached(&s, pos, &a, &err), 1);
    assert_string_equal(a.source, "fake");
    solver_free(&s);
    assert_true(f.closed);
}

/* Below the root: a search from the parent takes the fake's value as a leaf. */
static void test_below(void **st)
{
    (void)st;
    err_t err;
    GSW_POSBUF parent[GSW_MAX_POS];
    parse("1", parent);
    move_t two;
    assert_int_equal(v->ops->move_parse(v, parent, "2", &two, &err), GSW_OK);
    for (int dfpn = 0; dfpn < 2; dfpn++) {
        solver_t s;
        fake_t f;
        fake_init(&f, FAKE_POS, FAKE_VAL);
        assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
        s.dfpn = dfpn;
        assert_int_equal(solver_add_source(&s, &fake_kind, &f, &err), GSW_OK);
        answer_t a;
        assert_int_equal(solver_run(&s, parent, &a, &err), GSW_OK);
        assert_null(a.source);   /* searched */
        assert_true(a.r.nodes > 0);
        assert_true(f.probes > 0);
        assert_false(a.r.aborted);
        if (dfpn) assert_true(a.r.lo > VAL_DRAW);   /* a win (df-pn: no distance) */
        else {
            assert_int_equal(a.r.lo, val_win(13));
            assert_int_equal(a.r.hi, val_win(13));
        }
        assert_int_equal(a.r.best, two);
        assert_null(s.ab.oracle);   /* the search's oracle was for that search only */
        solver_free(&s);
    }
}

/* analyze's way: every move's position solved through the door, over a
 * cache (asked first: empty) that then holds what the searches proved. */
static void test_per_move(void **st)
{
    (void)st;
    err_t err;
    cache_t *c;
    assert_int_equal(cache_open(tmp_path("moves.db"), &c, &err), GSW_OK);
    solver_t s;
    fake_t f;
    fake_init(&f, FAKE_POS, FAKE_VAL);
    assert_int_equal(solver_init(&s, v, 16, c, &err), GSW_OK);
    assert_int_equal(solver_add_source(&s, &fake_kind, &f, &err), GSW_OK);
    GSW_POSBUF parent[GSW_MAX_POS], child[GSW_MAX_POS];
    parse("1", parent);
    move_t mv[GSW_MAX_MOVES], two;
    assert_int_equal(v->ops->move_parse(v, parent, "2", &two, &err), GSW_OK);
    int n = v->ops->moves(v, parent, mv), faked = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            memcpy(child, parent, v->ops->pos_size);
            v->ops->play(v, child, mv[i]);
            answer_t a;
            assert_int_equal(solver_run(&s, child, &a, &err), GSW_OK);
            if (mv[i] == two) {
                assert_string_equal(a.source, "fake");   /* never stored: asked again */
                assert_int_equal(a.r.lo, FAKE_VAL);
                faked++;
            } else {
                /* the others: searched, then (second pass) from the cache */
                if (pass) assert_string_equal(a.source, "cache");
                else assert_null(a.source);
                assert_true(a.r.lo <= VAL_DRAW);
            }
        }
    assert_int_equal(faked, 2);
    solver_free(&s);
    assert_int_equal(cache_close(c, &err), GSW_OK);
}

/* The analyst (the workbench's analysis, hint and perfect opponent, the
 * CLI's puzzle analyze): the position's value and every move's come through
 * the door, so the fake decides them with no front end told of it. */
static void test_analyst(void **st)
{
    (void)st;
    err_t err;
    gsw_flag_t stop = 0;
    analyst_t a;
    memset(&a, 0, sizeof a);
    fake_t f;
    fake_init(&f, FAKE_POS, FAKE_VAL);
    assert_int_equal(analyst_open(&a, v, 16, 1, NULL, NULL, &stop, &err), GSW_OK);
    assert_int_equal(solver_add_source(&a.solver, &fake_kind, &f, &err), GSW_OK);
    GSW_POSBUF parent[GSW_MAX_POS];
    parse("1", parent);
    move_t two;
    assert_int_equal(v->ops->move_parse(v, parent, "2", &two, &err), GSW_OK);
    analysis_t *an = calloc(1, sizeof *an);
    assert_non_null(an);
    analyst_task_t task = { 0 };
    analyst_list(v, parent, an);
    assert_int_equal(analyst_root(&a, &task, parent, an, &err), 0);
    assert_true(an->root_done);
    assert_int_equal(an->root_lo, val_win(13));   /* a draw without the fake */
    assert_int_equal(an->root_best, two);
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].state != MV_PROVEN || an->mv[i].lo != an->mv[i].hi)
            assert_int_equal(analyst_prove(&a, &task, parent, an, i, &err), 0);
    int best = analysis_best(an);
    assert_true(best >= 0);
    assert_int_equal(an->mv[best].move, two);
    assert_int_equal(an->mv[best].lo, val_win(13));
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].move != two) assert_true(an->mv[i].hi <= VAL_DRAW);
    assert_true(f.probes > 0);
    free(an);
    analyst_close(&a);
    assert_true(f.closed);
}

/* Two sources below a root: the chain asks them in turn (one oracle that
 * walks them); one alone is handed over as it is. */
static void test_chain_oracle(void **st)
{
    (void)st;
    err_t err;
    solver_t s;
    fake_t none, f;
    fake_init(&none, NULL, 0);
    fake_init(&f, FAKE_POS, FAKE_VAL);
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    GSW_POSBUF parent[GSW_MAX_POS], pos[GSW_MAX_POS];
    parse("1", parent);
    parse(FAKE_POS, pos);
    source_query_t q = { .v = v, .pos = parent, .goal = -1, .ab = &s.ab };
    assert_null(source_chain_oracle(&s.chain, &q));   /* no book, no strong solution for 4x4 here */
    assert_int_equal(solver_add_source(&s, &fake_kind, &f, &err), GSW_OK);
    assert_ptr_equal(source_chain_oracle(&s.chain, &q), &f.oracle);
    solver_free(&s);

    fake_init(&f, FAKE_POS, FAKE_VAL);
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    assert_int_equal(solver_add_source(&s, &fake_kind, &none, &err), GSW_OK);
    assert_int_equal(solver_add_source(&s, &fake_kind, &f, &err), GSW_OK);
    const gsw_oracle_t *o = source_chain_oracle(&s.chain, &q);
    assert_ptr_equal(o, &s.chain.multi);
    val_t lo, hi;
    assert_int_equal(o->probe(o->ctx, v, pos, &lo, &hi), 1);
    assert_int_equal(lo, FAKE_VAL);
    assert_int_equal(o->probe(o->ctx, v, parent, &lo, &hi), 0);
    answer_t a;
    assert_int_equal(solver_run(&s, parent, &a, &err), GSW_OK);
    assert_int_equal(a.r.lo, val_win(13));
    solver_free(&s);
    assert_true(none.closed && f.closed);
}

/* Databases built while a solver is open (by another gsw: here another
 * set on the same folder) answer its next solve, once it has looked again
 * (every 2 s at most), without a restart. */
static void test_egdb_built_meanwhile(void **st)
{
    (void)st;
    err_t err;
    gv_t *ck;
    assert_int_equal(game_open("checkers", &ck, &err), GSW_OK);
    const char *dir = tmp_path("egdb-meanwhile");
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(ck, "B:WK18:BK3,5", pos, &err), GSW_OK);
    solver_t s;
    assert_int_equal(solver_init(&s, ck, 16, NULL, &err), GSW_OK);
    assert_int_equal(solver_open_egdb(&s, dir, NULL, &err), GSW_OK);
    answer_t a;
    assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
    assert_false(answer_from(&a, "egdb"));   /* no file yet: searched */
    val_t searched = a.r.lo;
    egdb_set_t *set;
    assert_int_equal(egdb_set_open(ck, dir, &set, &err), GSW_OK);
    egdb_build_options_t bo = { .pieces = 3, .metric = RETRO_WLD, .threads = 1 };
    egdb_build_report_t rep;
    assert_int_equal(egdb_build(set, &bo, &rep, &err), GSW_OK);
    egdb_set_close(set);
    double t0 = gsw_now_ms();
    int seen = 0;
    while (!seen && gsw_now_ms() - t0 < 5000) {
        solver_clear(&s);   /* (the table's answer would hide the source) */
        assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
        seen = answer_from(&a, "egdb");
        if (!seen) { struct timespec ts = { 0, 200000000 }; nanosleep(&ts, NULL); }
    }
    assert_true(seen);
    assert_true(val_is_win(searched) && val_is_win(a.r.lo));   /* the same outcome */
    solver_free(&s);
    game_close(ck);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_root),
        cmocka_unit_test(test_below),
        cmocka_unit_test(test_per_move),
        cmocka_unit_test(test_analyst),
        cmocka_unit_test(test_chain_oracle),
        cmocka_unit_test(test_egdb_built_meanwhile),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

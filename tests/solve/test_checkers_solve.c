/* Checkers solved exactly, three ways: seeded random legal positions of at
 * most four pieces solved through the cached solver (solve/solver.h) by exact
 * alpha-beta, df-pn and the proof-tree manager, each with a node budget;
 * every two that finish must agree (win/draw/loss), and enough must finish.
 * Then positions whose values follow from the rules, checked every way.
 * GSW_CK_SOLVE_SEED=N: another seed; GSW_CK_SOLVE_N=N: another count (0:
 * the known positions only). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/game.h"
#include "core/value.h"
#include "solve/solver.h"
#include "tests/test_rng.h"
#include "tests/solve/checkers_positions.h"

static uint64_t rng_state;

static uint64_t rng_next(void) { return test_splitmix(&rng_state); }

enum { ALGO_AB, ALGO_DFPN, ALGO_MANAGER, NALGOS };
static const char *const algo_name[NALGOS] = { "alpha-beta", "df-pn", "manager" };

/* A solver of 16 MB, no cache, configured as `gsw solve --algo ...` does. */
static void open_solver(solver_t *s, gv_t *v, int algo, uint64_t nodes)
{
    err_t err;
    assert_int_equal(solver_init(s, v, 16, NULL, &err), GSW_OK);
    s->ab.node_limit = nodes;
    if (algo == ALGO_DFPN) s->dfpn = s->wdl = 1;
    if (algo == ALGO_MANAGER) s->manager = s->wdl = 1;
}

/* The win/draw/loss class of a settled answer: 1, 0, -1; 2 if unsettled. */
static int wdl_class(const answer_t *a)
{
    if (a->r.aborted) return 2;
    if (a->r.lo > VAL_DRAW) return 1;
    if (a->r.hi < VAL_DRAW) return -1;
    if (a->r.lo >= VAL_DRAW && a->r.hi <= VAL_DRAW) return 0;
    return 2;
}

static const char *class_name(int c)
{
    return c == 1 ? "win" : c == 0 ? "draw" : c == -1 ? "loss" : "unknown";
}

static void test_random_positions(void **st)
{
    (void)st;
    uint64_t seed = 20261124;
    int count = 200;
    if (getenv("GSW_CK_SOLVE_SEED")) seed = strtoull(getenv("GSW_CK_SOLVE_SEED"), NULL, 0);
    if (getenv("GSW_CK_SOLVE_N")) count = atoi(getenv("GSW_CK_SOLVE_N"));
    if (count <= 0) skip();   /* (the quick entry: the known positions only) */
    rng_state = seed;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("checkers", &v, &err), GSW_OK);
    /* one solver per algorithm over all the positions: tables carried from
     * one position to the next must stay true (no path-dependent entries) */
    static const uint64_t budget[NALGOS] = { 300000, 300000, 300000 };
    solver_t s[NALGOS];
    for (int k = 0; k < NALGOS; k++) open_solver(&s[k], v, k, budget[k]);
    int all = 0, finished[NALGOS] = { 0 }, classes[3] = { 0 }, disagree = 0, over = 0;
    uint64_t nodes[NALGOS] = { 0 };
    double t0 = gsw_now_ms();
    for (int i = 0; i < count; i++) {
        char fen[128];
        GSW_POSBUF pos[GSW_MAX_POS];
        val_t tv;
        do {   /* a position already over is skipped */
            checkers_random_fen(rng_next, 4, fen, sizeof fen);
            assert_int_equal(game_pos_parse(v, fen, pos, &err), GSW_OK);
        } while (v->ops->terminal(v, pos, &tv) && ++over);
        int cls[NALGOS], ab_exact = 0;
        val_t ab_value = 0;
        for (int k = 0; k < NALGOS; k++) {
            answer_t a;
            if (solver_run(&s[k], pos, &a, &err)) fail_msg("%s on \"%s\": %s", algo_name[k], fen, err.msg);
            cls[k] = wdl_class(&a);
            nodes[k] += a.r.nodes;
            if (cls[k] != 2) finished[k]++;
            if (k == ALGO_AB && !a.r.aborted) {   /* exact: the distance too */
                assert_int_equal(a.r.lo, a.r.hi);
                ab_exact = 1;
                ab_value = a.r.lo;
            }
        }
        int done = 1;
        for (int k = 0; k < NALGOS; k++) done &= cls[k] != 2;
        all += done;
        if (done) classes[cls[0] + 1]++;
        for (int a = 0; a < NALGOS; a++)
            for (int b = a + 1; b < NALGOS; b++)
                if (cls[a] != 2 && cls[b] != 2 && cls[a] != cls[b]) {
                    printf("DISAGREE \"%s\": %s says %s, %s says %s\n", fen, algo_name[a], class_name(cls[a]),
                           algo_name[b], class_name(cls[b]));
                    disagree++;
                }
        if (ab_exact && cls[ALGO_AB] != 0) assert_true(val_is_proven_decisive(ab_value));
    }
    printf("[ checkers  ] seed %llu: %d positions (%d already over skipped) of 2-4 pieces, %.0f ms\n",
           (unsigned long long)seed, count, over, gsw_now_ms() - t0);
    for (int k = 0; k < NALGOS; k++)
        printf("[ checkers  ] %-10s finished %3d of %d within %llu nodes (%llu nodes in all)\n", algo_name[k],
               finished[k], count, (unsigned long long)budget[k], (unsigned long long)nodes[k]);
    printf("[ checkers  ] all three finished %d (%d wins, %d draws, %d losses), %d disagreements\n", all, classes[2],
           classes[1], classes[0], disagree);
    for (int k = 0; k < NALGOS; k++) solver_free(&s[k]);
    game_close(v);
    assert_int_equal(disagree, 0);
    assert_true(all * 2 >= count);
}

/* Positions whose values follow from the rules; every solver must give
 * them (the distance where published bounds pin it). */
typedef struct known {
    const char *fen;
    int cls;                   /* 1 win, 0 draw, -1 loss for the side to move */
    int max_plies;             /* a win's or loss's longest distance (0: not checked) */
    const char *why;
} known_t;

static const known_t known[] = {
    /* Black has no piece: no move, lost */
    { "B:WK10:B", -1, 0, "no piece left" },
    /* Black's man on 25 has both squares ahead taken by White's men on 29
     * and 30 and nothing to jump to: no legal move, lost */
    { "B:W29,30:B25", -1, 0, "every piece blocked" },
    /* White's king on 10 can take neither king and is alone against two:
     * two kings beat one (Trice & Dodgen: the 2K vs 1K slice's longest win
     * is 33 plies with Black to move) */
    { "B:WK10:BK1,K2", 1, 33, "two kings against one" },
    /* the same with White to move: Black's kings on 1 and 2 cannot be
     * taken (a jump from 10 over 6 or 7 lands on 1 or 2, both taken; the
     * other squares hold nothing), so White loses in at most 34 plies */
    { "W:WK10:BK1,K2", -1, 34, "one king against two" },
    /* lone kings far apart: neither can be trapped (each has a double
     * corner to run to), a draw */
    { "B:WK32:BK1", 0, 0, "king against king" },
    { "W:WK28:BK5", 0, 0, "king against king" },
};
#define NKNOWN ((int)(sizeof known / sizeof known[0]))

static void test_known_positions(void **st)
{
    (void)st;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("checkers", &v, &err), GSW_OK);
    for (int i = 0; i < NKNOWN; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, known[i].fen, pos, &err), GSW_OK);
        for (int k = 0; k < NALGOS; k++) {
            /* alpha-beta and df-pn must finish; the manager, whose leaves
             * are budgeted and whose tree must reach the repetitions that
             * draw, may not within its budget (then it says so) */
            solver_t s;
            open_solver(&s, v, k, k == ALGO_MANAGER ? 2000000 : 0);
            answer_t a;
            if (solver_run(&s, pos, &a, &err)) fail_msg("%s on \"%s\": %s", algo_name[k], known[i].fen, err.msg);
            solver_free(&s);
            char got[96];
            value_text(a.r.lo, a.r.hi, got, sizeof got);
            printf("[ known     ] %-16s %-10s %s%s (%s)\n", known[i].fen, algo_name[k], got,
                   a.r.aborted ? " (budget spent)" : "", known[i].why);
            if (k == ALGO_MANAGER && a.r.aborted) continue;
            assert_int_equal(wdl_class(&a), known[i].cls);
            if (k == ALGO_AB) {
                assert_int_equal(a.r.lo, a.r.hi);
                if (known[i].max_plies) assert_true(val_plies(a.r.lo) <= known[i].max_plies);
                if (known[i].cls) assert_true(a.r.best != MOVE_NONE || known[i].cls < 0);
            }
        }
    }
    game_close(v);
}

/* Open bounds in a player's words (a new user read "between loss in 17 and
 * win in 17" as a value). */
static void test_open_words(void **st)
{
    (void)st;
    static const char *const want[] = {
        "no win or loss in fewer than 17 plies", "at least a draw, no win in fewer than 9 plies",
        "at most a draw, no loss in fewer than 12 plies", "no win in fewer than 21 plies, no loss in fewer than 8 plies",
        "nothing proven yet", "nothing proven yet",
    };
    val_t lo[] = { val_loss(17), VAL_DRAW, val_loss(12), val_loss(8), -VAL_INF, -VAL_WIN + 1 };
    val_t hi[] = { val_win(17), val_win(9), VAL_DRAW, val_win(21), VAL_INF, VAL_WIN - 1 };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char b[96];
        value_open_text(lo[i], hi[i], b, sizeof b);
        assert_string_equal(b, want[i]);
    }
    char t[128];
    value_text(val_loss(17), val_win(17), t, sizeof t);
    assert_string_equal(t, "unknown (no win or loss in fewer than 17 plies)");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_words),
        cmocka_unit_test(test_known_positions),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

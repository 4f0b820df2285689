/* df-pn against known values and against alpha-beta: the small Connect Four
 * boards of FACTS.md (4x4, 5x4, 5x5 draws; 6x4 a second-player win), every
 * line of the end-easy reference set and a sample of the middle sets (the
 * sign of the published score is the win/draw/loss value), the proving move
 * really proving, goal runs and budgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/tt.h"

static gv_t *open_variant(const char *spec)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    return v;
}

static outcome_t dfpn_value(const gv_t *v, const char *moves, move_t *best)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, moves, pos, &err), GSW_OK);
    dfpn_options_t o = { .hash_mb = 16 };
    dfpn_result_t r;
    assert_int_equal(dfpn_solve(v, pos, &o, &r, &err), GSW_OK);
    assert_int_not_equal(r.outcome, OUTCOME_UNKNOWN);
    assert_true(r.tt_used > 0 && r.tt_used <= r.tt_entries);
    if (best) *best = r.best;
    return r.outcome;
}

static void test_small_boards(void **st)
{
    (void)st;
    static const struct { const char *spec; outcome_t o; } b[] = {
        { "connect4:4x4", OUTCOME_DRAW }, { "connect4:5x4", OUTCOME_DRAW },
        { "connect4:6x4", OUTCOME_LOSS }, { "connect4:5x5", OUTCOME_DRAW },
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        gv_t *v = open_variant(b[i].spec);
        move_t best;
        assert_int_equal(dfpn_value(v, "", &best), b[i].o);
        if (b[i].o != OUTCOME_LOSS) {   /* the proving move keeps the value */
            GSW_POSBUF pos[GSW_MAX_POS];
            v->ops->pos_start(v, pos);
            v->ops->play(v, pos, best);
            dfpn_options_t o = { .hash_mb = 16 };
            dfpn_result_t r;
            err_t err;
            assert_int_equal(dfpn_solve(v, pos, &o, &r, &err), GSW_OK);
            assert_int_equal(r.outcome, b[i].o == OUTCOME_WIN ? OUTCOME_LOSS : OUTCOME_DRAW);
        }
        game_close(v);
    }
}

static void check_set(const char *name, int step, int limit)
{
    char path[1024];
    const char *dir = getenv("GSW_TEST_DATA");
    snprintf(path, sizeof path, "%s/connect4/%s", dir ? dir : "tests/data", name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    gv_t *v = open_variant("connect4");
    char line[256], moves[128];
    int expected, k = 0, checked = 0;
    while (fgets(line, sizeof line, f) && checked < limit) {
        if (k++ % step) continue;
        assert_int_equal(sscanf(line, "%127s %d", moves, &expected), 2);
        outcome_t want = expected > 0 ? OUTCOME_WIN : expected < 0 ? OUTCOME_LOSS : OUTCOME_DRAW;
        outcome_t got = dfpn_value(v, moves, NULL);
        if (got != want) fail_msg("%s line %d (%s): df-pn says %s, the set %d", name, k, moves, outcome_name(got), expected);
        checked++;
    }
    fclose(f);
    game_close(v);
    assert_true(checked > 0);
}

static void test_end_easy(void **st) { (void)st; check_set("Test_L3_R1", 1, 1000); }
static void test_middle_easy(void **st) { (void)st; check_set("Test_L2_R1", 10, 100); }
static void test_middle_medium(void **st) { (void)st; check_set("Test_L2_R2", 50, 20); }

/* Each goal on its own, and a node budget that stops the proof. */
static void test_goals_and_budget(void **st)
{
    (void)st;
    gv_t *v = open_variant("connect4:6x4");
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    dfpn_options_t o = { .hash_mb = 16 };
    dfpn_result_t r;
    err_t err;
    assert_int_equal(dfpn_prove(v, pos, DFPN_GOAL_WIN, &o, &r, &err), GSW_OK);
    assert_int_equal(r.status, DFPN_DISPROVEN);
    assert_int_equal(dfpn_prove(v, pos, DFPN_GOAL_DRAW, &o, &r, &err), GSW_OK);
    assert_int_equal(r.status, DFPN_DISPROVEN);   /* 6x4: the first player loses */
    v->ops->play(v, pos, 2);   /* after a first move the second player proves its win */
    assert_int_equal(dfpn_prove(v, pos, DFPN_GOAL_WIN, &o, &r, &err), GSW_OK);
    assert_int_equal(r.status, DFPN_PROVEN);
    assert_int_not_equal(r.best, MOVE_NONE);
    v->ops->pos_start(v, pos);
    o.node_limit = 2000;
    assert_int_equal(dfpn_solve(v, pos, &o, &r, &err), GSW_OK);
    assert_int_equal(r.outcome, OUTCOME_UNKNOWN);
    assert_true(r.nodes < 10000);
    game_close(v);
}

/* Walk a proof tree: every claim checked by alpha-beta, choice nodes have
 * one child and belong to the side the result favours, other nodes have
 * every move worth searching, leaves are settled by the game. */
static int check_tree(const gv_t *v, const proof_tree_t *t, int i, const void *pos, int root_turn, tt_t *tt)
{
    const game_ops_t *O = v->ops;
    const proof_node_t *p = &t->node[i];
    int attacker = O->pos_turn(v, pos) == root_turn;
    val_t T = t->goal == DFPN_GOAL_WIN ? 1 : 0;
    ab_options_t ao = { .threads = 1, .no_best = 1 };
    ab_result_t r;
    err_t err;
    assert_int_equal(ab_solve(v, tt, pos, &ao, &r, &err), GSW_OK);
    int holds = attacker ? r.lo >= T : r.lo <= -T;   /* the claim, from the root side's view */
    assert_int_equal(holds, t->result == DFPN_PROVEN);
    move_t mv[GSW_MAX_MOVES];
    val_t lo = -VAL_INF, hi = VAL_INF;
    int n = O->ab_expand(v, pos, mv, &lo, &hi), favoured = (t->result == DFPN_PROVEN) == attacker;
    val_t tv;
    if (p->leaf == 2) {   /* settled by the search (checked above), not expanded */
        assert_int_equal(p->nchildren, 0);
        return i + 1;
    }
    if (p->leaf) {
        assert_int_equal(p->nchildren, 0);
        assert_true(O->terminal(v, pos, &tv) || lo >= hi || (attacker ? (lo >= T || hi < T) : (hi <= -T || lo > -T)));
        return i + 1;
    }
    assert_false(O->terminal(v, pos, &tv));
    if (p->choice) { assert_true(favoured); assert_int_equal(p->nchildren, 1); }
    else { assert_false(favoured); assert_int_equal(p->nchildren, n); }
    int k = i + 1, size = 1;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int c = 0; c < p->nchildren; c++) {
        int legal = 0;
        for (int m = 0; m < n; m++) legal |= mv[m] == t->node[k].move;
        assert_true(legal);
        assert_int_equal(t->node[k].parent, i);
        memcpy(child, pos, O->pos_size);
        O->play(v, child, t->node[k].move);
        size += t->node[k].size;
        k = check_tree(v, t, k, child, root_turn, tt);
    }
    assert_int_equal(size, p->size);
    return k;
}

/* One table kept over positions whose sides to move differ (a batch): an
 * entry answers "does this run's attacker reach its goal?", so a root with
 * the other side to move must not read it. These three lines, in this
 * order, made the last one a draw (it loses in 6) while the key ignored
 * the attacker. */
static void test_shared_table(void **st)
{
    (void)st;
    gv_t *v = open_variant("connect4:5x4");
    dfpn_table_t t;
    err_t err;
    assert_int_equal(dfpn_table_init(&t, 16, &err), GSW_OK);
    static const struct { const char *moves; outcome_t o; } line[] = {
        { "5131", OUTCOME_DRAW }, { "", OUTCOME_DRAW }, { "1422315541552", OUTCOME_LOSS },
    };
    for (int round = 0; round < 2; round++)   /* again, with everything in the table */
        for (size_t i = 0; i < sizeof line / sizeof line[0]; i++) {
            GSW_POSBUF pos[GSW_MAX_POS];
            assert_int_equal(game_pos_parse(v, line[i].moves, pos, &err), GSW_OK);
            dfpn_options_t o = { .table = &t, .no_best = 1 };   /* as a batch runs it */
            dfpn_result_t r;
            assert_int_equal(dfpn_solve(v, pos, &o, &r, &err), GSW_OK);
            assert_int_equal(r.outcome, line[i].o);
        }
    dfpn_table_free(&t);
    game_close(v);
}

static void test_proof_trees(void **st)
{
    (void)st;
    static const struct { const char *spec, *moves; dfpn_goal_t goal; dfpn_status_t want; } c[] = {
        { "connect4:4x4", "", DFPN_GOAL_DRAW, DFPN_PROVEN },      /* a draw: at least a draw */
        { "connect4:4x4", "", DFPN_GOAL_WIN, DFPN_DISPROVEN },    /* ... and no win */
        { "connect4:5x4", "1", DFPN_GOAL_WIN, DFPN_PROVEN },      /* a corner start loses */
        { "connect4:6x4", "", DFPN_GOAL_DRAW, DFPN_DISPROVEN },   /* the second player wins */
    };
    tt_t tt;
    err_t err;
    assert_int_equal(tt_init(&tt, 16, &err), GSW_OK);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gv_t *v = open_variant(c[i].spec);
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, c[i].moves, pos, &err), GSW_OK);
        dfpn_options_t o = { .hash_mb = 16 };
        dfpn_result_t r;
        proof_tree_t t;
        assert_int_equal(dfpn_proof_tree(v, pos, c[i].goal, &o, &t, &r, &err), GSW_OK);
        assert_int_equal(t.result, c[i].want);
        assert_true(t.n > 1);
        assert_int_equal(t.node[0].size, t.n);
        assert_int_equal(check_tree(v, &t, 0, pos, v->ops->pos_turn(v, pos), &tt), t.n);
        assert_int_equal(t.searched, 0);   /* small enough to expand in full */
        int full = t.n;
        proof_tree_free(&t);
        /* a budget below the whole tree: expanded as deep as fits, the rest
         * search leaves, each one's claim checked by alpha-beta above */
        o.tree_nodes = full / 3;
        assert_int_equal(dfpn_proof_tree(v, pos, c[i].goal, &o, &t, &r, &err), GSW_OK);
        assert_true(t.n <= full / 3 + 1);
        assert_true(t.searched > 0);
        assert_int_equal(check_tree(v, &t, 0, pos, v->ops->pos_turn(v, pos), &tt), t.n);
        int searched = 0;
        for (int k = 0; k < t.n; k++) searched += t.node[k].leaf == 2;
        assert_int_equal(searched, t.searched);
        proof_tree_free(&t);
        game_close(v);
    }
    /* the value and its tree from one search: the goal follows the value */
    static const struct { const char *spec, *moves; dfpn_goal_t goal; dfpn_status_t res; outcome_t o; } vt[] = {
        { "connect4:4x4", "", DFPN_GOAL_DRAW, DFPN_PROVEN, OUTCOME_DRAW },
        { "connect4:5x4", "1", DFPN_GOAL_WIN, DFPN_PROVEN, OUTCOME_WIN },
        { "connect4:6x4", "", DFPN_GOAL_DRAW, DFPN_DISPROVEN, OUTCOME_LOSS },
    };
    for (size_t i = 0; i < sizeof vt / sizeof vt[0]; i++) {
        gv_t *v = open_variant(vt[i].spec);
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, vt[i].moves, pos, &err), GSW_OK);
        dfpn_options_t o = { .hash_mb = 16 };
        dfpn_result_t r;
        proof_tree_t t;
        assert_int_equal(dfpn_value_tree(v, pos, &o, &t, &r, &err), GSW_OK);
        assert_int_equal(r.outcome, vt[i].o);
        assert_int_equal(t.goal, vt[i].goal);
        assert_int_equal(t.result, vt[i].res);
        assert_int_equal(check_tree(v, &t, 0, pos, v->ops->pos_turn(v, pos), &tt), t.n);
        proof_tree_free(&t);
        game_close(v);
    }
    tt_free(&tt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_end_easy),
        cmocka_unit_test(test_middle_easy),
        cmocka_unit_test(test_middle_medium),
        cmocka_unit_test(test_goals_and_budget),
        cmocka_unit_test(test_proof_trees),
        cmocka_unit_test(test_shared_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* df-pn's depth-limited goal ("win within D plies", dfpn_options_t.max_plies)
 * and the shortest-win driver: on Connect Four 5x4 positions drawn at
 * random, against alpha-beta's exact values with their distances — a win in
 * d plies is proven within d plies and disproven within d - 1, a loss in d
 * plies is the other side's win (defend), a draw is never a win; the
 * shortest win is d, its tree d deep, its principal line d moves that end
 * the game. Then a chess mate in 2 (the last ply tries checks only), a table
 * shared across limits, and max_plies 0 leaving the old goal as it was. */
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
#include "tests/test_rng.h"

static gv_t *open_variant(const char *spec)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    return v;
}

static dfpn_status_t within(const gv_t *v, const void *pos, int plies, int defend, dfpn_table_t *tab)
{
    dfpn_options_t o = { .table = tab, .max_plies = plies, .defend = defend };
    dfpn_result_t r;
    err_t err;
    assert_int_equal(dfpn_prove(v, pos, DFPN_GOAL_WIN, &o, &r, &err), GSW_OK);
    assert_int_not_equal(r.status, DFPN_UNKNOWN);
    return r.status;
}

/* The line from pos: every move legal, and after the last the game is over
 * with the side to move lost (the line's first mover won when it has odd
 * length). */
static void check_line(const gv_t *v, const void *pos, const move_t *line, int len)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF at[GSW_MAX_POS];
    memcpy(at, pos, O->pos_size);
    val_t tv;
    for (int i = 0; i < len; i++) {
        assert_false(O->terminal(v, at, &tv));
        move_t mv[GSW_MAX_MOVES];
        int n = O->moves(v, at, mv), legal = 0;
        for (int j = 0; j < n; j++) legal |= mv[j] == line[i];
        assert_true(legal);
        O->play(v, at, line[i]);
    }
    assert_true(O->terminal(v, at, &tv));
    assert_int_equal(tv, val_loss(0));
}

/* bare: the game without ab_expand, so that every leaf of a proof is the
 * game's end (with it, Connect Four's distance bounds settle nodes early:
 * a tree and its line may stop short at such a leaf). */
static void connect4_distances(int bare)
{
    gv_t *v0 = open_variant("connect4:5x4"), vb = *v0, *v = &vb;
    game_ops_t ops = *v0->ops;
    if (bare) ops.ab_expand = NULL, ops.ab_play = NULL;
    vb.ops = &ops;
    const game_ops_t *O = v->ops;
    tt_t tt;
    err_t err;
    assert_int_equal(tt_init(&tt, 16, &err), GSW_OK);
    dfpn_table_t tab;
    assert_int_equal(dfpn_table_init(&tab, 16, &err), GSW_OK);
    uint64_t seed = 16;
    int wins = 0, losses = 0, draws = 0;
    for (int k = 0; k < 150; k++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        O->pos_start(v, pos);
        int plies = 4 + (int)(test_splitmix(&seed) % 8);
        val_t tv;
        for (int p = 0; p < plies && !O->terminal(v, pos, &tv); p++) {
            move_t mv[GSW_MAX_MOVES];
            int n = O->moves(v, pos, mv);
            O->play(v, pos, mv[test_splitmix(&seed) % (uint64_t)n]);
        }
        if (O->terminal(v, pos, &tv)) continue;
        ab_options_t ao = { .threads = 1, .no_best = 1 };
        ab_result_t ar;
        assert_int_equal(ab_solve(v, &tt, pos, &ao, &ar, &err), GSW_OK);
        assert_int_equal(ar.lo, ar.hi);
        val_t val = ar.lo;
        if (val_is_win(val)) {
            int d = val_plies(val);
            wins++;
            assert_int_equal(within(v, pos, d, 0, &tab), DFPN_PROVEN);
            assert_int_equal(within(v, pos, d + 1, 0, &tab), DFPN_PROVEN);
            if (d > 1) assert_int_equal(within(v, pos, d - 1, 0, NULL), DFPN_DISPROVEN);   /* a private table too */
            if (d > 2) assert_int_equal(within(v, pos, d - 2, 0, &tab), DFPN_DISPROVEN);
            assert_int_equal(within(v, pos, d, 1, &tab), DFPN_DISPROVEN);   /* nor does the other side win */
            /* the shortest win, step 1 (every D) and step 2 (the winner's plies) */
            for (int step = 1; step <= 2; step++) {
                dfpn_options_t o = { .table = &tab };
                proof_tree_t t;
                dfpn_result_t r;
                int got;
                assert_int_equal(dfpn_shortest_win(v, pos, 1, d + 4, step, &o, &t, &got, &r, &err), GSW_OK);
                assert_int_equal(got, d);
                assert_int_equal(r.outcome, OUTCOME_WIN);
                assert_int_equal(proof_tree_check(v, pos, &t, &err), GSW_OK);
                move_t line[64];
                int len = proof_tree_line(&t, line, 64);
                assert_int_equal(line[0], r.best);
                if (bare) {   /* the tree is as deep as the win is long, its line ends the game */
                    assert_int_equal(t.depth, d);
                    assert_int_equal(len, d);
                    check_line(v, pos, line, len);
                } else {
                    assert_true(t.depth <= d && len == t.depth);
                }
                proof_tree_free(&t);
            }
        } else if (val_is_loss(val)) {
            int d = val_plies(val);
            losses++;
            assert_int_equal(within(v, pos, d, 1, &tab), DFPN_PROVEN);
            assert_int_equal(within(v, pos, d - 1, 1, &tab), DFPN_DISPROVEN);
            assert_int_equal(within(v, pos, d, 0, &tab), DFPN_DISPROVEN);
            dfpn_options_t o = { .table = &tab, .defend = 1 };
            proof_tree_t t;
            dfpn_result_t r;
            int got;
            assert_int_equal(dfpn_shortest_win(v, pos, 2, d + 4, 2, &o, &t, &got, &r, &err), GSW_OK);
            assert_int_equal(got, d);
            assert_int_equal(r.outcome, OUTCOME_LOSS);
            assert_int_equal(proof_tree_check(v, pos, &t, &err), GSW_OK);
            move_t line[64];
            int len = proof_tree_line(&t, line, 64);
            if (bare) {
                assert_int_equal(t.depth, d);
                assert_int_equal(len, d);
                check_line(v, pos, line, len);
            } else {
                assert_true(t.depth <= d && len == t.depth);
            }
            proof_tree_free(&t);
        } else {
            draws++;
            assert_int_equal(within(v, pos, 20, 0, &tab), DFPN_DISPROVEN);
            assert_int_equal(within(v, pos, 20, 1, &tab), DFPN_DISPROVEN);
            dfpn_options_t o = { .table = &tab };
            dfpn_result_t r;
            int got;
            assert_int_equal(dfpn_shortest_win(v, pos, 1, 19, 2, &o, NULL, &got, &r, &err), GSW_OK);
            assert_int_equal(got, -1);
            assert_int_equal(r.status, DFPN_DISPROVEN);
        }
    }
    assert_true(wins >= 5 && losses >= 5 && draws >= 1);   /* the sample covers every kind */
    /* max_plies 0 is the old goal: the same table still answers it */
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, "1", pos, &err), GSW_OK);
    dfpn_options_t o = { .table = &tab };
    dfpn_result_t r;
    assert_int_equal(dfpn_prove(v, pos, DFPN_GOAL_WIN, &o, &r, &err), GSW_OK);
    assert_int_equal(r.status, DFPN_PROVEN);   /* a corner start loses (test_dfpn) */
    dfpn_table_free(&tab);
    tt_free(&tt);
    game_close(v0);
}

static void test_connect4_distances(void **st)
{
    (void)st;
    connect4_distances(0);
}

static void test_connect4_distances_bare(void **st)
{
    (void)st;
    connect4_distances(1);
}

/* A chess mate in 2 (Morphy's opera-game finish, 16. Qb8+ Nxb8 17. Rd8#):
 * no mate in 1, mate in 2 with the queen sacrifice first. */
static void test_chess_mate(void **st)
{
    (void)st;
    gv_t *v = open_variant("chess");
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16", pos, &err), GSW_OK);
    assert_int_equal(within(v, pos, 1, 0, NULL), DFPN_DISPROVEN);
    assert_int_equal(within(v, pos, 3, 0, NULL), DFPN_PROVEN);
    dfpn_options_t o = { .hash_mb = 16 };
    proof_tree_t t;
    dfpn_result_t r;
    int got;
    assert_int_equal(dfpn_shortest_win(v, pos, 1, 9, 2, &o, &t, &got, &r, &err), GSW_OK);
    assert_int_equal(got, 3);
    move_t line[8];
    int len = proof_tree_line(&t, line, 8);
    assert_int_equal(len, 3);
    check_line(v, pos, line, len);
    char san[16];
    v->ops->move_format(v, pos, line[0], san, sizeof san);
    assert_string_equal(san, "Qb8+");
    proof_tree_free(&t);
    /* the side to move mated: after 16. Qb8+ Black loses in 1 (one reply, then mate) */
    v->ops->play(v, pos, line[0]);
    assert_int_equal(within(v, pos, 2, 1, NULL), DFPN_PROVEN);
    assert_int_equal(within(v, pos, 1, 1, NULL), DFPN_DISPROVEN);
    game_close(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connect4_distances),
        cmocka_unit_test(test_connect4_distances_bare),
        cmocka_unit_test(test_chess_mate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

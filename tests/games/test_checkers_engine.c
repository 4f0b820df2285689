/* The checkers heuristic engine: the evaluation is symmetric (a position and
 * its twin turned half a turn with the colours swapped score the same),
 * quiescence sees a pending capture at depth 1, a repetition on the game's
 * line scores as a draw, the engine finds a two-for-one shot; and (label
 * release, GSW_CK_MATCH=1) a seeded, node-limited match in which a higher
 * level beats a lower one by a clear margin. */
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
#include "games/checkers/ck.h"
#include "tests/test_rng.h"

static gv_t *open_checkers(void)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("checkers", &v, &err), GSW_OK);
    return v;
}

static void parse(const gv_t *v, const char *text, ck_pos_t *p)
{
    err_t err;
    if (game_pos_parse(v, text, p, &err)) fail_msg("%s: %s", text, err.msg);
}

static uint64_t rng_next(uint64_t *s) { return test_splitmix(s); }

/* Square s to 33 - s. */
static uint32_t turn_board(uint32_t b)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (b >> i & 1) r |= 1u << (31 - i);
    return r;
}

static ck_pos_t twin(const ck_pos_t *p)
{
    ck_pos_t t = *p;
    t.p[0] = turn_board(p->p[1]);
    t.p[1] = turn_board(p->p[0]);
    t.k = turn_board(p->k);
    t.side = (uint8_t)!p->side;
    return t;
}

static void test_eval_symmetric(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    uint64_t seed = 12345;
    int checked = 0, nonzero = 0;
    for (int game = 0; game < 200; game++) {
        ck_pos_t p;
        v->ops->pos_start(v, &p);
        for (int ply = 0; ply < 200; ply++) {
            int32_t e = v->ops->evaluate(v, &p);
            ck_pos_t t = twin(&p);
            int32_t et = v->ops->evaluate(v, &t);
            if (e != et) {
                char a[128], b[128];
                v->ops->pos_format(v, &p, a, sizeof a);
                v->ops->pos_format(v, &t, b, sizeof b);
                fail_msg("evaluation not symmetric: %s scores %d, its twin %s %d", a, e, b, et);
            }
            assert_true(e > -VAL_PROVEN && e < VAL_PROVEN);
            checked++;
            nonzero += e != 0;
            move_t mv[GSW_MAX_MOVES];
            int n = v->ops->moves(v, &p, mv);
            if (!n) break;
            v->ops->play(v, &p, mv[rng_next(&seed) % (uint64_t)n]);
        }
    }
    assert_true(checked > 5000);
    assert_true(nonzero > checked / 2);
    game_close(v);
}

/* The terms point the right way: a man more is good, a king better than a
 * man, a runaway man better than a blocked one. */
static void test_eval_terms(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    ck_pos_t p;
    parse(v, "B:W21,22,23:B1,2,3,4", &p);
    assert_true(v->ops->evaluate(v, &p) > 50);
    ck_pos_t men, king;
    parse(v, "B:W30:B10,K12", &king);
    parse(v, "B:W30:B10,12", &men);
    assert_true(v->ops->evaluate(v, &king) > v->ops->evaluate(v, &men));
    /* Black's man on 21 has a free way to the crowning row; on 22 White's
     * man on 31 stands in its way */
    ck_pos_t run, blocked;
    parse(v, "B:W31:B21", &run);
    parse(v, "B:W31:B22", &blocked);
    assert_true(v->ops->evaluate(v, &run) > v->ops->evaluate(v, &blocked));
    game_close(v);
}

static ab_result_t think(const gv_t *v, tt_t *tt, const ck_pos_t *p, int depth, const uint64_t *hist, int nhist)
{
    ab_options_t o = { .threads = 1, .depth_limit = depth, .history = hist, .history_len = nhist };
    ab_result_t r;
    err_t err;
    tt_clear(tt);
    assert_int_equal(ab_think(v, tt, p, &o, &r, &err), GSW_OK);
    return r;
}

/* Black must take 14x23, and White then takes two back (27x18x11): at depth
 * 1 the search must see the recapture, which the static evaluation of the
 * position after 14x23 does not. */
static void test_quiescence(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    tt_t tt;
    err_t err;
    assert_int_equal(tt_init(&tt, 4, &err), GSW_OK);
    ck_pos_t p, child;
    parse(v, "B:W18,22,27,32:B1,14,15", &p);
    move_t mv[GSW_MAX_MOVES];
    assert_int_equal(v->ops->moves(v, &p, mv), 1);
    child = p;
    v->ops->play(v, &child, mv[0]);
    int32_t naive = -v->ops->evaluate(v, &child);   /* Black's view, White's capture not seen */
    ab_result_t r = think(v, &tt, &p, 1, NULL, 0);
    ab_result_t deep = think(v, &tt, &p, 6, NULL, 0);   /* (deeper, it finds the loss of the last man) */
    assert_true(naive > r.score + 80);
    assert_true(r.score < -150);
    assert_true(abs(r.score - deep.score) < 80);
    tt_free(&tt);
    game_close(v);
}

/* Black's lone king against four men loses; but if the position after
 * K15-10 stood on the game's line before (with White to move), K15-10
 * repeats it: a draw. History at the wrong parity (Black to move there)
 * is no repetition. */
static void test_repetition(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    tt_t tt;
    err_t err;
    assert_int_equal(tt_init(&tt, 4, &err), GSW_OK);
    ck_pos_t p, q;
    parse(v, "B:W21,22,23,24,K32:BK15", &p);
    move_t m;
    assert_int_equal(v->ops->move_parse(v, &p, "15-10", &m, &err), GSW_OK);
    q = p;
    v->ops->play(v, &q, m);
    uint64_t other = 0x1234567890abcdefull;
    uint64_t hist[2] = { v->ops->pos_hash(v, &q), other };
    ab_result_t plain = think(v, &tt, &p, 6, NULL, 0);
    assert_true(plain.score < -150);
    ab_result_t wrong = think(v, &tt, &p, 6, hist, 2);    /* q two plies back: Black to move there */
    assert_int_equal(wrong.score, plain.score);
    ab_result_t rep = think(v, &tt, &p, 6, hist, 1);      /* q one ply back */
    assert_int_equal(rep.score, VAL_DRAW);
    assert_int_equal(rep.best, m);
    /* a repetition inside the search: the line's positions are on it too */
    uint64_t hist2[3] = { v->ops->pos_hash(v, &q), other, other };
    ab_result_t rep3 = think(v, &tt, &p, 6, hist2, 3);    /* three plies back: White to move, like q */
    assert_int_equal(rep3.score, VAL_DRAW);
    tt_free(&tt);
    game_close(v);
}

/* A two-for-one shot: 14-18 gives a man (23x14, forced) and 9x18x25 takes
 * two back. */
static void test_shot(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    tt_t tt;
    err_t err;
    assert_int_equal(tt_init(&tt, 4, &err), GSW_OK);
    ck_pos_t p;
    parse(v, "B:W22,23,31,32:B5,9,14,15", &p);
    ab_result_t r = think(v, &tt, &p, 6, NULL, 0);
    char mv[32];
    v->ops->move_format(v, &p, r.best, mv, sizeof mv);
    assert_string_equal(mv, "14-18");
    assert_true(r.score > 60);
    tt_free(&tt);
    game_close(v);
}

/* ---- the match (release) ---- */

#define MATCH_MAX_PLIES 240

/* One game from an opening: the levels' players are a depth limit of 2 *
 * level plies (as the workbench's levels) and a node budget in place of
 * its time; returns the result for Black: 1 win, 0 draw, -1 loss. */
static int play_game(const gv_t *v, tt_t *tt, const ck_pos_t *start, const int level[2], unsigned long long nodes,
                     uint64_t *total_nodes)
{
    ck_pos_t p = *start;
    uint64_t line[MATCH_MAX_PLIES + 8];
    int n = 0;
    for (int ply = 0; ply < MATCH_MAX_PLIES; ply++) {
        val_t tv;
        if (v->ops->terminal(v, &p, &tv)) return p.side == 0 ? -1 : 1;
        uint64_t h = v->ops->pos_hash(v, &p);
        int seen = 0;
        for (int i = 0; i < n; i++) seen += line[i] == h;
        if (seen >= 2) return 0;   /* threefold repetition */
        int s = p.side;
        ab_options_t o = { .threads = 1, .depth_limit = 2 * level[s], .node_limit = nodes * (uint64_t)level[s],
                           .history = line, .history_len = n };
        ab_result_t r;
        err_t err;
        assert_int_equal(ab_think(v, &tt[s], &p, &o, &r, &err), GSW_OK);
        *total_nodes += r.nodes;
        assert_true(r.best != MOVE_NONE);
        line[n++] = h;
        v->ops->play(v, &p, r.best);
    }
    /* adjudicated: a lead of two men or more (kings count 1.5) */
    int b = 2 * __builtin_popcount(p.p[0] & ~p.k) + 3 * __builtin_popcount(p.p[0] & p.k);
    int w = 2 * __builtin_popcount(p.p[1] & ~p.k) + 3 * __builtin_popcount(p.p[1] & p.k);
    return b - w >= 4 ? 1 : w - b >= 4 ? -1 : 0;
}

static void test_match(void **state)
{
    (void)state;
    gv_t *v = open_checkers();
    tt_t tt[2];
    err_t err;
    for (int i = 0; i < 2; i++) assert_int_equal(tt_init(&tt[i], 8, &err), GSW_OK);
    /* GSW_CK_MATCH=HI,LO[,NODES] plays other levels (a ladder check) */
    int hi = 4, lo = 2, openings = 12;
    unsigned long long nodes = 20000;
    const char *spec = getenv("GSW_CK_MATCH");
    if (spec && strchr(spec, ',')) assert_true(sscanf(spec, "%d,%d,%llu", &hi, &lo, &nodes) >= 2);
    uint64_t seed = 2026, total = 0;
    int win = 0, draw = 0, loss = 0;
    for (int g = 0; g < openings; g++) {
        /* three random plies from the start */
        ck_pos_t start;
        v->ops->pos_start(v, &start);
        for (int k = 0; k < 3; k++) {
            move_t mv[GSW_MAX_MOVES];
            int n = v->ops->moves(v, &start, mv);
            v->ops->play(v, &start, mv[rng_next(&seed) % (uint64_t)n]);
        }
        for (int colour = 0; colour < 2; colour++) {
            int level[2];
            level[colour] = hi;
            level[!colour] = lo;
            for (int i = 0; i < 2; i++) tt_clear(&tt[i]);
            int res = play_game(v, tt, &start, level, nodes, &total);
            int mine = colour == 0 ? res : -res;
            win += mine > 0;
            draw += mine == 0;
            loss += mine < 0;
        }
    }
    double score = win + 0.5 * draw;
    printf("checkers match: level %d against level %d, %d games: +%d =%d -%d (%.1f%%), %llu nodes\n", hi, lo,
           2 * openings, win, draw, loss, 100.0 * score / (2 * openings), (unsigned long long)total);
    fflush(stdout);
    assert_true(score >= 0.7 * 2 * openings);
    assert_true(win >= 3 * loss);
    for (int i = 0; i < 2; i++) tt_free(&tt[i]);
    game_close(v);
}

int main(void)
{
    if (getenv("GSW_CK_MATCH")) {
        const struct CMUnitTest match[] = { cmocka_unit_test(test_match) };
        return cmocka_run_group_tests(match, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_symmetric),
        cmocka_unit_test(test_eval_terms),
        cmocka_unit_test(test_quiescence),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_shot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The chess evaluation network (games/chess/ch_nn.c): the features of a
 * piece from each side's view; a network set by hand (a unit for each
 * view's queens, one for its rooks) gives the values its integers say,
 * antisymmetric, clipped where they should be; the built-in network is what
 * ch_evaluate uses with the default parameters, and only there (not with
 * net 0, the tuner's and values='s evaluation by terms, and not with a
 * bare king); it scores strictly inside the proven range, and a side a
 * queen up well ahead; its sums kept from the last position give what
 * summing from scratch gives, over games and jumps between unrelated
 * positions. (A position and its mirror: test_chess_eval.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/value.h"
#include "games/chess/ch.h"
#include "games/chess/ch_nn.h"
#include "tests/test_rng.h"

/* Position s, in a buffer that lasts until the next call but three. */
static const ch_pos_t *fen(const char *s)
{
    static ch_pos_t ring[4];
    static int at;
    ch_pos_t *p = &ring[at++ & 3];
    err_t err;
    if (ch_parse_fen(s, p, &err)) fail_msg("%s: %s", s, err.msg);
    return p;
}

static void test_features(void **state)
{
    (void)state;
    ch_pos_t p = *fen("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1");
    uint16_t f[32];
    int n = ch_nn_features(&p, CH_WHITE, f);
    assert_int_equal(n, 3);
    int knight = 0;
    for (int i = 0; i < n; i++) {
        assert_true(f[i] < CH_NN_IN);
        knight += f[i] == (0 * 6 + CH_KNIGHT - 1) * 64 + 18;   /* White's own knight on c3 */
    }
    assert_int_equal(knight, 1);
    n = ch_nn_features(&p, CH_BLACK, f);
    assert_int_equal(n, 3);
    knight = 0;
    for (int i = 0; i < n; i++) knight += f[i] == (1 * 6 + CH_KNIGHT - 1) * 64 + (18 ^ 56);   /* an enemy knight on c6 */
    assert_int_equal(knight, 1);
    /* the start: 32 features a side, all different */
    ch_start(&p);
    assert_int_equal(ch_nn_features(&p, CH_BLACK, f), 32);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < i; j++) assert_int_not_equal(f[i], f[j]);
}

/* Unit 0 counts the viewer's own queens, unit 1 the viewer's own rooks
 * (half a unit each). Unit 0's output weights: +1 for the side to move's
 * view, -1 for the other's; unit 1's: +1 and 0. Evaluated
 * antisymmetrically, a unit counts (its weight for the side to move less
 * the other's) / 2 times (its square in the side to move's view less in
 * the other's): unit 0 a full 400 cp, unit 1 a quarter of 200. */
static void test_by_hand(void **state)
{
    (void)state;
    enum { H = 8 };
    static int16_t w1[CH_NN_IN * H], b1[H], w2[2 * H];
    memset(w1, 0, sizeof w1);
    for (int s = 0; s < 64; s++) {
        w1[((0 * 6 + CH_QUEEN - 1) * 64 + s) * H + 0] = CH_NN_QA;
        w1[((0 * 6 + CH_ROOK - 1) * 64 + s) * H + 1] = CH_NN_QA / 2 + 1;   /* 128: 0.502 */
    }
    w2[0] = CH_NN_QB;
    w2[H + 0] = -CH_NN_QB;
    w2[1] = CH_NN_QB;
    const ch_nn_t nn = { H, w1, b1, w2, 0 };
    assert_int_equal(ch_nn_eval(&nn, fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")), 400);
    assert_int_equal(ch_nn_eval(&nn, fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")), -400);
    /* two queens: the unit is clipped at 1 */
    assert_int_equal(ch_nn_eval(&nn, fen("4k3/8/8/8/8/8/8/2QQK3 w - - 0 1")), 400);
    /* both sides a queen: the views cancel */
    assert_int_equal(ch_nn_eval(&nn, fen("3qk3/8/8/8/8/8/8/3QK3 b - - 0 1")), 0);
    /* a rook: (1 - 0) / 2 times 128 / 255 squared, 0.126 of 400 cp */
    assert_int_equal(ch_nn_eval(&nn, fen("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")), 50);
    assert_int_equal(ch_nn_eval(&nn, fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1")), -50);
    /* the output's bias and the hidden units' cancel */
    static int16_t b1x[H];
    for (int j = 0; j < H; j++) b1x[j] = 40;
    const ch_nn_t nb = { H, w1, b1x, w2, -CH_NN_QA * CH_NN_QB / 4 };
    assert_int_equal(ch_nn_eval(&nb, fen("4k3/8/8/8/8/8/8/3K4 w - - 0 1")), 0);
    assert_int_equal(ch_nn_eval(&nb, fen("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")), 0);
}

static void test_builtin(void **state)
{
    (void)state;
    const ch_nn_t *nn = ch_nn_builtin();
    assert_non_null(nn);
    assert_true(nn->h >= 8 && nn->h <= 256);
    ch_params_t pp, terms;
    ch_params_default(&pp);
    assert_int_equal(pp.net, 1);
    terms = pp;
    terms.net = 0;
    uint64_t seed = 99;
    int n = 0, differ = 0;
    for (int g = 0; g < 300; g++) {
        ch_pos_t p;
        ch_start(&p);
        for (int ply = 0; ply < 160; ply++) {
            move_t mv[256];
            int k = ch_moves(&p, mv);
            if (!k || ch_insufficient(&p)) break;
            const int32_t e = ch_evaluate(&pp, &p), t = ch_evaluate(&terms, &p);
            const int bare = __builtin_popcountll(p.color[0]) == 1 || __builtin_popcountll(p.color[1]) == 1;
            assert_int_equal(e, bare ? t : ch_nn_eval(nn, &p));
            differ += e != t;
            assert_true(e > -(VAL_PROVEN - 1) && e < VAL_PROVEN - 1);
            n++;
            ch_play(&p, mv[test_splitmix(&seed) % (uint64_t)k]);
        }
    }
    assert_true(n > 10000);
    assert_true(differ > n / 2);   /* the network, not the terms */
    /* a queen up, either side to move */
    assert_true(ch_evaluate(&pp, fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")) > 400);
    assert_true(ch_evaluate(&pp, fen("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3")) < -400);
}

/* The built-in network's evaluation updates the last position's sums by the
 * pieces that differ; a copy of its weights at another address is summed
 * from scratch. Two random games are walked side by side, evaluated in
 * turn (each evaluation a jump from the other game's position), then each
 * alone ply by ply, with a jump to the start now and then. */
static void test_cached(void **state)
{
    (void)state;
    const ch_nn_t *nn = ch_nn_builtin();
    const size_t n1 = (size_t)CH_NN_IN * (size_t)nn->h;
    int16_t *w1 = malloc(n1 * sizeof *w1);
    assert_non_null(w1);
    memcpy(w1, nn->w1, n1 * sizeof *w1);
    const ch_nn_t scratch = { nn->h, w1, nn->b1, nn->w2, nn->b2 };
    uint64_t seed = 7;
    long n = 0;
    for (int g = 0; g < 200; g++) {
        ch_pos_t p[2];
        ch_start(&p[0]);
        ch_start(&p[1]);
        const int apart = g % 2;   /* the two games evaluated in turn, or one */
        for (int ply = 0; ply < 200; ply++) {
            for (int i = 0; i < 2; i++) {
                if (!apart && i == 1) continue;
                move_t mv[256];
                const int k = ch_moves(&p[i], mv);
                if (!k || (!apart && test_splitmix(&seed) % 50 == 0)) ch_start(&p[i]);
                else ch_play(&p[i], mv[test_splitmix(&seed) % (uint64_t)k]);
                assert_int_equal(ch_nn_eval(nn, &p[i]), ch_nn_eval(&scratch, &p[i]));
                n++;
            }
        }
    }
    /* the same pieces with the other side to move, then a lone pair of kings */
    ch_pos_t q = *fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4");
    assert_int_equal(ch_nn_eval(nn, &q), ch_nn_eval(&scratch, &q));
    q.side ^= 1;
    assert_int_equal(ch_nn_eval(nn, &q), ch_nn_eval(&scratch, &q));
    assert_int_equal(ch_nn_eval(nn, fen("8/8/3k4/8/8/4K3/8/8 w - - 0 1")), ch_nn_eval(&scratch, fen("8/8/3k4/8/8/4K3/8/8 w - - 0 1")));
    assert_true(n > 50000);
    free(w1);
}

int main(void)
{
    ch_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_cached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The chess evaluation by terms (games/chess/ch_eval.c; net 0 in its
 * parameters, as the tuner and the values= variants have it): a position and its mirror
 * (ranks flipped, colours and the side to move swapped) score the same, by
 * the terms and by the network (games/chess/ch_nn.c), over
 * positions from seeded random playouts, always strictly inside the proven
 * range; the piece values of the parameters count linearly; KQ v K scores
 * hugely for the strong side and drives the lone king to the edge; bare
 * minor pieces score near 0. With GSW_CH_EVAL_BENCH=1 it times evaluate
 * over the playout positions instead, by terms and by the network, and
 * prints the ns per call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/value.h"
#include "games/chess/ch.h"
#include "tests/test_rng.h"

/* A position from a FEN's piece placement and the side to move (no
 * castling, no en passant). */
static ch_pos_t setup(const char *placement, int side)
{
    static const char letters[] = "pnbrqk";
    ch_pos_t p;
    memset(&p, 0, sizeof p);
    int r = 7, f = 0;
    for (const char *c = placement; *c; c++) {
        if (*c == '/') {
            r--;
            f = 0;
        } else if (*c >= '1' && *c <= '8') {
            f += *c - '0';
        } else {
            int black = *c >= 'a';
            const char *at = strchr(letters, black ? *c : *c - 'A' + 'a');
            if (!at || r < 0 || f > 7) fail_msg("bad placement %s", placement);
            p.sq[r * 8 + f] = (uint8_t)ch_pc(black, (int)(at - letters) + CH_PAWN);
            f++;
        }
    }
    for (int i = 0; i < 4; i++) p.rook[i] = CH_NOSQ;
    p.ep = CH_NOSQ;
    p.side = (uint8_t)side;
    p.fullmove = 1;
    ch_refresh(&p);
    return p;
}

/* Ranks flipped, colours swapped, the other side to move. */
static ch_pos_t mirror(const ch_pos_t *p)
{
    ch_pos_t m = *p;
    for (int s = 0; s < 64; s++) {
        int pc = p->sq[s ^ 56];
        m.sq[s] = (uint8_t)(pc ? ch_pc(!ch_pc_color(pc), ch_pc_type(pc)) : 0);
    }
    for (int slot = 0; slot < 4; slot++) {
        int r = p->rook[slot ^ 2];
        m.rook[slot] = (uint8_t)(r == CH_NOSQ ? CH_NOSQ : r ^ 56);
    }
    m.ep = (uint8_t)(p->ep == CH_NOSQ ? CH_NOSQ : p->ep ^ 56);
    m.side = (uint8_t)!p->side;
    ch_refresh(&m);
    return m;
}

/* Positions from seeded random playouts: every position of n games of at
 * most 200 plies; returns how many were stored (at most max). */
static int playouts(ch_pos_t *out, int max, int games, uint64_t seed)
{
    int k = 0;
    for (int g = 0; g < games && k < max; g++) {
        ch_pos_t p;
        ch_start(&p);
        for (int ply = 0; ply < 200 && k < max; ply++) {
            out[k++] = p;
            move_t mv[256];
            int n = ch_moves(&p, mv);
            if (!n || p.halfmove >= 100 || ch_insufficient(&p)) break;
            ch_play(&p, mv[test_splitmix(&seed) % (uint64_t)n]);
        }
    }
    return k;
}

#define NPOS 40000

/* (both evaluations: by terms, and the network) */
static void test_mirror(void **state)
{
    (void)state;
    ch_params_t pp;
    ch_params_default(&pp);
    ch_pos_t *pos = malloc(NPOS * sizeof *pos);
    assert_non_null(pos);
    int n = playouts(pos, NPOS, 400, 2024);
    assert_true(n > 10000);
    for (pp.net = 0; pp.net < 2; pp.net++) {
        int nonzero = 0;
        for (int i = 0; i < n; i++) {
            int32_t e = ch_evaluate(&pp, &pos[i]);
            ch_pos_t m = mirror(&pos[i]);
            int32_t em = ch_evaluate(&pp, &m);
            if (e != em) {
                char a[128], b[128];
                ch_format_fen(&pos[i], a, sizeof a);
                ch_format_fen(&m, b, sizeof b);
                fail_msg("not symmetric: %s scores %d, its mirror %s %d", a, e, b, em);
            }
            assert_true(e > -(VAL_PROVEN - 1) && e < VAL_PROVEN - 1);
            nonzero += e != 0;
        }
        assert_true(nonzero > n / 2);
    }
    free(pos);
}

/* The evaluation as a linear model (what gsw tune --eval fits): the traced
 * call returns ch_evaluate's value, and the model with the built-in weights
 * gives White's score to within the evaluation's rounding: under 1 cp for
 * the blend, under 1 for each side's king pressure (scaled by its weight
 * / 100 in whole centipawns), under 1 for each side's king danger (whole
 * centipawns in the middlegame and the endgame). */
static void test_trace(void **state)
{
    (void)state;
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    ch_pos_t *pos = malloc(NPOS * sizeof *pos);
    assert_non_null(pos);
    int n = playouts(pos, NPOS, 400, 77);
    int linear = 0, scaled = 0, kd_on = 0;
    ch_eval_trace_t tr;
    const int16_t (*w)[2] = ch_eval_weights;
    for (int i = 0; i < n; i++) {
        int32_t e = ch_evaluate(&pp, &pos[i]);
        assert_int_equal(ch_eval_trace(&pp, &pos[i], &tr), e);
        if (!tr.linear) continue;
        linear++;
        scaled += tr.scale != 1;
        assert_true(tr.phase >= 0 && tr.phase <= CH_EVAL_PHASE_MAX);
        assert_true(tr.coef[CH_EW_TEMPO] == (pos[i].side == CH_WHITE ? 1 : -1));
        double sum = 0;
        for (int f = 0; f < CH_EW_N; f++)
            sum += tr.coef[f] * (w[f][0] * tr.phase + w[f][1] * (CH_EVAL_PHASE_MAX - tr.phase));
        for (int c = 0; c < 2; c++) {   /* the king danger, through its sum */
            double d = 0;
            for (int j = 0; j < CH_KD_N; j++) d += tr.kd[c][j] * w[CH_EW_KD + j][0];
            sum += (c ? -1 : 1) * ch_kd_blend(d, tr.phase, NULL);
            kd_on += d > 0;
        }
        double model = tr.scale * (tr.offset + sum / CH_EVAL_PHASE_MAX), white = pos[i].side == CH_WHITE ? e : -e;
        if (fabs(model - white) > 5.01) {
            char fen[128];
            ch_format_fen(&pos[i], fen, sizeof fen);
            fail_msg("%s: the model gives %.2f, the evaluation %.0f", fen, model, white);
        }
    }
    assert_true(linear > n * 9 / 10);
    assert_true(scaled > 0);
    assert_true(kd_on > 0);   /* some king in danger, so the test can see that part */
    /* every weight has a name, and they differ */
    char a[96], b[96];
    for (int f = 1; f < CH_EW_N; f++) {
        ch_eval_weight_name(f - 1, a, sizeof a);
        ch_eval_weight_name(f, b, sizeof b);
        assert_string_not_equal(a, b);
    }
    free(pos);
}

static void test_start(void **state)
{
    (void)state;
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    ch_pos_t p;
    ch_start(&p);
    int32_t e = ch_evaluate(&pp, &p);
    /* the tempo, nothing more (the phase is the middlegame's whole) */
    assert_true(ch_eval_weights[CH_EW_TEMPO][0] > 0);
    assert_int_equal(e, ch_eval_weights[CH_EW_TEMPO][0]);
}

static void test_params(void **state)
{
    (void)state;
    ch_params_t pp, q;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    assert_int_equal(pp.value[CH_PAWN], 100);
    assert_true(pp.value[CH_KNIGHT] >= 300 && pp.value[CH_BISHOP] >= 300);
    assert_true(pp.value[CH_ROOK] >= 500 && pp.value[CH_QUEEN] >= 900);
    assert_int_equal(pp.value[CH_KING], 0);

    /* White has an extra knight (Black's b8 knight is gone) */
    for (int side = 0; side < 2; side++) {
        ch_pos_t p = setup("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", side);
        int32_t e = ch_evaluate(&pp, &p);
        assert_true(side ? e < -200 : e > 200);
        for (int d = -60; d <= 120; d += 45) {
            q = pp;
            q.value[CH_KNIGHT] += d;
            assert_int_equal(ch_evaluate(&q, &p), e + (side ? -d : d));
            /* the other values change nothing: the rest is level */
            q = pp;
            q.value[CH_ROOK] += d;
            q.value[CH_PAWN] += d / 3;
            assert_int_equal(ch_evaluate(&q, &p), e);
        }
    }
    /* two pawns up in a rook ending */
    ch_pos_t p = setup("3r2k1/p4ppp/8/8/8/8/PPP2PPP/3R2K1", CH_BLACK);
    int32_t e = ch_evaluate(&pp, &p);
    q = pp;
    q.value[CH_PAWN] += 20;
    assert_int_equal(ch_evaluate(&q, &p), e - 2 * 20);
}

/* The trace of a position (one the linear model covers). */
static ch_eval_trace_t traced(const char *placement, int side)
{
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    ch_pos_t p = setup(placement, side);
    ch_eval_trace_t tr;
    ch_eval_trace(&pp, &p, &tr);
    assert_true(tr.linear);
    return tr;
}

/* The count a term gets in a position (White's minus Black's). */
static float term(const char *placement, int side, int i) { return traced(placement, side).coef[i]; }

/* The terms on pawn pushes, storms, passers' ways and a king's weak
 * squares count what they say, for each side. */
static void test_terms(void **state)
{
    (void)state;
    /* e4-e5 attacks the knight on d6; not where a pawn on f6 holds e5 */
    assert_true(term("4k3/8/3n4/8/4P3/8/8/4K3", CH_WHITE, CH_EW_PUSH_THREAT) == 1);
    assert_true(term("4k3/8/3n1p2/8/4P3/8/8/4K3", CH_WHITE, CH_EW_PUSH_THREAT) == 0);
    /* d2-d4 attacks the knight on e5 (d3, which the knight holds, only passed) */
    assert_true(term("4k3/8/8/4n3/8/8/3P4/4K3", CH_BLACK, CH_EW_PUSH_THREAT) == 1);
    /* and for Black: c7-c6 attacks the knight on d5 */
    assert_true(term("4k3/2p5/8/3N4/8/8/8/4K3", CH_WHITE, CH_EW_PUSH_THREAT) == -1);

    /* pawns on g5 and h4 against a king on g8; none against one on g6 */
    assert_true(term("6k1/8/8/6P1/7P/8/8/6K1", CH_WHITE, CH_EW_STORM) == 1);
    assert_true(term("6k1/8/8/6P1/7P/8/8/6K1", CH_WHITE, CH_EW_STORM + 1) == 1);
    assert_true(term("6k1/8/8/6P1/7P/8/8/6K1", CH_WHITE, CH_EW_STORM + 2) == 0);
    assert_true(term("8/8/6k1/6P1/7P/8/8/6K1", CH_WHITE, CH_EW_STORM + 1) == 0);
    /* Black's pawn on b3 (its sixth rank) against a king on a1 */
    assert_true(term("4k3/8/8/8/8/1p6/8/K7", CH_WHITE, CH_EW_STORM + 2) == -1);

    /* a passer on d5 (rank 5: 2 a term), its way free, its stop square d6 safe */
    assert_true(term("4k3/8/8/3P4/8/8/8/4K3", CH_WHITE, CH_EW_PASSER_FREE) == 2);
    assert_true(term("4k3/8/8/3P4/8/8/8/4K3", CH_WHITE, CH_EW_PASSER_SAFE) == 2);
    /* the king on e7 holds d6; a rook on d8 stands in its way */
    assert_true(term("8/4k3/8/3P4/8/8/8/4K3", CH_WHITE, CH_EW_PASSER_SAFE) == 0);
    assert_true(term("8/4k3/8/3P4/8/8/8/4K3", CH_WHITE, CH_EW_PASSER_FREE) == 2);
    assert_true(term("3rk3/8/8/3P4/8/8/8/4K3", CH_WHITE, CH_EW_PASSER_FREE) == 0);
    /* Black's passer on c3 (its sixth rank: 3 a term) */
    assert_true(term("4k3/8/8/8/8/2p5/8/6K1", CH_WHITE, CH_EW_PASSER_FREE) == -3);

    /* a rook on a7 attacks g7 and h7 beside the king on h8; a knight on f8
     * holds h7 */
    assert_true(term("7k/R7/8/p7/8/8/8/4K3", CH_WHITE, CH_EW_WEAK_ZONE) == 2);
    assert_true(term("5n1k/R7/8/8/8/8/8/4K3", CH_WHITE, CH_EW_WEAK_ZONE) == 1);
}

/* The terms of rooks behind passers, the king's pawns, space, minor
 * pieces' places, the king's and other threats on pawns, and trapped rooks
 * count what they say, for each side. */
static void test_terms_more(void **state)
{
    (void)state;
    /* a rook on d1 behind the passer on d5: White's, then Black's; a knight
     * on d3 between them; Black's rook on d8 behind its passer on d4 */
    assert_true(term("4k3/7p/8/3P4/8/8/8/3RK3", CH_WHITE, CH_EW_ROOK_BEHIND) == 1);
    assert_true(term("4k3/8/8/3P4/8/8/8/3rK3", CH_WHITE, CH_EW_ROOK_BEHIND_OPP) == 1);
    assert_true(term("4k3/7p/8/3P4/8/3N4/8/3RK3", CH_WHITE, CH_EW_ROOK_BEHIND) == 0);
    assert_true(term("3rk3/8/8/8/3p4/8/7P/4K3", CH_WHITE, CH_EW_ROOK_BEHIND) == -1);

    /* the king on e1 is 4 from a2, the one on e8 is 6 */
    assert_true(term("4k3/8/8/8/8/8/P7/4K3", CH_WHITE, CH_EW_KING_PAWN_DIST) == -2);
    /* g1's flank (e-h) has no pawn, and neither has e8's (c-f); b8's has a2 */
    assert_true(term("4k3/8/8/8/8/8/P7/6K1", CH_WHITE, CH_EW_PAWNLESS_FLANK) == 0);
    assert_true(term("1k6/8/8/8/8/8/P7/6K1", CH_WHITE, CH_EW_PAWNLESS_FLANK) == 1);

    /* space: d4 and e4 leave 10 squares of c2-f4, 4 of them behind the
     * pawns: 14 times one piece, over 4 */
    assert_true(term("4k3/8/8/8/3PP3/8/8/1N2K3", CH_WHITE, CH_EW_SPACE) == 3);
    assert_true(term("4k3/8/8/8/3PP3/8/8/4K3", CH_WHITE, CH_EW_SPACE) == 0);

    /* a knight on d3 behind d4; a Black bishop on e6 behind White's e5 */
    assert_true(term("4k3/8/8/8/3P4/3N4/8/4K3", CH_WHITE, CH_EW_MINOR_SHIELDED) == 1);
    assert_true(term("4k3/8/4b3/4P3/8/8/8/4K3", CH_WHITE, CH_EW_MINOR_SHIELDED) == -1);
    /* a knight on a1 is 4 from its king on e1; a bishop on b2 sees d4 and
     * e5, not through a pawn on c3 */
    assert_true(term("4k3/8/8/8/8/8/8/N3K3", CH_WHITE, CH_EW_PROTECTOR) == 4);
    assert_true(term("4k3/8/8/8/8/8/1B6/4K3", CH_WHITE, CH_EW_PROTECTOR + 1) == 3);
    assert_true(term("4k3/8/8/8/8/8/1B6/4K3", CH_WHITE, CH_EW_LONG_DIAGONAL) == 1);
    assert_true(term("4k3/8/8/8/8/2P5/1B6/4K3", CH_WHITE, CH_EW_LONG_DIAGONAL) == 0);

    /* the king on e1 attacks the pawn on e2, unless f3 defends it */
    assert_true(term("4k3/8/8/8/8/8/4p3/4K3", CH_WHITE, CH_EW_THREAT_KING) == 1);
    assert_true(term("4k3/8/8/8/8/5p2/4p3/4K3", CH_WHITE, CH_EW_THREAT_KING) == 0);
    /* the rook on a1 attacks the pawn on a7, unless the king on b8 defends it */
    assert_true(term("4k3/p7/8/8/8/8/8/R3K3", CH_WHITE, CH_EW_HANGING_PAWN) == 1);
    assert_true(term("1k6/p7/8/8/8/8/8/R3K3", CH_WHITE, CH_EW_HANGING_PAWN) == 0);
    /* a rook on d1 on the queen's d-file */
    assert_true(term("3qk3/8/8/8/8/8/8/3RK3", CH_WHITE, CH_EW_ROOK_QUEEN_FILE) == 1);

    /* h1's rook shut in by the king on f1; a1's is not (the king is not
     * between it and its corner); and Black's on h8 behind a king on f8 */
    assert_true(term("4k3/p7/8/8/8/8/6PP/5K1R", CH_WHITE, CH_EW_ROOK_TRAPPED) == 1);
    assert_true(term("4k3/p7/8/8/8/8/PP6/R4K2", CH_WHITE, CH_EW_ROOK_TRAPPED) == 0);
    assert_true(term("5k1r/6pp/8/8/8/8/P7/4K3", CH_WHITE, CH_EW_ROOK_TRAPPED) == -1);

    /* (pawns on h2 and h7 where a side has none: an ending without pawns is
     * scaled, not linear) a knight with seven own pawns: 2 above five;
     * Black's with four: -1 */
    assert_true(term("4k3/7p/8/8/8/8/PPPPPPP1/1N2K3", CH_WHITE, CH_EW_KNIGHT_PAWNS) == 2);
    assert_true(term("1n2k3/pppp4/8/8/8/8/PPPPPPP1/1N2K3", CH_WHITE, CH_EW_KNIGHT_PAWNS) == 3);
    assert_true(term("4k3/7p/8/8/8/8/PPP5/R3K3", CH_WHITE, CH_EW_ROOK_PAWNS) == -2);
    /* the knight on b3 and White both attack c1, d2, d4 and a5; the pawn on
     * e3 defends d4, so it counts for White and not for Black */
    assert_true(term("7k/7p/8/8/8/1n6/7P/R3K3", CH_WHITE, CH_EW_RESTRICTED) == 0);
    assert_true(term("7k/7p/8/8/8/1n2P3/7P/R3K3", CH_WHITE, CH_EW_RESTRICTED) == 1);
    /* the bishop on a1 could attack the queen on d8 from f6, unless e7 shuts
     * the diagonal; the knight on d4 from c6 and e6 */
    assert_true(term("3qk3/7p/8/8/8/8/7P/B3K3", CH_WHITE, CH_EW_SLIDER_ON_QUEEN) == 1);
    assert_true(term("3qk3/4p2p/8/8/8/8/7P/B3K3", CH_WHITE, CH_EW_SLIDER_ON_QUEEN) == 0);
    assert_true(term("3qk3/7p/8/8/3N4/8/7P/4K3", CH_WHITE, CH_EW_KNIGHT_ON_QUEEN) == 2);
    /* passers on d5 and e5 stand side by side; c5 and e5 do not */
    assert_true(term("4k3/7p/8/3PP3/8/8/7P/4K3", CH_WHITE, CH_EW_PASSERS_CONNECTED) == 2);
    assert_true(term("4k3/7p/8/2P1P3/8/8/7P/4K3", CH_WHITE, CH_EW_PASSERS_CONNECTED) == 0);
}

/* The threats by victim, blocked and weak unopposed pawns, and a queen out
 * of the enemy pawns' reach count what they say. */
static void test_terms_threats(void **state)
{
    (void)state;
    /* the bishop on b3 attacks the knight on d5, which attacks no piece */
    assert_true(term("4k3/7p/8/3n4/8/1B6/7P/4K3", CH_WHITE, CH_EW_BY_MINOR + CH_KNIGHT - CH_PAWN) == 1);
    assert_true(term("4k3/7p/8/3n4/8/1B6/7P/4K3", CH_WHITE, CH_EW_BY_MINOR + CH_BISHOP - CH_PAWN) == 0);
    /* the knight on c3 attacks the pawn on d5, unless e6 defends it */
    assert_true(term("4k3/8/8/3p4/8/2N5/7P/4K3", CH_WHITE, CH_EW_BY_MINOR) == 1);
    assert_true(term("4k3/8/4p3/3p4/8/2N5/7P/4K3", CH_WHITE, CH_EW_BY_MINOR) == 0);
    /* the rook on a1 attacks the bishop on a7; Black's rook on h8 the knight on h2 */
    assert_true(term("4k3/b6p/8/8/8/8/7P/R3K3", CH_WHITE, CH_EW_BY_ROOK + CH_BISHOP - CH_PAWN) == 1);
    assert_true(term("4k2r/p7/8/8/8/8/P6N/4K3", CH_WHITE, CH_EW_BY_ROOK + CH_KNIGHT - CH_PAWN) == -1);
    /* e5 stopped by e6 (White's fifth rank; Black's e6 is its third), e6 by e7 */
    assert_true(term("4k3/8/4p3/4P3/8/8/8/4K3", CH_WHITE, CH_EW_BLOCKED_PAWN) == 1);
    assert_true(term("4k3/8/4p3/4P3/8/8/8/4K3", CH_WHITE, CH_EW_BLOCKED_PAWN + 1) == 0);
    assert_true(term("4k3/4p3/4P3/8/8/8/8/4K3", CH_WHITE, CH_EW_BLOCKED_PAWN + 1) == 1);
    /* the isolated a2 with no pawn in front; against a7 it is opposed (and so is a7) */
    assert_true(term("4k3/6pp/8/8/8/8/P7/4K3", CH_WHITE, CH_EW_WEAK_UNOPPOSED) == 1);
    assert_true(term("4k3/p5pp/8/8/8/8/P7/4K3", CH_WHITE, CH_EW_WEAK_UNOPPOSED) == 0);
    /* the queen on d6, where no Black pawn can come to attack it, unless c7 can */
    assert_true(term("4k3/7p/3Q4/8/8/8/7P/4K3", CH_WHITE, CH_EW_QUEEN_INFILTRATION) == 1);
    assert_true(term("4k3/2p4p/3Q4/8/8/8/7P/4K3", CH_WHITE, CH_EW_QUEEN_INFILTRATION) == 0);
}

/* Pins, the king's flank, rooks beside the king's file, defended stop
 * squares and outposts in reach count what they say. */
static void test_terms_pins(void **state)
{
    (void)state;
    /* the knight on d2 pinned by the bishop on b4 to the king on e1; not
     * with a pawn on c3 too; Black's rook on e7 pinned by the rook on e1 */
    assert_true(term("4k3/7p/8/8/1b6/8/3N3P/4K3", CH_WHITE, CH_EW_PINNED + CH_KNIGHT - CH_PAWN) == 1);
    assert_true(term("4k3/7p/8/8/1b6/2P5/3N3P/4K3", CH_WHITE, CH_EW_PINNED + CH_KNIGHT - CH_PAWN) == 0);
    assert_true(term("4k3/4r2p/8/8/8/8/7P/4RK2", CH_WHITE, CH_EW_PINNED + CH_ROOK - CH_PAWN) == -1);
    /* the queen on d7 pinned by the rook on d1 to the king on d8 */
    assert_true(term("3k4/3q3p/8/8/8/8/7P/3RK3", CH_WHITE, CH_EW_PINNED + CH_QUEEN - CH_PAWN) == -1);
    /* the rook on g1 on a file without White pawns beside the king on h8; not with g2 */
    assert_true(term("7k/7p/8/8/8/8/P7/4K1R1", CH_WHITE, CH_EW_ROOK_KING_FILE) == 1);
    assert_true(term("7k/7p/8/8/8/8/P5P1/4K1R1", CH_WHITE, CH_EW_ROOK_KING_FILE) == 0);
    /* the passer on d5, its stop square d6 defended by the king on e6 (2 a term) */
    assert_true(term("6k1/7p/4K3/3P4/8/8/8/8", CH_WHITE, CH_EW_PASSER_DEFENDED) == 2);
    assert_true(term("6k1/7p/8/3P4/8/8/8/6K1", CH_WHITE, CH_EW_PASSER_DEFENDED) == 0);
    /* the knight on c3 a move from d5, an outpost e4 defends and no Black pawn reaches */
    assert_true(term("4k3/p7/8/8/4P3/2N5/8/4K3", CH_WHITE, CH_EW_OUTPOST_REACH) == 1);
    assert_true(term("4k3/p3p3/8/8/4P3/2N5/8/4K3", CH_WHITE, CH_EW_OUTPOST_REACH) == 0);
    /* the rook on h1 attacks h4-h7 of the king on h8's flank (f-h, ranks 4-8) */
    assert_true(term("7k/p6p/8/8/8/8/P7/K6R", CH_WHITE, CH_EW_KING_FLANK) == 4);
}

/* One feature of the king danger of attacker's attack (CH_WHITE,
 * CH_BLACK) on the other king. */
static float danger(const char *placement, int attacker, int j) { return traced(placement, CH_WHITE).kd[attacker][j]; }

/* The king danger's features count what they say, for each side, and a
 * king under several attacks at once is worth more to the attacker than
 * the attacks one by one. */
static void test_king_danger(void **state)
{
    (void)state;
    /* the knight on g5 and the queen on h5 against the king on g8: each
     * attacks f7 and h7 of the squares around it, four attacks in all */
    const char *att = "6k1/5ppp/8/6NQ/8/8/5PPP/6K1";
    assert_true(danger(att, CH_WHITE, CH_KD_ONE) == 1);
    assert_true(danger(att, CH_WHITE, CH_KD_ATTACKER + CH_KNIGHT - CH_KNIGHT) == 1);
    assert_true(danger(att, CH_WHITE, CH_KD_ATTACKER + CH_QUEEN - CH_KNIGHT) == 1);
    assert_true(danger(att, CH_WHITE, CH_KD_ATTACKER + CH_BISHOP - CH_KNIGHT) == 0);
    assert_true(danger(att, CH_WHITE, CH_KD_HITS) == 4);
    assert_true(danger(att, CH_WHITE, CH_KD_NO_QUEEN) == 0);
    assert_true(danger(att, CH_BLACK, CH_KD_NO_QUEEN) == 1);
    assert_true(danger(att, CH_BLACK, CH_KD_ATTACKER + CH_QUEEN - CH_KNIGHT) == 0);
    /* the rook on e1 could check from e8: safe; with Black's rook on a8
     * covering e8, not safe */
    assert_true(danger("6k1/5ppp/8/8/8/8/5PPP/4R1K1", CH_WHITE, CH_KD_SAFE_CHECK + CH_ROOK - CH_KNIGHT) == 1);
    assert_true(danger("6k1/5ppp/8/8/8/8/5PPP/4R1K1", CH_WHITE, CH_KD_UNSAFE_CHECK) == 0);
    assert_true(danger("r5k1/5ppp/8/8/8/8/5PPP/4R1K1", CH_WHITE, CH_KD_SAFE_CHECK + CH_ROOK - CH_KNIGHT) == 0);
    assert_true(danger("r5k1/5ppp/8/8/8/8/5PPP/4R1K1", CH_WHITE, CH_KD_UNSAFE_CHECK) == 1);
    /* Black's knight on f3 attacks g1 and h2 of the king's squares */
    assert_true(danger("6k1/5ppp/8/8/8/5n2/5PPP/6K1", CH_BLACK, CH_KD_ATTACKER + CH_KNIGHT - CH_KNIGHT) == 1);
    assert_true(danger("6k1/5ppp/8/8/8/5n2/5PPP/6K1", CH_BLACK, CH_KD_HITS) == 2);
    /* super-additive: the blend of two attacks together is more than the two apart */
    double a = ch_kd_blend(300, CH_EVAL_PHASE_MAX, NULL), b = ch_kd_blend(600, CH_EVAL_PHASE_MAX, NULL);
    assert_true(b > 2 * a);
    assert_true(ch_kd_blend(-100, CH_EVAL_PHASE_MAX, NULL) == 0);
}

static void test_kqk(void **state)
{
    (void)state;
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    ch_pos_t p = setup("8/8/8/3k4/8/8/8/4K2Q", CH_WHITE);
    int32_t centre = ch_evaluate(&pp, &p);
    assert_true(centre > 1500);
    p = setup("8/8/8/3k4/8/8/8/4K2Q", CH_BLACK);
    assert_true(ch_evaluate(&pp, &p) < -1500);
    /* the lone king on the edge, and then the kings close: better still */
    p = setup("3k4/8/8/8/8/8/8/4K2Q", CH_WHITE);
    int32_t edge = ch_evaluate(&pp, &p);
    assert_true(edge > centre);
    p = setup("3k4/8/4K3/8/8/8/8/7Q", CH_WHITE);
    assert_true(ch_evaluate(&pp, &p) > edge);
    /* and for Black, and with a rook */
    p = setup("8/8/8/3K4/8/8/8/4k2r", CH_BLACK);
    assert_true(ch_evaluate(&pp, &p) > 1200);
    p = setup("8/8/8/3K4/8/8/8/4k2r", CH_WHITE);
    assert_true(ch_evaluate(&pp, &p) < -1200);
    /* bishop and knight: the corner of the bishop's colour (a light-squared
     * bishop on f1: h1 and a8) */
    ch_pos_t right = setup("8/8/8/8/8/4N3/3K4/5B1k", CH_WHITE);
    ch_pos_t wrong = setup("8/8/8/8/8/4N3/3K4/k4B2", CH_WHITE);
    assert_true(ch_evaluate(&pp, &right) > ch_evaluate(&pp, &wrong));
    assert_true(ch_evaluate(&pp, &wrong) > 1000);
}

static void test_drawish(void **state)
{
    (void)state;
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms; the network: test_chess_nn.c) */
    static const char *const bare[] = {
        "8/8/8/3k4/8/8/8/4K1N1", "8/8/8/3k4/8/8/8/4KB2", "8/8/8/3k4/8/8/8/3NK1N1",
        "8/8/3k4/8/8/8/8/2n1K3", "8/8/3k4/8/8/5b2/8/4K3",
    };
    for (size_t i = 0; i < sizeof bare / sizeof *bare; i++)
        for (int side = 0; side < 2; side++) {
            ch_pos_t p = setup(bare[i], side);
            int32_t e = ch_evaluate(&pp, &p);
            if (e < -25 || e > 25) fail_msg("%s (side %d) scores %d", bare[i], side, e);
        }
    /* rook against bishop: somewhat better, far from a rook up */
    ch_pos_t p = setup("8/8/3kb3/8/8/8/3R4/4K3", CH_WHITE);
    int32_t e = ch_evaluate(&pp, &p);
    assert_true(e > 0 && e < 150);
    /* pawns, though, are something to play for */
    p = setup("8/8/3k4/8/8/8/3P4/4K3", CH_WHITE);
    assert_true(ch_evaluate(&pp, &p) > 50);
    p = setup("8/8/3k4/8/8/8/2PP4/4K3", CH_WHITE);
    assert_true(ch_evaluate(&pp, &p) > 150);
}

static void bench(void)
{
    ch_params_t pp;
    ch_params_default(&pp);
    ch_pos_t *pos = malloc(NPOS * sizeof *pos);
    if (!pos) return;
    int n = playouts(pos, NPOS, 400, 7);
    for (pp.net = 0; pp.net < 2; pp.net++) {   /* by terms, then the network */
        int64_t sum = 0;
        const int rounds = 50;
        double t0 = gsw_now_ms();
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < n; i++) sum += ch_evaluate(&pp, &pos[i]);
        double ns = (gsw_now_ms() - t0) * 1e6 / ((double)n * rounds);
        printf("ch_evaluate (%s): %d positions x %d rounds, %.1f ns per call (checksum %lld)\n",
               pp.net ? "network" : "terms", n, rounds, ns, (long long)sum);
    }
    free(pos);
}

int main(void)
{
    ch_init();
    if (getenv("GSW_CH_EVAL_BENCH")) {
        bench();
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirror),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_terms),
        cmocka_unit_test(test_terms_more),
        cmocka_unit_test(test_terms_threats),
        cmocka_unit_test(test_terms_pins),
        cmocka_unit_test(test_king_danger),
        cmocka_unit_test(test_kqk),
        cmocka_unit_test(test_drawish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The independent brute-force solver under the move-count rule
 * (brute_count.h), against facts known from the rules and published
 * figures: short mates at the edge of the 50-move rule, the pawn ending
 * where only one push wins in time, the longest KQK, KRK and KPK mates
 * (10, 16 and 28 moves: tests/data/README.md) and the board's symmetries,
 * the 2 kings v 1 king checkers slice (33 plies, Trice & Dodgen), the rule
 * cutting off exactly the wins longer than the plies left where nothing
 * else converts, the rules of moving in checkers, and what it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/solve/brute_count.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static brute_value_t chess(const char *fen)
{
    brute_value_t v = { 9, 9 };
    if (brute_chess(fen, &v)) fail_msg("%s: refused", fen);
    return v;
}

static brute_value_t checkers(const char *fen, int quiet)
{
    brute_value_t v = { 9, 9 };
    if (brute_checkers(fen, quiet, &v)) fail_msg("%s (quiet %d): refused", fen, quiet);
    return v;
}

#define assert_value(got, o, p)                                                                              \
    do {                                                                                                     \
        brute_value_t g_ = (got);                                                                            \
        if (g_.outcome != (o) || g_.plies != (p))                                                            \
            fail_msg("%s: (%d, %d), expected (%d, %d)", #got, g_.outcome, g_.plies, (int)(o), (int)(p));     \
    } while (0)

/* A FEN of two kings and maybe a piece (xs < 0: none). */
static void chess_fen(char *buf, size_t n, int wk, int bk, int xs, char piece, int stm, int clock)
{
    char b[64];
    memset(b, 0, sizeof b);
    b[wk] = 'K';
    b[bk] = 'k';
    if (xs >= 0) b[xs] = piece;
    size_t len = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            char c = b[r * 8 + f];
            if (!c) { empty++; continue; }
            if (empty) buf[len++] = (char)('0' + empty);
            empty = 0;
            buf[len++] = c;
        }
        if (empty) buf[len++] = (char)('0' + empty);
        if (r) buf[len++] = '/';
    }
    snprintf(buf + len, n - len, " %c - - %d 1", stm ? 'b' : 'w', clock);
}

/* The first query builds what it needs: timed. */
static void test_build_time(void **state)
{
    (void)state;
    brute_value_t v;
    double t0 = now();
    assert_int_equal(brute_chess("8/8/8/7k/5K2/8/3P4/8 w - - 0 1", &v), 0);   /* KQK, KRK, KPK */
    double t1 = now();
    assert_int_equal(brute_checkers("B:WK10:BK1,K2", 0, &v), 0);   /* every checkers position of 0-3 pieces */
    double t2 = now();
    printf("[ build ] chess KQK, KRK, KPK: %.2f s; checkers 0-3 pieces: %.2f s\n", t1 - t0, t2 - t1);
}

static void test_chess_facts(void **state)
{
    (void)state;
    /* 1. Kg6+ Kg8 2. Qa8#: in time from 97, not from 98 (no mate in 1) */
    assert_value(chess("7k/8/5K2/8/8/8/8/Q7 w - - 98 80"), 0, -1);
    assert_value(chess("7k/8/5K2/8/8/8/8/Q7 w - - 97 80"), 1, 3);
    assert_value(chess("7k/8/5K2/8/8/8/8/Q7 w - - 0 80"), 1, 3);
    /* after 1. Kg6+: Black loses in 2 from 98 (the mate lands on 100) */
    assert_value(chess("7k/8/6K1/8/8/8/8/Q7 b - - 98 80"), -1, 2);
    assert_value(chess("7k/8/6K1/8/8/8/8/Q7 b - - 99 80"), 0, -1);
    /* KPK: from 98 only d4 (a pawn move: the clock starts again) wins in
       time, a move slower than the fastest win */
    assert_value(chess("8/8/8/7k/5K2/8/3P4/8 w - - 98 60"), 1, 31);
    assert_value(chess("8/8/8/7k/5K2/8/3P4/8 w - - 0 60"), 1, 29);
    /* from 98 a king move draws, so the value is the best pawn move's at
       clock 0, one ply more: d3-d4 alone, or d2-d3 and d2-d4 */
    brute_value_t d4 = chess("8/8/8/7k/3P1K2/8/8/8 b - - 0 60"), d3 = chess("8/8/8/7k/5K2/3P4/8/8 b - - 0 60");
    assert_int_equal(d4.outcome, -1);
    assert_int_equal(d3.outcome, -1);
    assert_value(chess("8/8/8/7k/5K2/3P4/8/8 w - - 98 60"), 1, d4.plies + 1);
    assert_value(chess("8/8/8/7k/5K2/8/3P4/8 w - - 98 60"), 1, (d4.plies < d3.plies ? d4.plies : d3.plies) + 1);
    assert_true(d4.plies != d3.plies);
    /* the same with colours reversed: Black's pawn, Black to move */
    assert_value(chess("8/3p4/8/5k2/7K/8/8/8 b - - 98 60"), 1, 31);
    assert_value(chess("8/3p4/8/5k2/7K/8/8/8 b - - 0 60"), 1, 29);
    /* checkmate on the 100th ply stands; anything else there is a draw */
    assert_value(chess("7k/7Q/6K1/8/8/8/8/8 b - - 100 90"), -1, 0);
    assert_value(chess("7k/8/6K1/8/8/8/8/7Q b - - 100 90"), 0, -1);
    assert_value(chess("7k/8/6K1/8/8/8/8/7Q b - - 0 90"), -1, 2);
    /* stalemate; insufficient material; a capture of the last piece */
    assert_value(chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 0, -1);
    assert_value(chess("7k/8/5K2/8/8/8/8/B7 w - - 0 1"), 0, -1);
    assert_value(chess("7k/8/5K2/8/8/8/8/n7 b - - 0 1"), 0, -1);
    assert_value(chess("k7/8/8/8/8/8/8/7K w - - 0 1"), 0, -1);
    assert_value(chess("7k/6Q1/8/8/8/8/8/K7 b - - 0 1"), 0, -1);
    /* promotion: a queen mates at once (e8=Q#), an under-promotion draws */
    assert_value(chess("4k3/P7/4K3/8/8/8/8/8 w - - 99 1"), 1, 1);
    assert_value(chess("k7/2K1P3/8/8/8/8/8/8 w - - 99 1"), 1, 3);
}

/* The longest mates of KQK and KRK, the side to move winning (every
 * position at clock 0, legal or refused), and the board's symmetries:
 * a position's value is its mirror image's (files; ranks and the diagonal
 * too without a pawn). */
static int sym(int s, int how)
{
    int r = s >> 3, f = s & 7;
    return how == 0 ? r * 8 + 7 - f : how == 1 ? (7 - r) * 8 + f : f * 8 + r;
}

static void longest(char piece, int *win, int *loss, int *legal)
{
    static int16_t c[2][64][64][64];
    char fen[100];
    *win = *loss = -1;
    *legal = 0;
    for (int stm = 0; stm < 2; stm++)
        for (int wk = 0; wk < 64; wk++)
            for (int bk = 0; bk < 64; bk++)
                for (int xs = 0; xs < 64; xs++) {
                    c[stm][wk][bk][xs] = INT16_MAX;
                    if (wk == bk || xs == wk || xs == bk) continue;
                    chess_fen(fen, sizeof fen, wk, bk, xs, piece, stm, 0);
                    brute_value_t v;
                    if (brute_chess(fen, &v)) continue;
                    c[stm][wk][bk][xs] = (int16_t)(v.outcome * (v.plies + 1));
                    ++*legal;
                    if (v.outcome > 0 && v.plies > *win) *win = v.plies;
                    if (v.outcome < 0 && v.plies > *loss) *loss = v.plies;
                }
    int hows = piece == 'P' || piece == 'p' ? 1 : 3;
    for (int stm = 0; stm < 2; stm++)
        for (int wk = 0; wk < 64; wk++)
            for (int bk = 0; bk < 64; bk++)
                for (int xs = 0; xs < 64; xs++)
                    for (int how = 0; how < hows; how++)
                        if (c[stm][wk][bk][xs] != c[stm][sym(wk, how)][sym(bk, how)][sym(xs, how)])
                            fail_msg("%c, %s to move, kings %d %d, piece %d: %d, its mirror image (%d) %d", piece,
                                     stm ? "Black" : "White", wk, bk, xs, c[stm][wk][bk][xs], how,
                                     c[stm][sym(wk, how)][sym(bk, how)][sym(xs, how)]);
}

static void test_chess_longest(void **state)
{
    (void)state;
    int win, loss, legal;
    longest('Q', &win, &loss, &legal);
    printf("[ KQK ] %d legal positions, longest win %d, longest loss %d plies\n", legal, win, loss);
    assert_int_equal(win, 19);    /* 10 moves */
    assert_int_equal(loss, 20);   /* Black to move, mated on White's 10th move */
    longest('r', &win, &loss, &legal);   /* (Black's rook) */
    printf("[ KRK ] %d legal positions, longest win %d, longest loss %d plies\n", legal, win, loss);
    assert_int_equal(win, 31);    /* 16 moves */
    assert_int_equal(loss, 32);
    longest('P', &win, &loss, &legal);
    printf("[ KPK ] %d legal positions, longest win %d, longest loss %d plies\n", legal, win, loss);
    assert_int_equal(win, 55);    /* 28 moves */
    assert_int_equal(loss, 56);
    /* positions of the longest, as listed with the published figures
       (the kirill-kryukov.com board, "Longest Mate in kqk") */
    assert_value(chess("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"), 1, 19);
    assert_value(chess("8/8/8/8/8/2k5/1R6/K7 w - - 0 1"), 1, 31);
    assert_value(chess("8/8/8/8/8/8/1Rk5/K7 b - - 0 1"), -1, 32);
    assert_value(chess("8/8/8/1k6/8/8/K5P1/8 w - - 0 1"), 1, 55);
    assert_value(chess("8/8/8/k7/8/K7/6P1/8 b - - 0 1"), -1, 56);
}

/* Where nothing converts but the end (KRK: only Black's capture of the
 * rook, a draw), the rule keeps exactly the wins and losses that end
 * within the plies left and draws the rest. */
static void test_chess_cutoff(void **state)
{
    (void)state;
    static int16_t v0[2][64][64][64];
    char fen[100];
    int cut = 0, kept = 0;
    for (int pass = 0; pass < 4; pass++) {
        int clock = pass == 0 ? 0 : pass == 1 ? 75 : pass == 2 ? 90 : 99;
        for (int stm = 0; stm < 2; stm++)
            for (int wk = 0; wk < 64; wk++)
                for (int bk = 0; bk < 64; bk++)
                    for (int xs = 0; xs < 64; xs++) {
                        if (wk == bk || xs == wk || xs == bk) continue;
                        chess_fen(fen, sizeof fen, wk, bk, xs, 'R', stm, clock);
                        brute_value_t v;
                        if (brute_chess(fen, &v)) continue;
                        int16_t c = (int16_t)(v.outcome ? v.outcome * (v.plies + 1) : 0);
                        if (pass == 0) { v0[stm][wk][bk][xs] = c; continue; }
                        int c0 = v0[stm][wk][bk][xs], d = abs(c0) - 1;
                        int want = c0 && d <= 100 - clock ? c0 : 0;
                        if (c != want) fail_msg("%s: %d, expected %d (%d without the rule)", fen, c, want, c0);
                        cut += c0 && !c;
                        kept += c0 && c;
                    }
    }
    assert_true(cut > 1000 && kept > 1000);
}

static void test_chess_refused(void **state)
{
    (void)state;
    static const char *bad[] = {
        "8/8/8/8/8/8/8/8 w - - 0 1",                 /* no kings */
        "7k/8/5K2/8/8/8/8/QQ6 w - - 0 1",            /* four pieces */
        "7k/8/5K2/8/8/8/8/Qq6 w - - 0 1",
        "7k/8/5K2/8/8/8/8/Q7 w K - 0 1",             /* castling rights */
        "7k/8/5K2/8/8/8/8/Q7 w - e3 0 1",            /* en passant */
        "7k/8/5K2/8/8/8/8/Q7 w - - 101 1",           /* past the rule */
        "7k/8/5K2/8/8/8/8/Q7 w - -",                 /* fields missing */
        "7k/8/5K2/8/8/8/8/Q7 w - - 0 0",
        "7k/8/5K2/8/8/8/8/Q7 x - - 0 1",
        "7k/8/5K2/8/8/8/8/Q6 w - - 0 1",             /* a rank short */
        "7k/8/5K2/8/8/8/8/Q8 w - - 0 1",
        "7k/8/5K2/8/8/8/8 w - - 0 1",
        "6Kk/8/8/8/8/8/8/Q7 w - - 0 1",              /* kings touching */
        "7k/8/5K2/8/8/8/8/7Q w - - 0 1",             /* Black in check, White to move */
        "P6k/8/5K2/8/8/8/8/8 w - - 0 1",             /* a pawn on the last rank */
        "7k/8/5K2/8/8/8/8/p7 w - - 0 1",
        "7k/8/5K2/8/8/8/8/X7 w - - 0 1",
    };
    brute_value_t v;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (brute_chess(bad[i], &v) != -1) fail_msg("%s: accepted", bad[i]);
    assert_int_equal(brute_chess(NULL, &v), -1);
}

/* The 2 kings v 1 king slice: its longest win (Trice & Dodgen: 33 plies)
 * and loss (34). The rule keeps what ends in time; what does not is a draw
 * or the same result no sooner (the loser's forced capture of a king
 * offered starts the count again); with one ply left, a position whose
 * moves are captures keeps its value, any other keeps only a win or loss
 * there and then. */
static void test_checkers_slice(void **state)
{
    (void)state;
    char fen[64];
    int win = -1, loss = -1, n = 0, cut = 0, kept = 0, later = 0;
    for (int a = 1; a <= 32; a++)
        for (int b = a + 1; b <= 32; b++)
            for (int c = 1; c <= 32; c++) {
                if (c == a || c == b) continue;
                for (int colour = 0; colour < 2; colour++)
                    for (int side = 0; side < 2; side++) {
                        /* colour 0: Black has the two kings */
                        if (colour) snprintf(fen, sizeof fen, "%c:WK%d,K%d:BK%d", side ? 'W' : 'B', a, b, c);
                        else snprintf(fen, sizeof fen, "%c:WK%d:BK%d,K%d", side ? 'W' : 'B', c, a, b);
                        brute_value_t v0 = checkers(fen, 0);
                        n++;
                        int strong = side == colour;   /* the side to move has the two kings */
                        if (v0.outcome > 0 && strong && v0.plies > win) win = v0.plies;
                        if (v0.outcome < 0 && !strong && v0.plies > loss) loss = v0.plies;
                        brute_value_t v = checkers(fen, 70);
                        if (v0.outcome && v0.plies <= 10) {
                            if (v.outcome != v0.outcome || v.plies != v0.plies)
                                fail_msg("%s at 70: (%d, %d), at 0 (%d, %d)", fen, v.outcome, v.plies, v0.outcome, v0.plies);
                            kept++;
                        } else if (v.outcome && (v.outcome != v0.outcome || v.plies < v0.plies)) {
                            fail_msg("%s at 70: (%d, %d), at 0 (%d, %d)", fen, v.outcome, v.plies, v0.outcome, v0.plies);
                        } else {
                            cut += v0.outcome && !v.outcome;
                            later += v.outcome != 0;
                        }
                        static brute_ck_moves_t m;
                        unsigned char bd[32] = { 0 };
                        int capture;
                        bd[a - 1] = bd[b - 1] = colour ? BRUTE_CK_WK : BRUTE_CK_BK;
                        bd[c - 1] = colour ? BRUTE_CK_BK : BRUTE_CK_WK;
                        brute_ck_moves(bd, side, &m, &capture);
                        v = checkers(fen, 79);
                        int keep = capture || (v0.outcome > 0 && v0.plies == 1) || (v0.outcome < 0 && v0.plies == 0);
                        if (v.outcome != (keep ? v0.outcome : 0) || v.plies != (keep ? v0.plies : -1))
                            fail_msg("%s at 79: (%d, %d), at 0 (%d, %d)", fen, v.outcome, v.plies, v0.outcome, v0.plies);
                    }
            }
    printf("[ 2K v 1K ] %d positions, longest win %d, longest loss %d plies; at 70: %d kept, %d cut, %d won or lost "
           "later\n", n, win, loss, kept, cut, later);
    assert_int_equal(n, 4 * 32 * 31 * 30 / 2);
    assert_int_equal(win, 33);
    assert_int_equal(loss, 34);
    assert_true(cut > 100 && kept > 100 && later > 100);
}

static void test_checkers_facts(void **state)
{
    (void)state;
    brute_value_t v = checkers("B:WK10:BK1,K2", 0);
    assert_int_equal(v.outcome, 1);
    assert_true(v.plies > 0 && v.plies <= 33 && v.plies % 2 == 1);
    assert_value(checkers("B:WK10:BK1,K2", 80 - v.plies), 1, v.plies);
    assert_value(checkers("B:WK10:BK1,K2", 79), 0, -1);   /* no capture at hand */
    assert_value(checkers("B:WK10:BK1,K2", 80), 0, -1);
    assert_value(checkers("B:WK32:BK1", 0), 0, -1);
    assert_value(checkers("B:WK32:BK1", 40), 0, -1);
    /* a capture of the last piece on the 80th ply is in time */
    assert_value(checkers("B:WK6:BK1", 79), 1, 1);
    assert_value(checkers("B:WK6:BK1", 80), 0, -1);
    /* no move at the limit: lost */
    assert_value(checkers("W:W:BK1", 80), -1, 0);
    assert_value(checkers("B:W:BK1", 80), 0, -1);
    assert_value(checkers("B:WK32:B", 0), -1, 0);
    /* a man blocked on its last step but one, with no capture: no move */
    assert_value(checkers("B:WK31,K32:B28", 80), -1, 0);
    assert_value(checkers("B:WK31,K32:B28", 0), -1, 0);
    /* a man's move starts the count again: where the side to move has only
       a man and no capture, the clock changes nothing before 80 */
    char fen[64];
    int decisive = 0;
    for (int man = 1; man <= 28; man++)
        for (int king = 1; king <= 32; king++) {
            if (king == man) continue;
            snprintf(fen, sizeof fen, "B:WK%d:B%d", king, man);
            brute_value_t z = checkers(fen, 0);
            for (int q = 1; q <= 80; q++) {
                brute_value_t a = checkers(fen, q);
                int want_o = q < 80 ? z.outcome : z.plies == 0 ? -1 : 0, want_p = q < 80 ? z.plies : z.plies == 0 ? 0 : -1;
                if (a.outcome != want_o || a.plies != want_p)
                    fail_msg("%s at %d: (%d, %d), at 0 (%d, %d)", fen, q, a.outcome, a.plies, z.outcome, z.plies);
            }
            decisive += z.outcome != 0 && z.plies > 2;
        }
    assert_true(decisive > 50);
}

static void test_checkers_refused(void **state)
{
    (void)state;
    static const char *bad[] = {
        "B:WK10:BK1,K2,K3",   /* four pieces */
        "X:WK10:BK1",         /* side */
        "B:W1:BK10",          /* a white man on its own crowning row */
        "B:WK10:B30",         /* a black man on its own */
        "B:WK10:BK10",        /* a square twice */
        "B:WK10",             /* a list missing */
        "B:WK10:BK1:BK2",     /* a list twice */
        "B:WK33:BK1",         /* off the board */
        "B:WK10,:BK1",        /* an empty entry */
        "B:WK:BK1",
        "B:W1-5:BK10",        /* a range past three pieces */
        "",
    };
    brute_value_t v;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (brute_checkers(bad[i], 0, &v) != -1) fail_msg("%s: accepted", bad[i]);
    assert_int_equal(brute_checkers("B:WK10:BK1", 81, &v), -1);
    assert_int_equal(brute_checkers("B:WK10:BK1", -1, &v), -1);
    assert_int_equal(brute_checkers("B:WK10-11:BK1", 0, &v), 0);   /* a range */
    assert_int_equal(brute_checkers(" b : wk10 : bk1 ", 0, &v), -1);   /* (no space after the side) */
}

/* The moves from the rules: forced capture, a double jump, crowning. */
static void test_checkers_moves(void **state)
{
    (void)state;
    static brute_ck_moves_t m;
    unsigned char b[32] = { 0 };
    int capture;
    /* a black man on 1 (row 0), white men on 6 and 15: 1x10x19 */
    b[0] = BRUTE_CK_BM;
    b[5] = BRUTE_CK_WM;
    b[14] = BRUTE_CK_WM;
    brute_ck_moves(b, 0, &m, &capture);
    assert_true(capture);
    assert_int_equal(m.n, 1);
    assert_int_equal(m.out[0][18], BRUTE_CK_BM);
    assert_int_equal(m.out[0][5] | m.out[0][14] | m.out[0][0], 0);
    assert_true(m.conv[0]);
    /* men do not take backwards: a white man on 14, a black one on 18,
       23 free; each side has its two steps forward */
    memset(b, 0, sizeof b);
    b[13] = BRUTE_CK_WM;
    b[17] = BRUTE_CK_BM;
    for (int side = 0; side < 2; side++) {
        brute_ck_moves(b, side, &m, &capture);
        assert_false(capture);
        assert_int_equal(m.n, 2);
        assert_int_equal(m.out[0][side ? 8 : 21] + m.out[1][side ? 8 : 21], side ? BRUTE_CK_WM : BRUTE_CK_BM);
        assert_int_equal(m.out[0][side ? 9 : 22] + m.out[1][side ? 9 : 22], side ? BRUTE_CK_WM : BRUTE_CK_BM);
    }
    /* a man crowned by a jump stops there: 22x31, not on over 27 */
    memset(b, 0, sizeof b);
    b[21] = BRUTE_CK_BM;
    b[25] = BRUTE_CK_WM;
    b[26] = BRUTE_CK_WM;
    brute_ck_moves(b, 0, &m, &capture);
    assert_true(capture);
    assert_int_equal(m.n, 1);
    assert_int_equal(m.out[0][30], BRUTE_CK_BK);
    assert_int_equal(m.out[0][26], BRUTE_CK_WM);
    /* a king goes on jumping where a crowned man stops: 22x31x24 (over 26
       and 27), or 22x15 (over 18): no rule of the most taken */
    b[21] = BRUTE_CK_BK;
    b[17] = BRUTE_CK_WM;
    brute_ck_moves(b, 0, &m, &capture);
    assert_true(capture);
    assert_int_equal(m.n, 2);
    int two = m.out[0][23] == BRUTE_CK_BK ? 0 : 1;
    assert_int_equal(m.out[two][23], BRUTE_CK_BK);
    assert_int_equal(m.out[two][25] | m.out[two][26] | m.out[two][21], 0);
    assert_int_equal(m.out[two][17], BRUTE_CK_WM);
    assert_int_equal(m.out[!two][14], BRUTE_CK_BK);
    assert_int_equal(m.out[!two][17] | m.out[!two][21], 0);
    assert_int_equal(m.out[!two][25] + m.out[!two][26], 2 * BRUTE_CK_WM);
    /* White's man on 6 moves up to 1 or 2 and crowns; 2 is free */
    memset(b, 0, sizeof b);
    b[5] = BRUTE_CK_WM;
    brute_ck_moves(b, 1, &m, &capture);
    assert_false(capture);
    assert_int_equal(m.n, 2);
    assert_int_equal(m.out[0][0] + m.out[1][0] + m.out[0][1] + m.out[1][1], 2 * BRUTE_CK_WK);
    assert_true(m.conv[0] && m.conv[1]);
}

static int teardown(void **state)
{
    (void)state;
    brute_free();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_time),
        cmocka_unit_test(test_chess_facts),
        cmocka_unit_test(test_chess_longest),
        cmocka_unit_test(test_chess_cutoff),
        cmocka_unit_test(test_chess_refused),
        cmocka_unit_test(test_checkers_facts),
        cmocka_unit_test(test_checkers_slice),
        cmocka_unit_test(test_checkers_refused),
        cmocka_unit_test(test_checkers_moves),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}

/* Chess rules: perft against the published counts (chessprogramming
 * wiki; Chess960 positions against Stockfish's counts), each rule's corner
 * cases, FEN, SAN and UCI notation, and the plugin's end-of-game rules.
 * GSW_CH_PERFT=deep adds the counts above ten million leaves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"
#include "games/chess/ch.h"

/* ch_captures lists exactly the captures and promotions among the n moves. */
static void check_captures(const ch_pos_t *p, const move_t *mv, int n)
{
    move_t c[GSW_MAX_MOVES];
    int nc = ch_captures(p, c), want = 0;
    for (int i = 0; i < n; i++) want += ch_captured(p, mv[i]) != 0 || ch_kind(mv[i]) == CH_PROMO;
    assert_int_equal(nc, want);
    for (int i = 0; i < nc; i++) {
        int found = 0;
        for (int j = 0; j < n && !found; j++) found = mv[j] == c[i];
        assert_true(found && (ch_captured(p, c[i]) != 0 || ch_kind(c[i]) == CH_PROMO));
    }
}

static uint64_t perft(const ch_pos_t *p, int d)
{
    if (d == 1) return (uint64_t)ch_count(p);
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    assert_int_equal(n, ch_count(p));
    assert_int_equal(ch_has_move(p), n > 0);
    check_captures(p, mv, n);
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        ch_pos_t q = *p;
        ch_play(&q, mv[i]);
        t += perft(&q, d - 1);
    }
    return t;
}

static ch_pos_t fen(const char *text)
{
    ch_pos_t p;
    err_t err;
    int rc = ch_parse_fen(text, &p, &err);
    if (rc) print_error("%s\n", err.msg);
    assert_int_equal(rc, GSW_OK);
    return p;
}

typedef struct { const char *fen; uint64_t n[7]; } perft_row_t;
/* published counts (../tests/data/README.md: chess) */
static const perft_row_t rows[] = {
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", { 0, 20, 400, 8902, 197281, 4865609, 119060324 } },
    { "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", { 0, 48, 2039, 97862, 4085603, 193690690, 0 } },
    { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", { 0, 14, 191, 2812, 43238, 674624, 11030083 } },
    { "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", { 0, 44, 1486, 62379, 2103487, 89941194, 0 } },
    /* Chess960 (Shredder-FEN castling), counts from Stockfish 15.1's go perft */
    { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", { 0, 21, 528, 12189, 326672, 0, 0 } },
    { "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", { 0, 21, 807, 18002, 667366, 0, 0 } },
    { "qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKRNNB w EBeb - 0 1", { 0, 0, 0, 0, 194390, 0, 0 } },
    { "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1", { 0, 0, 0, 0, 365226, 0, 0 } },
};

static void test_perft(void **state)
{
    (void)state;
    const char *env = getenv("GSW_CH_PERFT");
    uint64_t cap = env && !strcmp(env, "deep") ? UINT64_MAX : 10000000;   /* leaves per count */
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        ch_pos_t p = fen(rows[r].fen);
        for (int d = 1; d <= 6; d++) {
            if (!rows[r].n[d] || rows[r].n[d] > cap) continue;
            uint64_t got = perft(&p, d);
            if (got != rows[r].n[d]) print_error("%s depth %d: %llu, expected %llu\n", rows[r].fen, d,
                                                 (unsigned long long)got, (unsigned long long)rows[r].n[d]);
            assert_true(got == rows[r].n[d]);
        }
    }
}

static int has_move(const ch_pos_t *p, const char *uci)
{
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    for (int i = 0; i < n; i++) {
        char t[8];
        ch_format_uci(p, mv[i], t, sizeof t);
        if (!strcmp(t, uci)) return 1;
    }
    return 0;
}

static void test_castling(void **state)
{
    (void)state;
    /* through check: a rook on f2 sees f1, so no O-O; O-O-O is fine */
    ch_pos_t p = fen("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    assert_false(has_move(&p, "e1g1"));
    assert_true(has_move(&p, "e1c1"));
    /* out of check: none */
    p = fen("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert_false(has_move(&p, "e1g1"));
    assert_false(has_move(&p, "e1c1"));
    /* into check: g1 attacked; b1 attacked does not stop O-O-O (the king does not pass it) */
    p = fen("4k3/8/8/8/8/8/1r4r1/R3K2R w KQ - 0 1");
    assert_false(has_move(&p, "e1g1"));
    p = fen("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    assert_true(has_move(&p, "e1c1"));
    /* a piece between king and rook blocks */
    p = fen("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_false(has_move(&p, "e1c1"));
    assert_true(has_move(&p, "e1g1"));
    /* moving the rook loses that right, capturing it too */
    ch_pos_t q = p;
    move_t m;
    err_t err;
    assert_int_equal(ch_parse_move(&q, "Rh2", &m, &err), GSW_OK);
    ch_play(&q, m);
    char f[128];
    ch_format_fen(&q, f, sizeof f);
    assert_string_equal(f, "4k3/8/8/8/8/8/7R/RN2K3 b Q - 1 1");
    /* Chess960: king-to-rook in UCI, O-O in SAN; the king already on g1 */
    p = fen("1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1");
    assert_int_equal(ch_parse_move(&p, "O-O", &m, &err), GSW_OK);
    char t[8];
    ch_format_uci(&p, m, t, sizeof t);
    assert_string_equal(t, "e1g1");   /* the rook's square happens to be g1 */
    ch_play(&p, m);
    assert_int_equal(p.sq[6], ch_pc(CH_WHITE, CH_KING));
    assert_int_equal(p.sq[5], ch_pc(CH_WHITE, CH_ROOK));
}

static void test_en_passant(void **state)
{
    (void)state;
    /* the capture would open the fifth rank to the rook: illegal */
    ch_pos_t p = fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
    assert_false(has_move(&p, "b5c6"));
    /* without the rook it is legal, and takes the pawn */
    p = fen("8/8/8/KPp5/8/8/8/4k3 w - c6 0 2");
    assert_true(has_move(&p, "b5c6"));
    move_t m;
    err_t err;
    assert_int_equal(ch_parse_move(&p, "bxc6", &m, &err), GSW_OK);
    assert_int_equal(ch_kind(m), CH_EP);
    ch_play(&p, m);
    assert_int_equal(p.sq[34], 0);   /* c5 emptied */
    assert_int_equal(p.sq[42], ch_pc(CH_WHITE, CH_PAWN));
    /* an ep square no pawn can use is dropped from the FEN (and the hash) */
    p = fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    assert_int_equal(p.ep, CH_NOSQ);
    ch_pos_t q = fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    assert_true(p.key == q.key);
    /* a double step next to an enemy pawn sets it */
    p = fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    assert_int_equal(ch_parse_move(&p, "e4", &m, &err), GSW_OK);
    ch_play(&p, m);
    assert_int_equal(p.ep, 20);   /* e3 */
    assert_true(has_move(&p, "d4e3"));
}

static void test_promotion(void **state)
{
    (void)state;
    ch_pos_t p = fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
    move_t m;
    err_t err;
    assert_int_equal(ch_count(&p), 8 + 1);   /* a8 and axb8, four pieces each; Ka2 (the rook holds the b-file) */
    assert_int_equal(ch_parse_move(&p, "axb8=N", &m, &err), GSW_OK);
    assert_int_equal(ch_promo(m), CH_KNIGHT);
    char s[16];
    ch_format_san(&p, m, s, sizeof s);
    assert_string_equal(s, "axb8=N");
    ch_format_uci(&p, m, s, sizeof s);
    assert_string_equal(s, "a7b8n");
    assert_int_equal(ch_parse_move(&p, "a7a8r", &m, &err), GSW_OK);
    assert_int_equal(ch_promo(m), CH_ROOK);
    ch_play(&p, m);
    assert_int_equal(p.sq[56], ch_pc(CH_WHITE, CH_ROOK));
    assert_false(ch_in_check(&p));   /* the rook on b8 shields h8 */
    p = fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
    assert_int_equal(ch_parse_move(&p, "a8", &m, &err), GSW_EINPUT);   /* which piece? */
    assert_non_null(strstr(err.msg, "promotion"));
}

static void test_end_rules(void **state)
{
    (void)state;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("chess", &v, &err), GSW_OK);
    const game_ops_t *O = v->ops;
    val_t val;
    /* mate and stalemate */
    ch_pos_t p = fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_int_equal(O->terminal(v, &p, &val), 1);
    assert_int_equal(val, val_loss(0));
    p = fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert_int_equal(O->terminal(v, &p, &val), 1);
    assert_int_equal(val, VAL_DRAW);
    /* dead positions */
    const char *dead[] = { "8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
                           "8/8/4k3/8/8/3KN3/8/8 b - - 0 1", "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1" };
    for (int i = 0; i < 4; i++) {
        p = fen(dead[i]);
        assert_int_equal(O->terminal(v, &p, &val), 1);
        assert_int_equal(val, VAL_DRAW);
    }
    const char *alive[] = { "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", "8/3b4/4k3/8/8/3KB3/8/8 w - - 0 1",
                            "8/8/4k3/8/8/3K4/3P4/8 w - - 0 1" };
    for (int i = 0; i < 3; i++) {
        p = fen(alive[i]);
        assert_int_equal(O->terminal(v, &p, &val), 0);
    }
    /* the 50-move rule: a rule of play on the line */
    char why[64];
    p = fen("8/8/4k3/8/8/3K4/3R4/8 w - - 99 80");
    const void *line[2] = { &p, &p };
    assert_int_equal(O->line_over(v, line, 1, &val, why, sizeof why), 0);
    ch_pos_t q = p;
    move_t m;
    assert_int_equal(ch_parse_move(&q, "Rd1", &m, &err), GSW_OK);
    ch_play(&q, m);
    line[1] = &q;
    assert_int_equal(O->line_over(v, line, 2, &val, why, sizeof why), 1);
    assert_string_equal(why, "50-move rule");
    /* threefold repetition: the knights out and back twice */
    ch_pos_t hist[16];
    const void *lp[16];
    ch_start(&hist[0]);
    lp[0] = &hist[0];
    const char *mv[] = { "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8" };
    for (int i = 0; i < 8; i++) {
        hist[i + 1] = hist[i];
        assert_int_equal(ch_parse_move(&hist[i + 1], mv[i], &m, &err), GSW_OK);
        ch_play(&hist[i + 1], m);
        lp[i + 1] = &hist[i + 1];
        int over = O->line_over(v, lp, i + 2, &val, why, sizeof why);
        assert_int_equal(over, i == 7);
    }
    assert_string_equal(why, "threefold repetition");
    game_close(v);
}

static void test_notation(void **state)
{
    (void)state;
    move_t m;
    err_t err;
    char s[128];
    /* FEN round trips, clocks included */
    const char *fens[] = { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3" };
    for (int i = 0; i < 4; i++) {
        ch_pos_t p = fen(fens[i]);
        ch_format_fen(&p, s, sizeof s);
        assert_string_equal(s, fens[i]);
    }
    /* X-FEN's KQkq on a Chess960 setup names the outer rooks */
    ch_pos_t p = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    assert_int_equal(p.rook[CH_WK], 7);
    assert_int_equal(p.rook[CH_WQ], 5);
    /* SAN: disambiguation by file, by rank, checks and mates */
    p = fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_int_equal(ch_parse_move(&p, "Rad1", &m, &err), GSW_OK);
    ch_format_san(&p, m, s, sizeof s);
    assert_string_equal(s, "Rad1");
    assert_int_equal(ch_parse_move(&p, "Rd1", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "ambiguous"));
    p = fen("4k3/8/8/8/R7/8/8/R3K3 w Q - 0 1");
    assert_int_equal(ch_parse_move(&p, "a1a2", &m, &err), GSW_OK);
    ch_format_san(&p, m, s, sizeof s);
    assert_string_equal(s, "R1a2");
    p = fen("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_int_equal(ch_parse_move(&p, "Ra8", &m, &err), GSW_OK);
    ch_format_san(&p, m, s, sizeof s);
    assert_string_equal(s, "Ra8#");
    assert_int_equal(ch_parse_move(&p, "0-0-0", &m, &err), GSW_OK);
    ch_format_san(&p, m, s, sizeof s);
    assert_string_equal(s, "O-O-O");
    ch_format_uci(&p, m, s, sizeof s);
    assert_string_equal(s, "e1c1");
    assert_int_equal(ch_parse_move(&p, "e1a1", &m, &err), GSW_OK);   /* king takes rook means castling too */
    assert_int_equal(ch_kind(m), CH_CASTLE);
    /* every legal move of a busy position reads back from its SAN and UCI */
    p = fen(rows[1].fen);
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(&p, mv);
    for (int i = 0; i < n; i++) {
        move_t back;
        ch_format_san(&p, mv[i], s, sizeof s);
        assert_int_equal(ch_parse_move(&p, s, &back, &err), GSW_OK);
        assert_true(back == mv[i]);
        ch_format_uci(&p, mv[i], s, sizeof s);
        assert_int_equal(ch_parse_move(&p, s, &back, &err), GSW_OK);
        assert_true(back == mv[i]);
    }
    /* illegal and malformed moves say why */
    ch_start(&p);
    assert_int_equal(ch_parse_move(&p, "e5", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "illegal"));
    assert_int_equal(ch_parse_move(&p, "Zz9", &m, &err), GSW_EINPUT);
    assert_int_equal(ch_parse_move(&p, "", &m, &err), GSW_EINPUT);
    assert_int_equal(ch_parse_move(&p, "e2e5", &m, &err), GSW_EINPUT);
}

static void test_bad_fen(void **state)
{
    (void)state;
    const char *bad[] = {
        "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",             /* 7 ranks */
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",        /* 9 squares */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",        /* X */
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",          /* no black king */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",        /* side */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",        /* no h1 rook for K */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",       /* no pawn passed e3 */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",        /* clock */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                                  /* pawn on the 8th */
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",                                  /* Black, not to move, in check */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ch_pos_t p;
        err_t err;
        int rc = ch_parse_fen(bad[i], &p, &err);
        if (rc != GSW_EINPUT) print_error("accepted: %s\n", bad[i]);
        assert_int_equal(rc, GSW_EINPUT);
        assert_true(strlen(err.msg) > 10);
    }
}

/* Random playouts: the hash made move by move equals the one made from
 * scratch, and FEN round trips keep every field. */
static void test_playouts(void **state)
{
    (void)state;
    uint64_t s = 12345;
    for (int g = 0; g < 200; g++) {
        ch_pos_t p;
        ch_start(&p);
        for (int ply = 0; ply < 200; ply++) {
            move_t mv[GSW_MAX_MOVES];
            int n = ch_moves(&p, mv);
            if (!n) break;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            ch_play(&p, mv[(s >> 33) % (unsigned)n]);
            ch_pos_t q = p;
            ch_refresh(&q);
            assert_true(q.key == p.key);
            assert_memory_equal(q.type, p.type, sizeof p.type);
            char f[128];
            ch_format_fen(&p, f, sizeof f);
            ch_pos_t r = fen(f);
            assert_true(r.key == p.key);
            assert_memory_equal(r.sq, p.sq, 64);
        }
    }
}

/* GSW_CH_FENS=N: print N positions from seeded random games, half of
 * them from random Chess960 starts, for the differential test against
 * Stockfish (tests/cli/test_chess_stockfish.sh). */
static void print_fens(int count)
{
    uint64_t s = 99;
#define RND(n) ((unsigned)((s = s * 6364136223846793005ull + 1442695040888963407ull) >> 33) % (unsigned)(n))
    for (int i = 0; i < count; i++) {
        ch_pos_t p;
        if (i % 2) {   /* a Chess960 start: bishops on both colours, the king between the rooks */
            char rank[9] = "        ";
            rank[2 * RND(4)] = 'B';
            rank[2 * RND(4) + 1] = 'B';
            const char *rest = "QNNRKR";
            for (int k = 0; k < 6; k++) {
                if (rest[k] == 'R' || rest[k] == 'K') continue;
                int free = 0, pick;
                for (int f = 0; f < 8; f++) free += rank[f] == ' ';
                pick = (int)RND(free);
                for (int f = 0; f < 8; f++)
                    if (rank[f] == ' ' && pick-- == 0) { rank[f] = rest[k]; break; }
            }
            const char *rkr = "RKR";
            for (int f = 0, k = 0; f < 8; f++)
                if (rank[f] == ' ') rank[f] = rkr[k++];
            char low[9], f960[128], r1 = 0, r2 = 0;
            for (int f = 0; f < 8; f++) {
                low[f] = (char)(rank[f] + ('a' - 'A'));
                if (rank[f] == 'R') { if (!r1) r1 = (char)('A' + f); else r2 = (char)('A' + f); }
            }
            low[8] = '\0';
            snprintf(f960, sizeof f960, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %c%c%c%c - 0 1", low, rank, r2, r1,
                     r2 + ('a' - 'A'), r1 + ('a' - 'A'));
            p = fen(f960);
        } else {
            ch_start(&p);
        }
        int plies = (int)RND(40);
        for (int k = 0; k < plies; k++) {
            move_t mv[GSW_MAX_MOVES];
            int n = ch_moves(&p, mv);
            if (!n) break;
            ch_pos_t q = p;
            ch_play(&q, mv[RND(n)]);
            if (!ch_count(&q)) break;   /* stop before a finished game */
            p = q;
        }
        char f[128];
        ch_format_fen(&p, f, sizeof f);
        printf("%s\n", f);
    }
#undef RND
}

/* ch_has_move, the terminal test's shortcut, against the count: the
 * positions where its shortcuts must not answer (the only piece that could
 * move is pinned, the pawns are blocked, only the king or an en-passant
 * capture or castling moves) and those where they must. */
static void test_has_move(void **state)
{
    (void)state;
    static const struct { const char *fen; int moves; } rows[] = {
        { "k7/1n1N4/1K6/3B4/8/8/8/8 b - - 0 1", 0 },            /* stalemate: the knight pinned */
        { "k7/1n1N4/1K6/8/8/8/8/8 b - - 0 1", 1 },              /* the same, unpinned */
        { "7k/5Q2/6KP/8/8/8/8/8 b - - 0 1", 0 },                /* stalemate */
        { "7k/5K2/6P1/7p/7P/8/8/8 b - - 0 1", 0 },              /* a blocked pawn */
        { "7k/5K2/6P1/7p/8/7P/8/8 b - - 0 1", 1 },              /* a free pawn */
        { "r6k/5Q2/6KP/8/8/8/8/8 b - - 0 1", 1 },               /* the rook */
        { "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 0 },                /* mate */
        { "8/8/8/8/k2pP3/8/8/1R2K3 b - e3 0 1", 1 },            /* en passant */
        { "7k/8/8/8/8/8/7p/r3K2R w K - 0 1", 1 },               /* in check */
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        ch_pos_t p = fen(rows[r].fen);
        int n = ch_count(&p);
        if ((n > 0) != rows[r].moves || ch_has_move(&p) != rows[r].moves)
            fail_msg("%s: %d moves, ch_has_move %d", rows[r].fen, n, ch_has_move(&p));
    }
}

/* The captures ab_tactical puts first (and searches past the frontier)
 * are those that do not lose material by static exchange: each side goes
 * on taking on the square only while that pays, the last recapture
 * included (a capture by a piece worth less than its victim always
 * counts). */
static void test_exchange(void **state)
{
    (void)state;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("chess", &v, &err), GSW_OK);
    const game_ops_t *O = v->ops;
    static const struct { const char *fen, *move; int wins; } rows[] = {
        { "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1", "Nxe5", 1 },   /* no one retakes */
        { "4k3/8/2p5/3p4/4P3/2N5/8/4K2R w - - 0 1", "exd5", 1 },                          /* cxd5 Nxd5 */
        { "4k3/8/2p5/3p4/4P3/2N5/8/4K2R w - - 0 1", "Nxd5", 0 },                          /* cxd5 exd5: -100 */
        { "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 0 },                              /* cxd5: -400 */
        { "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 1 },                                /* none */
        { "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5", 1 },                             /* Rxd5 Rxd5: +100 */
        { "3rk3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 0 },                               /* Rxd5: -400 */
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        ch_pos_t p = fen(rows[r].fen);
        move_t m, mv[GSW_MAX_MOVES];
        assert_int_equal(ch_parse_move(&p, rows[r].move, &m, &err), GSW_OK);
        int n = O->moves(v, &p, mv), nt = O->ab_tactical(v, &p, mv, n), found = 0;
        for (int i = 0; i < nt; i++) found |= mv[i] == m;
        if (found != rows[r].wins) fail_msg("%s %s: tactical %d, want %d", rows[r].fen, rows[r].move, found, rows[r].wins);
    }
    game_close(v);
}

int main(void)
{
    ch_init();
    if (getenv("GSW_CH_FENS")) {
        print_fens(atoi(getenv("GSW_CH_FENS")));
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),       cmocka_unit_test(test_castling), cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_promotion),   cmocka_unit_test(test_end_rules), cmocka_unit_test(test_notation),
        cmocka_unit_test(test_bad_fen),     cmocka_unit_test(test_playouts), cmocka_unit_test(test_has_move),
        cmocka_unit_test(test_exchange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Chess game records (PGN, games/chess/ch_pgn.c): a real game read back
 * move by move to its mate (the Opera game, Morphy 1858); comments,
 * variations, NAGs, glyphs, escape lines and move numbers skipped; a FEN
 * start (Black to move at move 30), a promotion, en passant and a Chess960
 * game; records written (the seven-tag roster, a FEN for another start,
 * numbered SAN, lines under 80 columns, the result) and read back; and
 * the malformed records and illegal moves refused with GSW_EINPUT and a
 * message naming the move. */
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
#include "tests/test_rng.h"

#define MAXM 1024

static gv_t *open_chess(void)
{
    gv_t *v;
    err_t err;
    if (game_open("chess", &v, &err)) fail_msg("chess: %s", err.msg);
    return v;
}

static int read_record(const gv_t *v, const char *text, void *start, move_t *mv, int *n, err_t *err)
{
    return v->ops->record_read(v, text, start, mv, MAXM, n, err);
}

/* The record's start as FEN and its moves in UCI, joined by spaces. */
static void game_text(const void *start, const move_t *mv, int n, char *out, size_t len)
{
    ch_pos_t p = *(const ch_pos_t *)start;
    ch_format_fen(&p, out, len);
    size_t k = strlen(out);
    for (int i = 0; i < n && k < len; i++) {
        char t[16];
        ch_format_uci(&p, mv[i], t, sizeof t);
        k += (size_t)snprintf(out + k, len - k, " %s", t);
        ch_play(&p, mv[i]);
    }
}

/* The position after the record's moves. */
static ch_pos_t game_end(const void *start, const move_t *mv, int n)
{
    ch_pos_t p = *(const ch_pos_t *)start;
    for (int i = 0; i < n; i++) ch_play(&p, mv[i]);
    return p;
}

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* ---- reading ---- */

static const char opera[] =
    "[Event \"Casual game\"]\n"
    "[Site \"Paris FRA\"]\n"
    "[Date \"1858.??.??\"]\n"
    "[Round \"?\"]\n"
    "[White \"Morphy, Paul\"]\n"
    "[Black \"Duke Karl of Brunswick and Count Isouard\"]\n"
    "[Result \"1-0\"]\n"
    "[ECO \"C41\"]\n"
    "\n"
    "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7\n"
    "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7\n"
    "14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n"
    "\n";

static const char opera_uci[] = START_FEN
    " e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 c3b5"
    " c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8";

static void test_read_opera(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    assert_string_equal(v->ops->record_ext, "pgn");
    ch_pos_t start;
    move_t mv[MAXM];
    int n;
    err_t err;
    if (read_record(v, opera, &start, mv, &n, &err)) fail_msg("%s", err.msg);
    assert_int_equal(n, 33);
    char got[4096];
    game_text(&start, mv, n, got, sizeof got);
    assert_string_equal(got, opera_uci);
    assert_int_equal(ch_kind(mv[22]), CH_CASTLE);   /* 12. O-O-O */
    ch_pos_t end = game_end(&start, mv, n);
    assert_true(ch_in_check(&end));
    assert_int_equal(ch_count(&end), 0);
    char fen[128];
    ch_format_fen(&end, fen, sizeof fen);
    assert_string_equal(fen, "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    /* and the same record through the direct entry point */
    ch_pos_t s2;
    move_t mv2[MAXM];
    int n2;
    assert_int_equal(ch_record_read(v, opera, &s2, mv2, MAXM, &n2, &err), GSW_OK);
    assert_int_equal(n2, n);
    assert_memory_equal(mv2, mv, (size_t)n * sizeof mv[0]);
    game_close(v);
}

static void test_read_lenient(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    static const struct { const char *pgn, *game; } cases[] = {
        /* comments, nested variations (with comments holding parentheses),
         * NAGs, glyphs, ; comments, % escape lines, numbers joined to moves */
        { "% an escape line\n[Event \"Test \\\"quoted\\\" \\\\ value\"]\n[Result \"*\"]\n"
          "{ a comment before the moves }\n"
          "1. e4 {best by test} e5 $1 2.Nf3!? (2. f4 exf4 (2... d5 {a (paren} 3. exd5) 3. Nf3 ; ) in a line comment\n"
          ") Nc6 ; a comment to the end of the line\n"
          "%escaped 3. Qh5\n"
          "3. Bb5 a6?! 4. Ba4 $14 Nf6 5. O-O!! Be7 $6 *\n",
          START_FEN " e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7" },
        /* "1..." numbers, check marks wrong or missing, 0-0 castling, e.p.,
         * long algebraic, no result at the end */
        { "1. e4 1... Nf6 2. e5 2... d5 3. exd6 e.p. 3... cxd6 4. Nf3+ g6 5. Bc4 Bg7 6. 0-0 0-0 7. d2d4",
          START_FEN " e2e4 g8f6 e4e5 d7d5 e5d6 c7d6 g1f3 g7g6 f1c4 f8g7 e1g1 e8g8 d2d4" },
        /* a result ends the game: the second game is not read */
        { "1. d4 d5 1/2-1/2\n\n[Event \"second\"]\n1. e4 *", START_FEN " d2d4 d7d5" },
        /* draws as some programs write them */
        { "1. d4 d5 1/2 2. c4 *", START_FEN " d2d4 d7d5" },
        { "1. d4 d5 \xC2\xBD-\xC2\xBD", START_FEN " d2d4 d7d5" },
        /* the next game's tags end a game without a result */
        { "1. c4 e5\n[Event \"next\"]\n1. e4 *", START_FEN " c2c4 e7e5" },
        /* tags only: the start, no moves */
        { "[Event \"none\"]\n[Result \"*\"]\n", START_FEN },
        /* a result only */
        { "*", START_FEN },
        /* a byte-order mark, numbers without a space, digits alone */
        { "\xEF\xBB\xBF[Event \"bom\"]\n1.e4 e5 2 Nf3 0-1", START_FEN " e2e4 e7e5 g1f3" },
        /* a FEN start with Black to move at move 30, the SetUp tag after it */
        { "[FEN \"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30\"]\n[SetUp \"1\"]\n\n30... Rd1# 0-1",
          "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30 d8d1" },
        /* promotions: =Q with mate, a promotion written without '=', an under-promotion */
        { "[SetUp \"1\"]\n[FEN \"8/P7/8/8/8/8/8/k1K5 w - - 0 1\"]\n1. a8=Q# 1-0", "8/P7/8/8/8/8/8/k1K5 w - - 0 1 a7a8q" },
        { "[FEN \"4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1\"]\n1. b8Q+ Kd7 2. Qb5+ Kc7 3. Kd2 g1=N *",
          "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1 b7b8q e8d7 b8b5 d7c7 e1d2 g2g1n" },
    };
    ch_pos_t start;
    move_t mv[MAXM];
    char got[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n;
        err_t err;
        if (read_record(v, cases[i].pgn, &start, mv, &n, &err)) fail_msg("case %zu: %s", i, err.msg);
        game_text(&start, mv, n, got, sizeof got);
        if (strcmp(got, cases[i].game)) fail_msg("case %zu: read \"%s\", expected \"%s\"", i, got, cases[i].game);
    }
    game_close(v);
}

static void test_read_chess960(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    static const char rec[] = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
                              "[FEN \"bbrknnqr/pppppppp/8/8/8/8/PPPPPPPP/BBRKNNQR w HChc - 0 1\"]\n"
                              "1. Ne3 Ne6 2. Nf3 Nf4 3. O-O-O O-O-O *\n";
    ch_pos_t start;
    move_t mv[MAXM];
    int n;
    err_t err;
    if (read_record(v, rec, &start, mv, &n, &err)) fail_msg("%s", err.msg);
    assert_true(start.chess960);
    assert_int_equal(n, 6);
    assert_int_equal(ch_kind(mv[4]), CH_CASTLE);
    assert_int_equal(ch_kind(mv[5]), CH_CASTLE);
    ch_pos_t end = game_end(&start, mv, n);
    assert_int_equal(end.king[CH_WHITE], 2);    /* c1 */
    assert_int_equal(end.king[CH_BLACK], 58);   /* c8 */
    assert_int_equal(end.sq[3], ch_pc(CH_WHITE, CH_ROOK));    /* d1 */
    assert_int_equal(end.sq[59], ch_pc(CH_BLACK, CH_ROOK));   /* d8 */
    /* written back: the Variant tag and the FEN, then the same game */
    size_t need = v->ops->record_write(v, &start, mv, n, "*", NULL, 0);
    char *buf = malloc(need + 1);
    assert_non_null(buf);
    v->ops->record_write(v, &start, mv, n, "*", buf, need + 1);
    assert_non_null(strstr(buf, "[Variant \"Chess960\"]\n"));
    assert_non_null(strstr(buf, "[FEN \""));
    assert_non_null(strstr(buf, "3. O-O-O O-O-O *\n"));
    ch_pos_t back;
    move_t mv2[MAXM];
    int n2;
    if (read_record(v, buf, &back, mv2, &n2, &err)) fail_msg("%s\n%s", err.msg, buf);
    assert_true(back.chess960);
    assert_int_equal(n2, n);
    assert_memory_equal(mv2, mv, (size_t)n * sizeof mv[0]);
    free(buf);
    game_close(v);
}

/* ---- writing ---- */

static void test_write_opera(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    ch_pos_t start;
    move_t mv[MAXM];
    int n;
    err_t err;
    if (read_record(v, opera, &start, mv, &n, &err)) fail_msg("%s", err.msg);
    char buf[2048];
    size_t need = v->ops->record_write(v, &start, mv, n, "1-0", buf, sizeof buf);
    assert_int_equal(strlen(buf), need);
    /* the seven-tag roster, in order, and no FEN for the standard start */
    static const char *const tags[] = { "[Event \"gsw game\"]\n", "[Site \"", "[Date \"", "[Round \"-\"]\n",
                                        "[White \"", "[Black \"", "[Result \"1-0\"]\n\n" };
    const char *at = buf;
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        const char *t = strstr(at, tags[i]);
        if (!t) fail_msg("no %s after the tags before it:\n%s", tags[i], buf);
        at = t + strlen(tags[i]);
    }
    assert_null(strstr(buf, "[FEN"));
    assert_null(strstr(buf, "[SetUp"));
    assert_string_equal(at, "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7\n"
                            "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7\n"
                            "14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n");
    /* no moves: the result alone; an unknown result written as "*" */
    need = v->ops->record_write(v, &start, mv, 0, "2-0", buf, sizeof buf);
    assert_int_equal(strlen(buf), need);
    assert_non_null(strstr(buf, "[Result \"*\"]\n\n*\n"));
    game_close(v);
}

static void test_write_fen_start(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    ch_pos_t start;
    move_t mv[MAXM];
    int n;
    err_t err;
    static const char rec[] = "[FEN \"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30\"]\n30... Rd1# 0-1";
    if (read_record(v, rec, &start, mv, &n, &err)) fail_msg("%s", err.msg);
    char buf[1024];
    v->ops->record_write(v, &start, mv, n, "0-1", buf, sizeof buf);
    assert_non_null(strstr(buf, "[SetUp \"1\"]\n[FEN \"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30\"]\n"));
    assert_non_null(strstr(buf, "\n\n30... Rd1# 0-1\n"));
    /* the standard start with other clocks is another start: a FEN */
    static const char rec2[] = "[FEN \"" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7" "\"]\n7. e4 c5 *";
    if (read_record(v, rec2, &start, mv, &n, &err)) fail_msg("%s", err.msg);
    v->ops->record_write(v, &start, mv, n, "*", buf, sizeof buf);
    assert_non_null(strstr(buf, "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7\"]"));
    assert_non_null(strstr(buf, "\n\n7. e4 c5 *\n"));
    game_close(v);
}

/* Random games from several starts, written and read back. */
static void test_round_trip(void **state)
{
    (void)state;
    gv_t *v = open_chess();
    static const char *const starts[] = {
        START_FEN,
        "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bbrknnqr/pppppppp/8/8/8/8/PPPPPPPP/BBRKNNQR w HChc - 0 1",
        "8/2P5/8/8/8/8/5p2/K6k b - - 0 70",
    };
    uint64_t rng = 7;
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        for (int g = 0; g < 6; g++) {
            ch_pos_t start, pos, back;
            err_t err;
            if (ch_parse_fen(starts[s], &start, &err)) fail_msg("%s: %s", starts[s], err.msg);
            pos = start;
            move_t mv[400], got[MAXM];
            int n = 0;
            while (n < 60 + g * 50) {
                move_t l[GSW_MAX_MOVES];
                int k = ch_moves(&pos, l);
                if (!k) break;
                mv[n] = l[test_splitmix(&rng) % (uint64_t)k];
                ch_play(&pos, mv[n++]);
            }
            static const char *const results[] = { "*", "1-0", "0-1", "1/2-1/2" };
            const char *result = results[g % 4];
            size_t need = v->ops->record_write(v, &start, mv, n, result, NULL, 0);
            char *buf = malloc(need + 1);
            assert_non_null(buf);
            assert_int_equal(v->ops->record_write(v, &start, mv, n, result, buf, need + 1), need);
            assert_int_equal(strlen(buf), need);
            char tag[32];
            snprintf(tag, sizeof tag, "[Result \"%s\"]", result);
            assert_non_null(strstr(buf, tag));
            assert_int_equal(strstr(buf, "[FEN \"") != NULL, s != 0);
            assert_int_equal(strstr(buf, "[SetUp \"1\"]") != NULL, s != 0);
            size_t rl = strlen(result);
            assert_true(need > rl + 1 && !strncmp(buf + need - rl - 1, result, rl) && buf[need - 1] == '\n');
            for (char *p = buf, *nl; *p; p = nl + 1) {   /* lines of at most 79 characters */
                nl = strchr(p, '\n');
                assert_non_null(nl);
                if (nl - p > 79) fail_msg("a line of %d characters:\n%s", (int)(nl - p), buf);
            }
            if (start.side == CH_BLACK && n) {
                char num[24];
                snprintf(num, sizeof num, "\n\n%d... ", start.fullmove);
                assert_non_null(strstr(buf, num));
            }
            int n2;
            if (read_record(v, buf, &back, got, &n2, &err)) fail_msg("record does not read back: %s\n%s", err.msg, buf);
            char f1[128], f2[128];
            ch_format_fen(&start, f1, sizeof f1);
            ch_format_fen(&back, f2, sizeof f2);
            assert_string_equal(f1, f2);
            assert_int_equal(n2, n);
            assert_memory_equal(got, mv, (size_t)n * sizeof mv[0]);
            /* a short buffer: cut, terminated, the same length needed */
            char small[40];
            assert_int_equal(v->ops->record_write(v, &start, mv, n, result, small, sizeof small), need);
            assert_int_equal(strlen(small), sizeof small - 1);
            assert_memory_equal(small, buf, sizeof small - 1);
            free(buf);
        }
    }
    game_close(v);
}

/* ---- errors ---- */

static void test_malformed(void **state)
{
    (void)state;
    static const struct { const char *pgn, *msg; } cases[] = {
        { "", "no game in the record" },
        { "  \n ", "no game in the record" },
        /* illegal moves: the move number and the text */
        { "1. e4 e5 2. Ke3 Nc6", "line 1, move 2. Ke3: " },
        { "1. e4 e5\n2. Nf3 Nf3", "line 2, move 2... Nf3: " },
        { "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O-O", "move 4. O-O-O: " },
        { "1. e4 a6 2. e5 f5 3. exf6 e.p.?", NULL },   /* legal: read */
        { "1. e4 d5 2. e5 f5 3. Nf3 Nc6 4. exf6", "move 4. exf6: " },   /* en passant too late */
        { "1. e4 hello", "move 1... hello: " },
        { "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7", "move 4... Ke7: " },   /* after mate */
        { "[FEN \"3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30\"]\n30... Rd7 31. Rd1", "move 31. Rd1: " },
        { "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nxd4 5. Qxd4 d6 6. Bc4 Be6 7. Bxe6 fxe6 8. O-O Qd7 9. Nc3 O-O-O "
          "10. Be3 Kb8 11. Rad1 c5 12. Qd3 Nf3",
          "move 12... Nf3: " },
        { "1. e4 e5 2. e9", "move 2. e9: " },
        { "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 b5 5. Bb3 Nf6 6. d5", "move 6. d5: " },
        /* malformed tags */
        { "[Event \"x\"\n1. e4", "line 1: tag Event has no closing ']'" },
        { "[Event x]", "line 1: tag Event has no quoted value" },
        { "[Event \"x\"]\n[White \"x]\n", "line 2: the value of tag White has no closing '\"'" },
        { "[ \"x\"]", "a tag with no name" },
        { "[FEN \"8/8/8 w - - 0 1\"]\n1. e4", "line 1: tag FEN: " },
        { "[FEN \"" START_FEN "\"]\n[FEN \"" START_FEN "\"]", "line 2: a second FEN tag" },
        { "[Variant \"Atomic\"]\n1. e4", "line 1: variant \"Atomic\" is not one gsw plays" },
        /* comments, variations, stray characters */
        { "1. e4 {never closed", "line 1: a comment '{' with no closing '}'" },
        { "1. e4\n(1. d4 d5 (1... Nf6)\n", "line 2: a variation '(' with no closing ')'" },
        { "1. e4 (1. d4 {a comment never closed", "a comment '{' with no closing '}'" },
        { "1. e4 ) e5", "line 1: unexpected ')' after move 1." },
        { "1. e4 e5 } 2. Nf3", "unexpected '}' after move 1..." },
        { ") 1. e4", "unexpected ')' before the first move" },
        { "1. e4 \"e5\"", "unexpected '\"'" },
        { "1. eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
          "line 1, move 1. eeeeeeeeeeeeeeeeeeee...: not a move" },
    };
    gv_t *v = open_chess();
    ch_pos_t start;
    move_t mv[MAXM];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n;
        err_t err;
        memset(&err, 0, sizeof err);
        int rc = read_record(v, cases[i].pgn, &start, mv, &n, &err);
        if (!cases[i].msg) {
            if (rc) fail_msg("\"%s\": %s", cases[i].pgn, err.msg);
            continue;
        }
        if (rc != GSW_EINPUT) fail_msg("\"%s\" read (%d)", cases[i].pgn, rc);
        assert_int_equal(err.code, GSW_EINPUT);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("\"%s\": message \"%s\" does not say \"%s\"", cases[i].pgn, err.msg, cases[i].msg);
        assert_non_null(strstr(err.msg, "PGN: "));
    }
    /* at most max moves */
    int n;
    err_t err;
    assert_int_equal(v->ops->record_read(v, "1. e4 e5 2. Nf3 Nc6 *", &start, mv, 3, &n, &err), GSW_EINPUT);
    assert_int_equal(err.code, GSW_EINPUT);
    assert_non_null(strstr(err.msg, "move 2... Nc6: the record has more than 3 moves"));
    assert_int_equal(v->ops->record_read(v, "1. e4 e5 2. Nf3 *", &start, mv, 3, &n, &err), GSW_OK);
    assert_int_equal(n, 3);
    game_close(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_opera),   cmocka_unit_test(test_read_lenient),
        cmocka_unit_test(test_read_chess960), cmocka_unit_test(test_write_opera),
        cmocka_unit_test(test_write_fen_start), cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

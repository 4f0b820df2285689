/* Checkers: perft from the start against the published counts
 * (tests/data/checkers/perft.txt), perft of small positions counted by
 * hand, the rules' corner cases on hand-built positions (a crowning capture
 * ends the move; a king's ring of jumps back to its square, both ways; no
 * legal move loses), the notation (FEN round trips, every bad FEN named,
 * moves in full and from-to form) and PDN game records (round trips,
 * hand-written records, malformed ones). GSW_CK_PERFT=LO-HI picks the
 * perft depths and runs perft alone (default 1-10, about 0.3 s in a Release
 * build, 3 s under sanitizers); the `release` entry runs 11-12. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/game.h"
#include "games/checkers/ck.h"

#define START_FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

static gv_t *open_ck(void)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("checkers", &v, &err), GSW_OK);
    return v;
}

static void parse_ok(const gv_t *v, const char *fen, void *pos)
{
    err_t err;
    if (game_pos_parse(v, fen, pos, &err)) fail_msg("\"%s\" does not parse: %s", fen, err.msg);
}

static uint64_t perft(const gv_t *v, const void *pos, int depth)
{
    if (depth == 0) return 1;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, v->ops->pos_size);
        v->ops->play(v, child, mv[i]);
        total += perft(v, child, depth - 1);
    }
    return total;
}

/* The legal moves of fen, formatted and joined by spaces in generation
 * order, sorted so that the comparison does not depend on it. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void moves_text(const gv_t *v, const char *fen, char *out, size_t n)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    parse_ok(v, fen, pos);
    move_t mv[GSW_MAX_MOVES];
    int k = v->ops->moves(v, pos, mv);
    static char names[GSW_MAX_MOVES][64];
    char *ptr[GSW_MAX_MOVES];
    for (int i = 0; i < k; i++) {
        v->ops->move_format(v, pos, mv[i], names[i], sizeof names[i]);
        ptr[i] = names[i];
    }
    qsort(ptr, (size_t)k, sizeof ptr[0], cmp_str);
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < k; i++) len += (size_t)snprintf(out + len, n - len, "%s%s", i ? " " : "", ptr[i]);
}

static void same_pos(const gv_t *v, const void *a, const void *b)
{
    uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
    size_t la = v->ops->pos_key(v, a, ka, NULL), lb = v->ops->pos_key(v, b, kb, NULL);
    assert_int_equal(la, lb);
    assert_memory_equal(ka, kb, la);
}

/* ---- perft ---- */

static void test_perft_start(void **state)
{
    (void)state;
    int lo = 1, hi = 10;
    const char *range = getenv("GSW_CK_PERFT");
    if (range && sscanf(range, "%d-%d", &lo, &hi) != 2) fail_msg("GSW_CK_PERFT=%s: expected LO-HI", range);
    char path[1024];
    const char *dir = getenv("GSW_TEST_DATA");
    snprintf(path, sizeof path, "%s/checkers/perft.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    gv_t *v = open_ck();
    GSW_POSBUF pos[GSW_MAX_POS], fen[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    parse_ok(v, START_FEN, fen);   /* the FEN of the start is the start */
    same_pos(v, pos, fen);
    char line[256];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        int d;
        unsigned long long want;
        if (line[0] == '#' || sscanf(line, "%d %llu", &d, &want) != 2) continue;
        if (d < lo || d > hi) continue;
        uint64_t got = perft(v, pos, d);
        if (got != want) fail_msg("perft %d: %llu, published %llu", d, (unsigned long long)got, want);
        checked++;
    }
    fclose(f);
    assert_int_equal(checked, hi - lo + 1);
    game_close(v);
}

/* Small positions whose counts are easy to check by hand. */
static void test_perft_small(void **state)
{
    (void)state;
    static const struct { const char *fen; int depth; uint64_t nodes; } cases[] = {
        { "B:W32:B28", 1, 0 },             /* the man on 28 is blocked by 32 */
        { "W:W32:B28", 1, 1 },             /* 32-27 */
        { "W:W32:B28", 2, 1 },             /* ... 28-32 */
        { "B:WK32:BK1", 1, 2 },            /* 1-5, 1-6 */
        { "B:WK32:BK1", 2, 4 },            /* each, then 32-27 or 32-28 */
        { "B:W:BK14", 1, 4 },              /* a king in the middle: four steps */
        { "B:W:BK14", 2, 0 },              /* and White has nothing */
        { "B:W25,26:B23", 1, 1 },          /* 23x30, crowned */
        { "B:W25,26:B23", 2, 2 },          /* then 25-21, 25-22 */
        { "B:W14,15,22,23:BK10", 1, 2 },   /* round the ring either way */
        { "B:W14,15,22,23:BK10", 2, 0 },   /* and White has nothing left */
        { "B:W18:B14", 1, 1 },             /* a capture is compulsory: 14x23 only */
    };
    gv_t *v = open_ck();
    GSW_POSBUF pos[GSW_MAX_POS];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_ok(v, cases[i].fen, pos);
        uint64_t got = perft(v, pos, cases[i].depth);
        if (got != cases[i].nodes)
            fail_msg("perft %d of %s: %llu, expected %llu", cases[i].depth, cases[i].fen, (unsigned long long)got,
                     (unsigned long long)cases[i].nodes);
    }
    game_close(v);
}

/* ---- the rules' corner cases ---- */

/* A man that crowns by a capture stops there, though as a king it could
 * jump on; a king in the same place goes on. Both colours. */
static void test_crowning_capture_ends(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    char got[1024];
    moves_text(v, "B:W25,26:B23", got, sizeof got);
    assert_string_equal(got, "23x30");
    moves_text(v, "B:W25,26:BK23", got, sizeof got);
    assert_string_equal(got, "23x30x21");
    moves_text(v, "W:W10:B7,8", got, sizeof got);
    assert_string_equal(got, "10x3");
    moves_text(v, "W:WK10:B7,8", got, sizeof got);
    assert_string_equal(got, "10x3x12");
    /* the man is a king after it, and it is the other side's turn */
    GSW_POSBUF pos[GSW_MAX_POS], want[GSW_MAX_POS];
    parse_ok(v, "B:W25,26:B23", pos);
    move_t m;
    err_t err;
    assert_int_equal(v->ops->move_parse(v, pos, "23x30", &m, &err), GSW_OK);
    v->ops->play(v, pos, m);
    parse_ok(v, "W:W25:BK30", want);
    same_pos(v, pos, want);
    parse_ok(v, "W:W10:B7,8", pos);
    assert_int_equal(v->ops->move_parse(v, pos, "10x3", &m, &err), GSW_OK);
    v->ops->play(v, pos, m);
    parse_ok(v, "B:WK3:B8", want);
    same_pos(v, pos, want);
    game_close(v);
}

/* A king ringed by four men jumps round them back to its own square,
 * clockwise or anticlockwise: the same pieces by two paths are two moves,
 * each taking all four; "10x10" fits both and is refused as ambiguous. */
static void test_king_ring(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    char got[1024];
    const char *fen = "B:W14,15,22,23:BK10";
    moves_text(v, fen, got, sizeof got);
    assert_string_equal(got, "10x17x26x19x10 10x19x26x17x10");
    GSW_POSBUF pos[GSW_MAX_POS], after[GSW_MAX_POS], want[GSW_MAX_POS];
    parse_ok(v, fen, pos);
    parse_ok(v, "W:W:BK10", want);
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv);
    assert_int_equal(n, 2);
    assert_true(mv[0] != mv[1]);
    for (int i = 0; i < n; i++) {
        memcpy(after, pos, v->ops->pos_size);
        v->ops->play(v, after, mv[i]);
        same_pos(v, after, want);
    }
    err_t err;
    move_t m;
    assert_int_equal(v->ops->move_parse(v, pos, "10x10", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "ambiguous move \"10x10\""));
    assert_non_null(strstr(err.msg, "give every landing square"));
    /* the full forms name one each */
    assert_int_equal(v->ops->move_parse(v, pos, "10x19x26x17x10", &m, &err), GSW_OK);
    char t[64];
    v->ops->move_format(v, pos, m, t, sizeof t);
    assert_string_equal(t, "10x19x26x17x10");
    /* a man cannot go round: it stops where the next jump would go backwards */
    moves_text(v, "B:W14,15,22,23:B10", got, sizeof got);
    assert_string_equal(got, "10x17x26 10x19x26");
    game_close(v);
}

/* No legal move loses: no pieces, or every piece blocked. */
static void test_no_move_loses(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    static const char *const lost[] = { "B:W32:B28", "W:W:B5", "B:W5:B", "W:W29,30:BK25,K26,21,22,23" };
    GSW_POSBUF pos[GSW_MAX_POS];
    for (size_t i = 0; i < sizeof lost / sizeof lost[0]; i++) {
        parse_ok(v, lost[i], pos);
        val_t val = 1;
        if (!v->ops->terminal(v, pos, &val)) fail_msg("%s: not over", lost[i]);
        assert_int_equal(val, val_loss(0));
        move_t mv[GSW_MAX_MOVES];
        assert_int_equal(v->ops->moves(v, pos, mv), 0);
    }
    val_t val;
    parse_ok(v, "W:W32:B28", pos);   /* the other side to move can */
    assert_false(v->ops->terminal(v, pos, &val));
    v->ops->pos_start(v, pos);
    assert_false(v->ops->terminal(v, pos, &val));
    game_close(v);
}

/* ---- notation ---- */

static void test_fen_round_trip(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        { START_FEN, START_FEN },
        { "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29" },
        { "W:B1,2:W31,K32", "W:W31,K32:B1,2" },
        { "w:w21-24:b1-4", "W:W21,22,23,24:B1,2,3,4" },
        { " \"B:W21 , 22:B 1,K2\". ", "B:W21,22:B1,K2" },
        { "B:W:BK14", "B:W:BK14" },
        { "W:WK1:B", "W:WK1:B" },
    };
    gv_t *v = open_ck();
    GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
    char t1[256], t2[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse_ok(v, cases[i].in, a);
        v->ops->pos_format(v, a, t1, sizeof t1);
        if (strcmp(t1, cases[i].out)) fail_msg("\"%s\" formats as \"%s\", expected \"%s\"", cases[i].in, t1, cases[i].out);
        parse_ok(v, t1, b);
        same_pos(v, a, b);
        v->ops->pos_format(v, b, t2, sizeof t2);
        assert_string_equal(t1, t2);
    }
    /* every position of a few random games formats and parses back */
    uint64_t rng = 12345;
    for (int g = 0; g < 20; g++) {
        v->ops->pos_start(v, a);
        for (int ply = 0; ply < 200; ply++) {
            move_t mv[GSW_MAX_MOVES];
            int n = v->ops->moves(v, a, mv);
            if (!n) break;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            move_t m = mv[(rng >> 33) % (uint64_t)n];
            /* every move's text parses back to it */
            char mt[64];
            move_t back;
            err_t err;
            v->ops->move_format(v, a, m, mt, sizeof mt);
            if (v->ops->move_parse(v, a, mt, &back, &err)) fail_msg("\"%s\" does not parse: %s", mt, err.msg);
            assert_int_equal(back, m);
            v->ops->play(v, a, m);
            v->ops->pos_format(v, a, t1, sizeof t1);
            parse_ok(v, t1, b);
            same_pos(v, a, b);
        }
    }
    game_close(v);
}

/* Every kind of bad FEN is refused with a message naming the problem. */
static void test_bad_fen(void **state)
{
    (void)state;
    static const struct { const char *fen, *msg; } cases[] = {
        { "B:W33:B1", "square 33 is outside 1-32" },
        { "B:W21:B0", "square 0 is outside 1-32" },
        { "B:W21,22-40:B1", "square 40 is outside 1-32" },
        { "B:W21,21:B1", "square 21 is given twice" },
        { "B:W5:B1,K5", "square 5 is given twice" },
        { "B:W21,1:B5", "a white man on 1, its own crowning row" },
        { "B:W21:B30", "a black man on 30, its own crowning row" },
        { "X:W21:B1", "unknown side to move \"X\"" },
        { "BW:W21:B1", "unknown side to move \"BW\"" },
        { "B:W21:R1", "unknown side letter 'R'" },
        { "B:W21,K:B1", "\"K\" with no square after it" },
        { "B:W21,:B1", "a comma with no square" },
        { "B:W,21:B1", "a comma with no square" },
        { "B:W21,22:B1,,2", "a comma with no square" },
        { "B:W2x:B1", "\"2x\" is not a square number" },
        { "B:W21:Bone", "\"one\" is not a square number" },
        { "B:W21:B1.5", "\"1.5\" is not a square number" },
        { "B:W21", "the black piece list is missing" },
        { "B", "no piece lists" },
        { "B:W21:W22:B1", "two white piece lists" },
        { "B:W21-19:B1", "runs backwards" },
    };
    gv_t *v = open_ck();
    GSW_POSBUF pos[GSW_MAX_POS];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err_t err;
        memset(&err, 0, sizeof err);
        int rc = game_pos_parse(v, cases[i].fen, pos, &err);
        if (rc != GSW_EINPUT) fail_msg("\"%s\" parsed (rc %d)", cases[i].fen, rc);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("\"%s\": message \"%s\" does not say \"%s\"", cases[i].fen, err.msg, cases[i].msg);
    }
    game_close(v);
}

/* Moves: both forms of a multi-jump, and illegal moves named. */
static void test_move_notation(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    GSW_POSBUF pos[GSW_MAX_POS];
    move_t m, full;
    err_t err;
    char t[64];
    /* a king's double jump: full form and from-to form give the same move */
    parse_ok(v, "B:W25,26:BK23", pos);
    assert_int_equal(v->ops->move_parse(v, pos, "23x30x21", &full, &err), GSW_OK);
    assert_int_equal(v->ops->move_parse(v, pos, "23x21", &m, &err), GSW_OK);
    assert_int_equal(m, full);
    assert_int_equal(v->ops->move_parse(v, pos, " 23 X 30 X 21 ", &m, &err), GSW_OK);
    assert_int_equal(m, full);
    assert_int_equal(v->ops->move_parse(v, pos, "23-21", &m, &err), GSW_OK);   /* '-' for a capture too */
    assert_int_equal(m, full);
    v->ops->move_format(v, pos, m, t, sizeof t);
    assert_string_equal(t, "23x30x21");
    /* the landing square alone is not the whole move */
    assert_int_equal(v->ops->move_parse(v, pos, "23x30", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "illegal move \"23x30\""));
    assert_non_null(strstr(err.msg, "23x30x21"));
    /* a capture is compulsory */
    parse_ok(v, "B:W18:B14,1", pos);
    assert_int_equal(v->ops->move_parse(v, pos, "1-5", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "a capture is compulsory (14x23)"));
    /* the start: plain moves */
    v->ops->pos_start(v, pos);
    assert_int_equal(v->ops->move_parse(v, pos, "9-13", &m, &err), GSW_OK);
    v->ops->move_format(v, pos, m, t, sizeof t);
    assert_string_equal(t, "9-13");
    assert_int_equal(v->ops->move_parse(v, pos, "09-13", &m, &err), GSW_OK);
    static const struct { const char *text, *msg; } bad[] = {
        { "9-15", "illegal move \"9-15\" (legal: 9-13 10-14" },
        { "21-17", "illegal move \"21-17\"" },
        { "9-33", "square 33 is outside 1-32" },
        { "0-4", "square 0 is outside 1-32" },
        { "9", "a move names at least two squares" },
        { "nine-13", "bad move \"nine-13\"" },
        { "9/13", "bad move \"9/13\"" },
        { "", "bad move" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (v->ops->move_parse(v, pos, bad[i].text, &m, &err) != GSW_EINPUT) fail_msg("\"%s\" parsed", bad[i].text);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("\"%s\": message \"%s\" does not say \"%s\"", bad[i].text, err.msg, bad[i].msg);
    }
    /* a game that is over */
    parse_ok(v, "B:W32:B28", pos);
    assert_int_equal(v->ops->move_parse(v, pos, "28-32", &m, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "the game is over"));
    game_close(v);
}

/* ---- PDN records ---- */

static int read_record(const gv_t *v, const char *text, void *start, move_t *mv, int *n, err_t *err)
{
    return v->ops->record_read(v, text, start, mv, 512, n, err);
}

/* The moves of a record as text, with the start's FEN first. */
static void record_text(const gv_t *v, const void *start, const move_t *mv, int n, char *out, size_t len)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    memcpy(pos, start, v->ops->pos_size);
    size_t k = 0;
    v->ops->pos_format(v, pos, out, len);
    k = strlen(out);
    for (int i = 0; i < n; i++) {
        char t[64];
        v->ops->move_format(v, pos, mv[i], t, sizeof t);
        k += (size_t)snprintf(out + k, len - k, " %s", t);
        v->ops->play(v, pos, mv[i]);
    }
}

static void test_pdn_round_trip(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    assert_string_equal(v->ops->record_ext, "pdn");
    static const char *const starts[] = { "", "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "W:W18:B14,K1" };
    uint64_t rng = 99;
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        for (int g = 0; g < 5; g++) {
            GSW_POSBUF start[GSW_MAX_POS], pos[GSW_MAX_POS], back[GSW_MAX_POS];
            parse_ok(v, starts[s], start);
            memcpy(pos, start, v->ops->pos_size);
            move_t mv[300], got[512];
            int n = 0;
            while (n < 150 + g * 30) {
                move_t l[GSW_MAX_MOVES];
                int k = v->ops->moves(v, pos, l);
                if (!k) break;
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                mv[n] = l[(rng >> 33) % (uint64_t)k];
                v->ops->play(v, pos, mv[n++]);
            }
            const char *result = g % 2 ? "1-0" : "*";
            size_t need = v->ops->record_write(v, start, mv, n, result, NULL, 0);
            char *buf = malloc(need + 1);
            assert_non_null(buf);
            assert_int_equal(v->ops->record_write(v, start, mv, n, result, buf, need + 1), need);
            assert_int_equal(strlen(buf), need);
            /* tags, the FEN only for another start, the result at the end */
            assert_non_null(strstr(buf, "[Event \""));
            assert_non_null(strstr(buf, "[Date \""));
            assert_non_null(strstr(buf, "[Black \""));
            assert_non_null(strstr(buf, "[White \""));
            char tag[32];
            snprintf(tag, sizeof tag, "[Result \"%s\"]", result);
            assert_non_null(strstr(buf, tag));
            assert_int_equal(strstr(buf, "[FEN \"") != NULL, *starts[s] != 0);
            assert_int_equal(strstr(buf, "[SetUp \"1\"]") != NULL, *starts[s] != 0);
            size_t rl = strlen(result);
            assert_true(need > rl + 1 && !strncmp(buf + need - rl - 1, result, rl));
            for (char *p = buf, *nl; *p; p = nl + 1) {   /* lines of at most 79 characters */
                nl = strchr(p, '\n');
                assert_non_null(nl);
                assert_true(nl - p <= 79);
            }
            if (*starts[s] == 'W' && n) assert_non_null(strstr(buf, "\n1... "));
            int n2;
            err_t err;
            if (read_record(v, buf, back, got, &n2, &err)) fail_msg("record does not read back: %s\n%s", err.msg, buf);
            same_pos(v, start, back);
            assert_int_equal(n2, n);
            assert_memory_equal(got, mv, (size_t)n * sizeof mv[0]);
            /* a short buffer: cut, terminated, the same length needed */
            char small[40];
            assert_int_equal(v->ops->record_write(v, start, mv, n, result, small, sizeof small), need);
            assert_int_equal(strlen(small), sizeof small - 1);
            assert_memory_equal(small, buf, sizeof small - 1);
            free(buf);
        }
    }
    game_close(v);
}

static void test_pdn_read(void **state)
{
    (void)state;
    gv_t *v = open_ck();
    static const struct { const char *pdn, *game; } cases[] = {
        /* tags, comments, NAGs, annotations, a from-to capture */
        { "[Event \"Test \\\"match\\\"\"]\n[Black \"A\"]\n[White \"B\"]\n[Result \"*\"]\n{ opening }\n"
          "1. 11-15 23-19 2. 8-11 $1 22-17! 3. 11-16? {a comment}\n24-20 4. 16x23 27x11 5. 7x16 20x11 *\n",
          START_FEN " 11-15 23-19 8-11 22-17 11-16 24-20 16x23 27x18x11 7x16 20x11" },
        /* a FEN start, White to move: 1... */
        { "[SetUp \"1\"]\n[FEN \"W:W18:B14,K1\"]\n1... 18x9 2. 1-5 *", "W:W18:BK1,14 18x9 1-5" },
        /* move numbers joined to the moves, zero-padded squares, a result, then a second game ignored */
        { "1.011-15 22-18 2.15x22 ; a line comment\n25x18 1/2-1/2\n[Event \"two\"]\n1. 9-14 *",
          START_FEN " 11-15 22-18 15x22 25x18" },
        /* variations skipped, ? and ! alone, no result at the end */
        { "1. 11-15 (1. 9-13 21-17 (1... 22-18)) 23-19 ! 2. 8-11", START_FEN " 11-15 23-19 8-11" },
        /* tags only: the start, no moves */
        { "[Event \"none\"]\n[Result \"*\"]\n", START_FEN },
        { "\xEF\xBB\xBF[Event \"bom\"] 1. 12-16 0-1", START_FEN " 12-16" },
    };
    GSW_POSBUF start[GSW_MAX_POS];
    move_t mv[512];
    char got[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n;
        err_t err;
        if (read_record(v, cases[i].pdn, start, mv, &n, &err)) fail_msg("case %zu: %s", i, err.msg);
        record_text(v, start, mv, n, got, sizeof got);
        if (strcmp(got, cases[i].game)) fail_msg("case %zu: read \"%s\", expected \"%s\"", i, got, cases[i].game);
    }
    /* at most max moves */
    int n;
    err_t err;
    assert_int_equal(v->ops->record_read(v, "1. 11-15 23-19 2. 8-11 *", start, mv, 2, &n, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "more than 2 moves"));
    game_close(v);
}

static void test_pdn_malformed(void **state)
{
    (void)state;
    static const struct { const char *pdn, *msg; } cases[] = {
        { "", "no game in the record" },
        { "  \n ", "no game in the record" },
        { "1. 11-15 {never closed", "line 1: a comment '{' with no closing '}'" },
        { "1. 11-15 (1. 9-13", "a variation '(' with no closing ')'" },
        { "[Event \"x\"\n1. 11-15", "line 1: tag Event has no closing ']'" },
        { "[Event x]", "tag Event has no quoted value" },
        { "[Event \"x]\n", "the value of tag Event has no closing '\"'" },
        { "[ \"x\"]", "a tag with no name" },
        { "[FEN \"B:W33:B1\"]\n1. 9-13", "line 1: tag FEN: FEN: square 33 is outside 1-32" },
        { "[FEN \"B:W21:B1\"]\n[FEN \"B:W21:B1\"]", "line 2: a second FEN tag" },
        { "1. 11-15 23-19\n2. 8-12 22-17", "line 2, move 2. 8-12: illegal move \"8-12\"" },
        { "1. 11-15 23-19 2. 8-11 21-17 3. 11-16 24-19", "move 3... 24-19: illegal move \"24-19\"" },
        { "1. 11-15 23-17", "move 1... 23-17: illegal move" },
        { "1. 11-15 22-18 2. 9-13", "move 2. 9-13: illegal move \"9-13\": a capture is compulsory (15x22)" },
        { "1. hello", "move 1. hello: bad move \"hello\"" },
        { "1. 11-15 23-19 2. 9-33", "move 2. 9-33: bad move \"9-33\": square 33 is outside 1-32" },
        { "[FEN \"W:W18:B14,K1\"]\n1... 18-15", "move 1... 18-15: illegal move \"18-15\": a capture is compulsory" },
        { "[FEN \"B:W14,15,22,23:BK10\"]\n1. 10x10", "move 1. 10x10: ambiguous move" },
        { "1. 11-15 ] 23-19", "line 1: unexpected ']' after move 1" },
        { "1. 11-15 23-19 ) 2. 8-11", "line 1: unexpected ')' after move 1..." },
        { "] 1. 11-15", "line 1: unexpected ']' before the first move" },
    };
    gv_t *v = open_ck();
    GSW_POSBUF start[GSW_MAX_POS];
    move_t mv[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n;
        err_t err;
        memset(&err, 0, sizeof err);
        if (read_record(v, cases[i].pdn, start, mv, &n, &err) != GSW_EINPUT) fail_msg("\"%s\" read", cases[i].pdn);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("\"%s\": message \"%s\" does not say \"%s\"", cases[i].pdn, err.msg, cases[i].msg);
    }
    game_close(v);
}

int main(void)
{
    const char *range = getenv("GSW_CK_PERFT");
    if (range) {   /* the labelled deep run: perft only */
        const struct CMUnitTest deep[] = { cmocka_unit_test(test_perft_start) };
        return cmocka_run_group_tests(deep, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_small),
        cmocka_unit_test(test_crowning_capture_ends),
        cmocka_unit_test(test_king_ring),
        cmocka_unit_test(test_no_move_loses),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_bad_fen),
        cmocka_unit_test(test_move_notation),
        cmocka_unit_test(test_pdn_round_trip),
        cmocka_unit_test(test_pdn_read),
        cmocka_unit_test(test_pdn_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

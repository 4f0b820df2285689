/* Chess tablebases built by the retrograde engine: the published longest
 * mates (FACTS.md; cited in tests/data/README.md), the legal positions counted by an
 * enumeration of this test's own (its own attack rules), short mates
 * checked against a brute-force search over the game's rules, the
 * mate prover (depth-limited df-pn) agreeing on random positions, the
 * colour-reversed lookup, what is not covered, KPKP's en-passant indices
 * (located from FEN, un-moves and moves agreeing; nothing built), and the
 * solver's door.
 * KQK and KRK in every build; GSW_EGDB_RELEASE=1 (the release-labelled
 * entry) adds KPK, KBBK and KBNK; GSW_EGDB_KQKR=1 (label slow) adds KQKR,
 * material on both sides; GSW_EGDB_FIVE=1 KBNKN; GSW_EGDB_FIVE_PAWNS=1
 * KNPKP, pawns on both sides, with en passant. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/dfpn.h"
#include "games/chess/ch.h"
#include "solve/egdb.h"
#include "solve/solver.h"
#include "tests/test_rng.h"
#include "tests/test_tmpdir.h"

static gv_t *v;
static egdb_set_t *set;

static int release(void) { return getenv("GSW_EGDB_RELEASE") && atoi(getenv("GSW_EGDB_RELEASE")); }

/* ---- this test's own rules: pieces on a board, who attacks what ---- */

/* A piece: colour (0 White, 1 Black) and letter (KQRBNP). */
typedef struct tpiece {
    int color;
    char type;
} tpiece_t;

/* 1 if a piece of `color` attacks square t on board b (b[s]: 0 empty, else
 * 'K'/'Q'/... for White, 'k'/'q'/... for Black); the pieces stand on the n
 * squares of at. */
static int t_attacks(const char *b, const int *at, int n, int color, int t)
{
    int tf = t % 8, tr = t / 8;
    for (int i = 0; i < n; i++) {
        int s = at[i];
        char c = b[s];
        if (!c || (color == 0) != (c >= 'A' && c <= 'Z')) continue;
        char u = (char)(c & ~32);
        int f = s % 8, r = s / 8, df = tf - f, dr = tr - r;
        int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
        if (s == t) continue;
        if (u == 'K' && adf <= 1 && adr <= 1) return 1;
        if (u == 'N' && ((adf == 1 && adr == 2) || (adf == 2 && adr == 1))) return 1;
        if (u == 'P' && adf == 1 && dr == (color == 0 ? 1 : -1)) return 1;
        int diag = adf == adr, line = df == 0 || dr == 0;
        if ((u == 'B' && diag) || (u == 'R' && line) || (u == 'Q' && (diag || line))) {
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0), x = f + sf, y = r + sr, clear = 1;
            for (; x != tf || y != tr; x += sf, y += sr)
                if (b[y * 8 + x]) { clear = 0; break; }
            if (clear) return 1;
        }
    }
    return 0;
}

/* Legal: kings apart, the side not to move not in check. */
static int t_legal_at(const char *b, const int *at, int n, int stm)
{
    int k[2] = { -1, -1 };
    for (int i = 0; i < n; i++)
        if (b[at[i]] == 'K') k[0] = at[i];
        else if (b[at[i]] == 'k') k[1] = at[i];
    return !t_attacks(b, at, n, stm, k[stm ^ 1]);
}

static int t_legal(const char *b, int stm)
{
    int at[64], n = 0;
    for (int s = 0; s < 64; s++)
        if (b[s]) at[n++] = s;
    return t_legal_at(b, at, n, stm);
}

/* Legal positions (either side to move) of the pieces on b. */
static uint64_t t_legal_both(const char *b, const int *at, int n)
{
    return (uint64_t)t_legal_at(b, at, n, 0) + (uint64_t)t_legal_at(b, at, n, 1);
}

/* The legal positions of the pieces on b with an en-passant right: for each
 * side to move, each pawn of the other side that can have just advanced two
 * squares (on its fourth rank, the square it passed empty) and that a pawn
 * of the side to move stands beside. The square it left may be taken: the
 * FEN parser keeps such a right, and so does the index. */
static uint64_t t_ep_rights(const char *b, const int *at, int n)
{
    uint64_t total = 0;
    for (int stm = 0; stm < 2; stm++) {
        if (!t_legal_at(b, at, n, stm)) continue;
        char theirs = stm ? 'P' : 'p', ours = stm ? 'p' : 'P';
        for (int i = 0; i < n; i++) {
            int s = at[i], f = s % 8;
            if (b[s] != theirs || s / 8 != (stm ? 3 : 4) || b[stm ? s - 8 : s + 8]) continue;
            total += (f > 0 && b[s - 1] == ours) || (f < 7 && b[s + 1] == ours);
        }
    }
    return total;
}

/* leaf over every placement of the pieces: each on a free square (pawns on
 * ranks 2-7), like pieces in increasing order. */
static uint64_t t_count(char *b, int *at, const tpiece_t *pc, int n, int k, int lo,
                        uint64_t (*leaf)(const char *, const int *, int))
{
    if (k == n) return leaf(b, at, n);
    uint64_t total = 0;
    int same = k > 0 && pc[k].color == pc[k - 1].color && pc[k].type == pc[k - 1].type;
    for (int s = same ? lo + 1 : 0; s < 64; s++) {
        if (b[s] || (pc[k].type == 'P' && (s < 8 || s >= 56))) continue;
        b[s] = pc[k].color ? (char)(pc[k].type | 32) : pc[k].type;
        at[k] = s;
        total += t_count(b, at, pc, n, k + 1, s, leaf);
        b[s] = 0;
    }
    return total;
}

/* The ending's legal positions, either side to move, with those that hold
 * an en-passant right counted once more (the index keeps them apart). */
static uint64_t count_ending(const char *name)
{
    tpiece_t pc[8];
    int n = 0, side = -1;
    for (const char *q = name; *q; q++) {
        if (*q == 'K') side++;
        pc[n].color = side;
        pc[n++].type = *q;
    }
    char b[64] = { 0 };
    int at[8] = { 0 };
    uint64_t total = t_count(b, at, pc, n, 0, -1, t_legal_both);
    int pawns[2] = { 0, 0 };
    for (int i = 0; i < n; i++) pawns[pc[i].color] += pc[i].type == 'P';
    if (pawns[0] && pawns[1]) total += t_count(b, at, pc, n, 0, -1, t_ep_rights);
    return total;
}

/* ---- building ---- */

static void build(const char *ending)
{
    uint64_t slice;
    err_t err;
    assert_int_equal(v->ops->retro->slice_parse(v, ending, &slice, &err), GSW_OK);
    egdb_build_options_t o = { .for_slice = &slice, .metric = RETRO_DTW, .threads = 2 };
    egdb_build_report_t rep;
    if (egdb_build(set, &o, &rep, &err)) fail_msg("build %s: %s", ending, err.msg);
}

static int setup(void **state)
{
    (void)state;
    err_t err;
    if (test_tmpdir_make("gsw-egdb-chess") || game_open("chess", &v, &err) || egdb_set_open(v, dir, &set, &err))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    egdb_set_close(set);
    game_close(v);
    return test_tmpdir_remove() == 0 ? 0 : -1;
}

/* FACTS.md: the longest mates, in the winner's moves; line: the longest
 * line to mate in plies, whichever side moves, where Conrady's survey of
 * Nalimov's tables gives it (tests/data/README.md; even: the loser to move,
 * which the longest loss then gives), 0 where it is not asserted. */
static const struct {
    const char *ending;
    int moves;
    int release;
    int line;
} maxima[] = {
    { "KQK", 10, 0, 0 }, { "KRK", 16, 0, 0 }, { "KPK", 28, 1, 56 }, { "KBBK", 19, 1, 0 }, { "KBNK", 33, 1, 0 },
    { "KRKP", 43, 1, 85 }, /* the longest 4-piece line */
    { "KQKR", 35, 2, 0 },  /* opt-in (GSW_EGDB_KQKR=1, label slow): the figure the tablebase literature quotes */
    { "KBNKN", 107, 3, 213 }, /* opt-in (GSW_EGDB_FIVE=1, label slow): the longest pawnless 5-piece mate */
};

/* The longest line in a stats row, and the position it starts from is
 * that far from mate in the tablebase (the winner or the loser to move). */
static int longest_line(egdb_set_t *st, const egdb_stat_t *row)
{
    int loss = row->longest_loss_plies > row->longest_win_plies;
    egdb_prober_t pr;
    err_t err;
    assert_int_equal(egdb_prober_init(&pr, st, 4, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->retro->position(v, loss ? row->longest_loss_slice : row->longest_slice,
                            loss ? row->longest_loss_index : row->longest_index, pos);
    val_t lo, hi;
    assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
    assert_int_equal(lo, loss ? val_loss(row->longest_loss_plies) : val_win(row->longest_win_plies));
    egdb_prober_free(&pr);
    return loss ? row->longest_loss_plies : row->longest_win_plies;
}

static int kqkr(void) { return getenv("GSW_EGDB_KQKR") && atoi(getenv("GSW_EGDB_KQKR")); }
static int five(void) { return getenv("GSW_EGDB_FIVE") && atoi(getenv("GSW_EGDB_FIVE")); }

static void test_longest_mates(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < sizeof maxima / sizeof maxima[0]; i++) {
        if ((maxima[i].release == 1 && !release()) || (maxima[i].release == 2 && !kqkr()) ||
            (maxima[i].release == 3 && !five()))
            continue;
        build(maxima[i].ending);
        uint64_t slice;
        err_t err;
        assert_int_equal(v->ops->retro->slice_parse(v, maxima[i].ending, &slice, &err), GSW_OK);
        int counts[RETRO_MAX_COUNTS], nc = v->ops->retro->slice_material(v, slice, counts);
        egdb_stat_t *rows;
        int n;
        assert_int_equal(egdb_stats(set, counts, nc, EGDB_TABLE_MATERIAL, &rows, &n, NULL, &err), GSW_OK);
        assert_int_equal(n, 1);
        uint64_t legal = count_ending(maxima[i].ending);
        if (rows[0].longest_win_plies != 2 * maxima[i].moves - 1 || rows[0].positions != legal)
            fail_msg("%s: longest mate %d plies, %llu positions; expected %d plies, %llu positions", maxima[i].ending,
                     rows[0].longest_win_plies, (unsigned long long)rows[0].positions, 2 * maxima[i].moves - 1,
                     (unsigned long long)legal);
        assert_int_equal(rows[0].wins + rows[0].draws + rows[0].losses, rows[0].positions);
        /* the example is a position of that length, the winner to move */
        egdb_prober_t pr;
        assert_int_equal(egdb_prober_init(&pr, set, 4, &err), GSW_OK);
        GSW_POSBUF pos[GSW_MAX_POS];
        v->ops->retro->position(v, rows[0].longest_slice, rows[0].longest_index, pos);
        val_t lo, hi;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        assert_int_equal(lo, val_win(2 * maxima[i].moves - 1));
        egdb_prober_free(&pr);
        if (maxima[i].line && longest_line(set, &rows[0]) != maxima[i].line)
            fail_msg("%s: the longest line %d plies (mate %d, loss %d); published %d", maxima[i].ending,
                     longest_line(set, &rows[0]), rows[0].longest_win_plies, rows[0].longest_loss_plies,
                     maxima[i].line);
        free(rows);
        checked++;
    }
    assert_true(checked >= 2);
    int files = 0;
    err_t err;
    assert_int_equal(egdb_verify(set, NULL, 2, NULL, NULL, NULL, &files, &err), GSW_OK);
    assert_true(files >= 4);
}

/* ---- short mates against a brute-force search over the game's rules ---- */

static int mated(const void *p)
{
    val_t t;
    return v->ops->terminal(v, p, &t) && val_is_loss(t);
}

/* The side to move mates within d plies (d odd). */
static int win_within(const void *p, int d)
{
    const game_ops_t *O = v->ops;
    val_t t;
    if (d < 1 || O->terminal(v, p, &t)) return 0;
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, p, mv);
    for (int i = 0; i < n; i++) {
        GSW_POSBUF c[GSW_MAX_POS];
        memcpy(c, p, O->pos_size);
        O->play(v, c, mv[i]);
        if (mated(c)) return 1;
        if (d < 3 || O->terminal(v, c, &t)) continue;
        move_t rv[GSW_MAX_MOVES];
        int m = O->moves(v, c, rv), all = 1;
        for (int j = 0; j < m && all; j++) {
            GSW_POSBUF g[GSW_MAX_POS];
            memcpy(g, c, O->pos_size);
            O->play(v, g, rv[j]);
            all = win_within(g, d - 2);
        }
        if (all) return 1;
    }
    return 0;
}

/* The side to move is mated within d plies (d even). */
static int lost_within(const void *p, int d)
{
    const game_ops_t *O = v->ops;
    if (mated(p)) return 1;
    val_t t;
    if (d < 2 || O->terminal(v, p, &t)) return 0;
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, p, mv);
    for (int i = 0; i < n; i++) {
        GSW_POSBUF c[GSW_MAX_POS];
        memcpy(c, p, O->pos_size);
        O->play(v, c, mv[i]);
        if (!win_within(c, d - 1)) return 0;
    }
    return 1;
}

/* A random legal position of the ending as FEN (this test's rules). */
static void random_fen(uint64_t *rng, const char *ending, char *fen, size_t n)
{
    for (;;) {
        char b[64] = { 0 };
        int side = -1, ok = 1;
        for (const char *q = ending; *q && ok; q++) {
            if (*q == 'K') side++;
            int s = (int)(test_splitmix(rng) % 64);
            if (b[s]) ok = 0;
            b[s] = side ? (char)(*q | 32) : *q;
        }
        int stm = (int)(test_splitmix(rng) & 1);
        if (!ok || !t_legal(b, stm)) continue;
        size_t k = 0;
        for (int r = 7; r >= 0; r--) {
            int empty = 0;
            for (int f = 0; f < 8; f++) {
                char c = b[r * 8 + f];
                if (!c) { empty++; continue; }
                if (empty) fen[k++] = (char)('0' + empty);
                empty = 0;
                fen[k++] = c;
            }
            if (empty) fen[k++] = (char)('0' + empty);
            if (r) fen[k++] = '/';
        }
        snprintf(fen + k, n - k, " %c - - 0 1", stm ? 'b' : 'w');
        return;
    }
}

static void test_short_mates(void **state)
{
    (void)state;
    build("KQK");
    build("KRK");
    egdb_prober_t pr;
    err_t err;
    assert_int_equal(egdb_prober_init(&pr, set, 4, &err), GSW_OK);
    uint64_t rng = 16;
    /* every position of the first `all` both ways; after that, only those
       the tablebase calls short, until enough of them were seen */
    int wins = 0, losses = 0, all = release() ? 400 : 100, want = release() ? 60 : 15;
    for (int i = 0; i < 100000 && (i < all || wins < want || losses < want); i++) {
        char fen[100];
        /* half the positions with the stronger side on Black: the mirror lookup */
        random_fen(&rng, i % 4 == 0 ? "KQK" : i % 4 == 1 ? "KRK" : i % 4 == 2 ? "KKQ" : "KKR", fen, sizeof fen);
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, fen, pos, &err), GSW_OK);
        val_t lo, hi;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        assert_int_equal(lo, hi);
        int d = val_plies(lo);
        if (i >= all && !(val_is_win(lo) && d <= 3) && !(val_is_loss(lo) && d <= 2)) continue;
        int win3 = win_within(pos, 3), lose2 = lost_within(pos, 2);
        int tb_win3 = val_is_win(lo) && d <= 3, tb_lose2 = val_is_loss(lo) && d <= 2;
        if (win3 != tb_win3 || lose2 != tb_lose2) fail_msg("%s: tablebase %d (plies %d), search win3 %d lose2 %d", fen, lo, d, win3, lose2);
        if (tb_win3) {
            assert_true(win_within(pos, d));
            if (d >= 3) assert_false(win_within(pos, d - 2));   /* the shortest */
            wins++;
        }
        if (tb_lose2) {
            assert_true(lost_within(pos, d));
            if (d >= 2) assert_false(lost_within(pos, d - 2));   /* the longest */
            losses++;
        }
    }
    egdb_prober_free(&pr);
    assert_true(wins >= want);
    assert_true(losses >= want);
}

/* The differential: the tablebase against the mate prover (depth-limited
 * df-pn over the rules) on random positions: a mate within 4 moves for
 * the side to move, or against it within 3, has the same length both
 * ways, and neither finds one the other does not. */
static void test_mate_prover(void **state)
{
    (void)state;
    build("KQK");
    build("KRK");
    egdb_prober_t pr;
    err_t err;
    assert_int_equal(egdb_prober_init(&pr, set, 4, &err), GSW_OK);
    dfpn_table_t table;
    assert_int_equal(dfpn_table_init(&table, 16, &err), GSW_OK);
    uint64_t rng = 77;
    int n = release() ? 160 : 40, wins = 0, losses = 0;
    for (int i = 0; i < n; i++) {
        char fen[100];
        random_fen(&rng, i % 4 == 0 ? "KQK" : i % 4 == 1 ? "KRK" : i % 4 == 2 ? "KKQ" : "KKR", fen, sizeof fen);
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, fen, pos, &err), GSW_OK);
        val_t lo, hi, t;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        if (v->ops->terminal(v, pos, &t)) continue;
        int d = val_plies(lo);
        dfpn_table_clear(&table);
        dfpn_options_t o = { .table = &table, .no_best = 1 };
        dfpn_result_t r;
        int win = -2, loss = -2;
        if (dfpn_shortest_win(v, pos, 1, 7, 2, &o, NULL, &win, &r, &err)) fail_msg("%s: %s", fen, err.msg);
        o.defend = 1;
        dfpn_table_clear(&table);
        if (dfpn_shortest_win(v, pos, 2, 6, 2, &o, NULL, &loss, &r, &err)) fail_msg("%s: %s", fen, err.msg);
        int tb_win = val_is_win(lo) && d <= 7 ? d : -1, tb_loss = val_is_loss(lo) && d <= 6 ? d : -1;
        if (win != tb_win || loss != tb_loss)
            fail_msg("%s: tablebase win %d loss %d plies, prover win %d loss %d", fen, tb_win, tb_loss, win, loss);
        wins += win > 0;
        losses += loss > 0;
    }
    dfpn_table_free(&table);
    egdb_prober_free(&pr);
    assert_true(wins >= 1 && losses >= 1);
}

/* Colours reversed, the same value; what is not covered, not found. */
static void test_lookup(void **state)
{
    (void)state;
    build("KRK");
    egdb_prober_t pr;
    err_t err;
    assert_int_equal(egdb_prober_init(&pr, set, 4, &err), GSW_OK);
    struct { const char *fen; int found; } cases[] = {
        { "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 1 },
        { "k7/1r6/2K5/8/8/8/8/8 b - - 0 1", 1 },        /* its colour-reversed image */
        { "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", 0 },        /* a castling right */
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1 },     /* KPKP with an ep right: not built */
        { "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1", 1 },       /* KRNK: not built (0 from probe) */
    };
    val_t first = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, cases[i].fen, pos, &err), GSW_OK);
        uint64_t slice, index;
        int flipped;
        int loc = v->ops->retro->locate(v, pos, &slice, &index, &flipped);
        if (loc != cases[i].found) fail_msg("%s: located %d", cases[i].fen, loc);
        val_t lo, hi;
        int got = egdb_probe(&pr, pos, &lo, &hi, NULL, &err);
        if (i == 0) { assert_int_equal(got, 1); first = lo; assert_int_equal(lo, val_win(31)); }
        if (i == 1) { assert_int_equal(got, 1); assert_int_equal(lo, first); assert_int_equal(flipped, 1); }
        if (i >= 2) assert_int_equal(got, 0);
    }
    egdb_prober_free(&pr);
    /* ending names */
    uint64_t a, b;
    assert_int_equal(v->ops->retro->slice_parse(v, "KKR", &a, &err), GSW_OK);
    assert_int_equal(v->ops->retro->slice_parse(v, "krk", &b, &err), GSW_OK);
    assert_true(a == b);
    char name[32];
    v->ops->retro->slice_name(v, a, name, sizeof name);
    assert_string_equal(name, "KRK");
    const char *bad[] = { "", "K", "RK", "KXK", "KQRKRN", "KPPPKP", "KRKK", "QKK" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (v->ops->retro->slice_parse(v, bad[i], &a, &err) != GSW_EINPUT) fail_msg("\"%s\" accepted", bad[i]);
}

/* 1 if (slice, index) is among the n moves of list. */
static int t_listed(const retro_move_t *list, int n, uint64_t slice, uint64_t index)
{
    for (int i = 0; i < n; i++)
        if (list[i].slice == slice && list[i].index == index) return 1;
    return 0;
}

/* Index i of an ending, legal: it is where its position is located, every
 * parent lists it among its children, and every child in the ending lists
 * it among its parents (what the retrograde engine relies on; its own
 * check would only see a difference in the values). */
static void t_kpkp_index(uint64_t slice, uint64_t i)
{
    const retro_game_t *rg = v->ops->retro;
    GSW_POSBUF pos[GSW_MAX_POS];
    rg->position(v, slice, i, pos);
    uint64_t s2, i2;
    int flipped;
    if (!rg->locate(v, pos, &s2, &i2, &flipped) || s2 != slice || i2 != i || flipped)
        fail_msg("index %llu located as %llu", (unsigned long long)i, (unsigned long long)i2);
    retro_move_t a[RETRO_MAX_MOVES], b[RETRO_MAX_MOVES];
    val_t term;
    int na = rg->parents(v, slice, i, a);
    for (int k = 0; k < na; k++) {
        assert_true(rg->legal(v, a[k].slice, a[k].index));
        int nb = rg->children(v, a[k].slice, a[k].index, b, &term);
        if (nb == 0 && term == VAL_DRAW) continue;   /* (a dead position: no mate can follow, no moves) */
        if (!t_listed(b, nb, slice, i))
            fail_msg("index %llu: parent %llu has no move to it", (unsigned long long)i,
                     (unsigned long long)a[k].index);
    }
    na = rg->children(v, slice, i, a, &term);
    for (int k = 0; k < na; k++) {
        if (a[k].slice != slice) continue;
        int nb = rg->parents(v, slice, a[k].index, b);
        if (!t_listed(b, nb, slice, i))
            fail_msg("index %llu: child %llu does not list it as a parent", (unsigned long long)i,
                     (unsigned long long)a[k].index);
    }
}

/* En passant: KPKP's positions where the side to move may take en passant
 * are indices of their own (after the 2 x 4,161,024 without the right),
 * located from FEN, and consistent both ways with the rest of the ending:
 * every one (the release entry; one in 7 otherwise) and a random sample
 * of the others. Nothing is built. */
static void test_en_passant(void **state)
{
    (void)state;
    const retro_game_t *rg = v->ops->retro;
    err_t err;
    uint64_t slice;
    assert_int_equal(rg->slice_parse(v, "KPKP", &slice, &err), GSW_OK);
    /* (1806 pairs of kings with White's on files a to d) */
    const uint64_t half = 1806 * 48 * 48, size = rg->slice_size(v, slice);
    assert_true(size == 2 * half + 2 * 8 * 1806 * 48);
    static const struct {
        const char *fen;
        int ep;   /* the right is kept (a pawn can take) */
    } cases[] = {
        { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1 },
        { "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", 1 },
        { "4k3/8/8/Pp6/8/8/8/4K3 w - b6 0 1", 1 },
        { "4k3/8/8/8/6Pp/8/8/4K3 b - g3 0 1", 1 },
        { "4k3/8/8/8/3pP3/8/4K3/8 b - e3 0 1", 1 },     /* the square it left taken: the parser keeps it */
        { "4k3/8/8/8/2p1P3/8/8/4K3 b - e3 0 1", 0 },    /* no pawn can take: the parser drops it */
        { "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", 1 },     /* taking would expose the king: kept, no capture */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        GSW_POSBUF pos[GSW_MAX_POS], back[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, cases[c].fen, pos, &err), GSW_OK);
        const ch_pos_t *p = (const ch_pos_t *)pos;
        assert_int_equal(p->ep != CH_NOSQ, cases[c].ep);
        uint64_t s2, i, i2;
        int flipped;
        assert_int_equal(rg->locate(v, pos, &s2, &i, &flipped), 1);
        if (strchr(cases[c].fen, 'R')) {   /* KRPKP, 5 pieces: the ep right kept there too */
            uint64_t krpkp;
            assert_int_equal(rg->slice_parse(v, "KRPKP", &krpkp, &err), GSW_OK);
            assert_true(s2 == krpkp && !flipped && i >= rg->slice_size(v, krpkp) - 2 * 8 * 1806 * 48 * 64);
            continue;
        }
        assert_true(s2 == slice && !flipped && i < size && (i >= 2 * half) == cases[c].ep);
        assert_true(rg->legal(v, slice, i));
        /* the index's position is this one or its mirror image (a <-> h) */
        rg->position(v, slice, i, back);
        const ch_pos_t *q = (const ch_pos_t *)back;
        int same = 1, mirrored = 1;
        for (int sq = 0; sq < 64; sq++) same &= p->sq[sq] == q->sq[sq], mirrored &= p->sq[sq] == q->sq[sq ^ 7];
        assert_true(same || mirrored);
        assert_true(q->ep == (same || p->ep == CH_NOSQ ? p->ep : p->ep ^ 7) && q->side == p->side);
        assert_int_equal(rg->locate(v, back, &s2, &i2, &flipped), 1);
        assert_true(s2 == slice && i2 == i);
        t_kpkp_index(slice, i);
    }
    uint64_t ep = 0;
    for (uint64_t i = 2 * half; i < size; i += release() ? 1 : 7)
        if (rg->legal(v, slice, i)) {
            t_kpkp_index(slice, i);
            ep++;
        }
    print_message("KPKP: %llu positions with an ep right checked\n", (unsigned long long)ep);
    assert_true(ep > 1000);
    uint64_t seed = 55;
    for (int k = 0; k < (release() ? 200000 : 20000);) {
        uint64_t i = test_splitmix(&seed) % (2 * half);
        if (!rg->legal(v, slice, i)) continue;
        t_kpkp_index(slice, i);
        k++;
    }
}

/* Square s under symmetry t: bit 0 mirrors the files, bit 1 the ranks,
 * bit 2 swaps files and ranks. */
static int t_turn(int s, int t)
{
    if (t & 1) s ^= 7;
    if (t & 2) s ^= 56;
    if (t & 4) s = (s & 7) << 3 | s >> 3;
    return s;
}

/* Symmetry folded: on random legal indices of endings with and without
 * pawns (and of five pieces), every image of the index's position under
 * the symmetries that keep the rules (eight without pawns, a <-> h with)
 * is located at that index, and the index agrees with its moves both
 * ways. So no two indices hold one position, and none is missed. Then
 * with the images weighed, the legal positions of KNNK (two like pieces, which the reflection may swap) add up to this
 * test's own count. */
static void test_symmetry(void **state)
{
    (void)state;
    const retro_game_t *rg = v->ops->retro;
    static const char *const endings[] = { "KQKR", "KRKB", "KBBK", "KPKP", "KRPKR", "KQRKN" };
    uint64_t seed = 5;
    err_t err;
    for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
        uint64_t slice, diag = 0;
        assert_int_equal(rg->slice_parse(v, endings[e], &slice, &err), GSW_OK);
        uint64_t size = rg->slice_size(v, slice);
        int pawns = strchr(endings[e], 'P') != NULL;
        for (int k = 0; k < (release() ? 4000 : 600);) {
            uint64_t i = test_splitmix(&seed) % size;
            if (!rg->legal(v, slice, i)) continue;
            k++;
            GSW_POSBUF pos[GSW_MAX_POS], img[GSW_MAX_POS];
            rg->position(v, slice, i, pos);
            const ch_pos_t *p = (const ch_pos_t *)pos;
            diag += (p->king[0] >> 3) == (p->king[0] & 7) && (p->king[1] >> 3) == (p->king[1] & 7);
            for (int t = 1; t < (pawns ? 2 : 8); t++) {
                ch_pos_t *q = (ch_pos_t *)img;
                *q = *p;
                memset(q->sq, 0, sizeof q->sq);
                for (int sq = 0; sq < 64; sq++) q->sq[t_turn(sq, t)] = p->sq[sq];
                if (p->ep != CH_NOSQ) q->ep = (uint8_t)t_turn(p->ep, t);
                ch_refresh(q);
                uint64_t s2, i2;
                int flipped;
                if (!rg->locate(v, img, &s2, &i2, &flipped) || s2 != slice || i2 != i || flipped) {
                    char f[128];
                    ch_format_fen(q, f, sizeof f);
                    fail_msg("%s index %llu: its image %d (%s) is located at %llu", endings[e], (unsigned long long)i,
                             t, f, (unsigned long long)i2);
                }
            }
            t_kpkp_index(slice, i);
        }
        if (!pawns) assert_true(diag > 0);   /* (both kings on the diagonal: its twins) */
    }
    uint64_t slice, n = 0;
    assert_int_equal(rg->slice_parse(v, "KNNK", &slice, &err), GSW_OK);
    for (uint64_t i = 0; i < rg->slice_size(v, slice); i++) n += rg->weight(v, slice, i);
    assert_true(n == count_ending("KNNK"));
}

/* ---- five pieces, pawns on both sides (opt-in) ---- */

/* The value of pos by the game's own moves, one ply deep: each child's
 * value read from the tablebases (or the rules, where the game is over),
 * the best of them for the side to move. 0 when a child is not covered. */
static int t_forward_value(egdb_prober_t *pr, const void *pos, val_t *out)
{
    const game_ops_t *O = v->ops;
    val_t t;
    if (O->terminal(v, pos, &t)) { *out = t; return 1; }
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    val_t best = -VAL_INF;
    for (int i = 0; i < n; i++) {
        GSW_POSBUF c[GSW_MAX_POS];
        memcpy(c, pos, O->pos_size);
        O->play(v, c, mv[i]);
        val_t lo, hi;
        err_t err;
        if (O->terminal(v, c, &t)) lo = t;
        else if (egdb_probe(pr, c, &lo, &hi, NULL, &err) != 1) return 0;
        val_t up = val_up(lo);
        if (up > best) best = up;
    }
    *out = best;
    return 1;
}

/* KNPKP (GSW_EGDB_FIVE_PAWNS=1, label slow): a 5-piece ending with pawns on
 * both sides, built with every ending it reaches (51 of them, 9.44 G
 * positions: an hour on 2 cores; GSW_EGDB_FIVE_DIR reuses a folder). Its
 * legal positions, en passant's apart, add up to this test's own count;
 * random positions, a quarter of them with an en-passant right, have the
 * value their moves give by the game's own rules (not the retrograde
 * engine's un-moves), and short mates that of a brute-force search; the
 * ending's file passes egdb verify. GSW_EGDB_FIVE_PAWNS=NAME takes another
 * ending: KPPKP (111 endings, 28.7 G positions, about 12 GB) is held to the
 * longest line of Nalimov's tables, 254 plies. */
static void test_five_pawns(void **state)
{
    (void)state;
    const char *ending = getenv("GSW_EGDB_FIVE_PAWNS");
    if (!ending || !*ending || !strcmp(ending, "0")) skip();
    if (!strcmp(ending, "1")) ending = "KNPKP";   /* (another name: a quicker trial of this test, KPKP) */
    const char *where = getenv("GSW_EGDB_FIVE_DIR") ? getenv("GSW_EGDB_FIVE_DIR") : dir;
    const retro_game_t *rg = v->ops->retro;
    egdb_set_t *s5;
    err_t err;
    assert_int_equal(egdb_set_open(v, where, &s5, &err), GSW_OK);
    uint64_t slice;
    assert_int_equal(rg->slice_parse(v, ending, &slice, &err), GSW_OK);
    egdb_build_options_t o = { .for_slice = &slice, .metric = RETRO_DTW, .threads = 2 };
    egdb_build_report_t rep;
    if (egdb_build(s5, &o, &rep, &err)) fail_msg("build %s: %s", ending, err.msg);

    int counts[RETRO_MAX_COUNTS], nc = rg->slice_material(v, slice, counts);
    egdb_stat_t *rows;
    int nrows;
    assert_int_equal(egdb_stats(s5, counts, nc, EGDB_TABLE_MATERIAL, &rows, &nrows, NULL, &err), GSW_OK);
    assert_int_equal(nrows, 1);
    uint64_t legal = count_ending(ending);
    print_message("%s: %llu positions (counted apart: %llu), %llu wins, %llu draws, %llu losses, longest mate %d plies, "
                  "longest loss %d plies\n",
                  ending, (unsigned long long)rows[0].positions, (unsigned long long)legal, (unsigned long long)rows[0].wins,
                  (unsigned long long)rows[0].draws, (unsigned long long)rows[0].losses, rows[0].longest_win_plies,
                  rows[0].longest_loss_plies);
    assert_true(rows[0].positions == legal);
    assert_true(rows[0].wins + rows[0].draws + rows[0].losses == rows[0].positions);
    assert_true(rows[0].longest_win_plies > 0);
    /* KPPKP: the longest line of Nalimov's 3-5-piece tables, 254 plies (the
       loser to move), in Conrady's survey (tests/data/README.md) */
    if (!strcmp(ending, "KPPKP") && longest_line(s5, &rows[0]) != 254)
        fail_msg("KPPKP: the longest line %d plies (mate %d, loss %d); published 254", longest_line(s5, &rows[0]),
                 rows[0].longest_win_plies, rows[0].longest_loss_plies);

    egdb_prober_t pr;
    assert_int_equal(egdb_prober_init(&pr, s5, 4, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    val_t lo, hi, fw;
    rg->position(v, rows[0].longest_slice, rows[0].longest_index, pos);
    assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
    assert_int_equal(lo, val_win(rows[0].longest_win_plies));
    free(rows);

    /* the indices with an en-passant right close the slice: the first of
       them found by bisection */
    const uint64_t size = rg->slice_size(v, slice);
    uint64_t a = 0, b = size - 1;
    while (a < b) {
        uint64_t m = a + (b - a) / 2;
        rg->position(v, slice, m, pos);
        if (((const ch_pos_t *)pos)->ep != CH_NOSQ) b = m;
        else a = m + 1;
    }
    const uint64_t eps = size - a;
    assert_true(eps > 0 && eps < size / 4);
    uint64_t seed = 8;
    int seen[3] = { 0, 0, 0 }, ep = 0, short_wins = 0, short_losses = 0;
    for (int k = 0; k < 40000;) {
        uint64_t i = k % 4 == 0 ? size - eps + test_splitmix(&seed) % eps : test_splitmix(&seed) % size;
        if (!rg->legal(v, slice, i)) continue;
        k++;
        rg->position(v, slice, i, pos);
        assert_true((((const ch_pos_t *)pos)->ep != CH_NOSQ) == (i >= size - eps));
        ep += i >= size - eps;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        assert_int_equal(lo, hi);
        if (!t_forward_value(&pr, pos, &fw) || fw != lo) {
            char f[128];
            ch_format_fen((const ch_pos_t *)pos, f, sizeof f);
            fail_msg("%s %s: tablebase %d, its moves give %d", ending, f, lo, fw);
        }
        seen[val_is_win(lo) ? 0 : val_is_loss(lo) ? 2 : 1]++;
        int d = val_plies(lo), tb_win3 = val_is_win(lo) && d <= 3, tb_lose2 = val_is_loss(lo) && d <= 2;
        if (k > 2000 && !tb_win3 && !tb_lose2) continue;   /* after the first 2000, the short ones */
        if (win_within(pos, 3) != tb_win3 || lost_within(pos, 2) != tb_lose2) {
            char f[128];
            ch_format_fen((const ch_pos_t *)pos, f, sizeof f);
            fail_msg("%s %s: tablebase %d (plies %d), brute force disagrees", ending, f, lo, d);
        }
        short_wins += tb_win3;
        short_losses += tb_lose2;
    }
    egdb_prober_free(&pr);
    print_message("%s: 40000 positions by their moves (%d with en passant): %d wins, %d draws, %d losses; "
                  "%d short wins and %d short losses by brute force\n",
                  ending, ep, seen[0], seen[1], seen[2], short_wins, short_losses);
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && short_wins > 0 && short_losses > 0);

    int files = 0;
    assert_int_equal(egdb_verify(s5, &slice, 2, NULL, NULL, NULL, &files, &err), GSW_OK);
    assert_true(files >= 1);
    egdb_set_close(s5);
}

/* The one door: the solver answers a covered position from the
 * tablebases, with the distance to mate. */
static void test_solver(void **state)
{
    (void)state;
    build("KQK");
    solver_t s;
    err_t err;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    assert_int_equal(solver_open_egdb(&s, dir, NULL, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", pos, &err), GSW_OK);
    answer_t a;
    assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
    assert_true(answer_from(&a, "egdb"));
    assert_int_equal(a.r.lo, val_win(19));
    assert_int_equal(a.r.hi, val_win(19));
    solver_free(&s);
}

/* The door's engine keeps its histories from one move of a game to the
 * next (solver_think): a search after another differs from the same
 * search on a fresh solver, and solver_clear (a new game) makes it fresh. */
static void test_solver_memory(void **state)
{
    (void)state;
    solver_t s;
    err_t err;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", a, &err), GSW_OK);
    assert_int_equal(game_pos_parse(v, "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5", b, &err), GSW_OK);
    ab_options_t o = { .threads = 1, .depth_limit = 7 };
    ab_result_t r1, r2, r3;
    assert_int_equal(solver_think(&s, a, &o, &r1, &err), GSW_OK);
    solver_clear(&s);
    assert_int_equal(solver_think(&s, b, &o, &r2, &err), GSW_OK);
    tt_clear(&s.tt);   /* (the table apart: the histories alone carry over) */
    assert_int_equal(solver_think(&s, a, &o, &r2, &err), GSW_OK);
    solver_clear(&s);
    assert_int_equal(solver_think(&s, a, &o, &r3, &err), GSW_OK);
    print_message("after another search %llu nodes, fresh %llu and %llu\n", (unsigned long long)r2.nodes,
                  (unsigned long long)r1.nodes, (unsigned long long)r3.nodes);
    assert_int_equal(r1.nodes, r3.nodes);
    assert_true(r2.nodes != r1.nodes);
    solver_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_longest_mates),
        cmocka_unit_test(test_short_mates),
        cmocka_unit_test(test_mate_prover),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_symmetry),
        cmocka_unit_test(test_five_pawns),
        cmocka_unit_test(test_solver),
        cmocka_unit_test(test_solver_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

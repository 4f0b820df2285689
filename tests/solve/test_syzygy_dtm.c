/* gsw's chess tablebases (distance to mate, built by the retrograde engine)
 * against the Syzygy tables in tests/data/syzygy/ read through Debian's
 * libfathom (issue 55). The two share nothing: different generators,
 * different indexings, different move generators. For every legal
 * position of an ending both cover (either side to move), gsw's value and
 * Syzygy's WDL must agree on win, draw or loss for the side to move,
 * taking Syzygy's cursed wins as wins and blessed losses as losses (gsw's
 * tables know no 50-move rule). Where gsw mates within 100 plies the
 * 50-move rule cannot intervene, so Syzygy must say a plain win or loss
 * there; the cursed and blessed positions are counted. Each position's
 * colour-reversed image must have the same value both ways too (the
 * stronger side as Black: gsw and Syzygy each store one orientation).
 *
 * Endings: KQK, KRK and KPK (label release: a few seconds); with
 * GSW_SYZYGY_SLOW=1 (label slow: gsw builds about 460 M positions, some
 * 10 minutes on 2 cores) also KRKP and the four its pawn promotes into, KQKR, KRKR, KRKB
 * and KRKN, and KPKP, pawns on both sides, with its positions where the
 * side to move may take en passant (Fathom is given the ep square), which
 * builds every 4-piece ending its pawns promote into first;
 * GSW_SYZYGY_ENDINGS=KPKP,... compares those alone (with the slow ones);
 * GSW_SYZYGY_EGDB=DIR keeps gsw's tables there for the next run. The counts are printed per ending. Known positions are checked
 * through Fathom alone first, so a damaged table file shows as such. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <tbprobe.h>

#include "games/chess/ch.h"
#include "solve/egdb.h"
#include "tests/test_tmpdir.h"

static gv_t *v;
static egdb_set_t *set;

static int slow(void) { return getenv("GSW_SYZYGY_SLOW") && atoi(getenv("GSW_SYZYGY_SLOW")); }

/* Syzygy's WDL of p (rule50 0, no castling: gsw's endings hold none; p's
 * ep square when it has one); p must be legal (Fathom asserts on the side not to move
 * in check). flip: of p's colour-reversed image instead (colours swapped,
 * the board turned upside down, which reverses a bitboard's bytes, and
 * the other side to move), which has the same value. */
static unsigned fathom_wdl(const ch_pos_t *p, int flip)
{
    uint64_t b[9] = { p->color[CH_WHITE], p->color[CH_BLACK], p->type[CH_KING], p->type[CH_QUEEN],
                      p->type[CH_ROOK], p->type[CH_BISHOP], p->type[CH_KNIGHT], p->type[CH_PAWN] };
    int white = p->side == CH_WHITE;
    unsigned ep = p->ep == CH_NOSQ ? 0 : p->ep;
    if (flip) {
        if (ep) ep ^= 56;
        for (int i = 0; i < 8; i++) b[i] = __builtin_bswap64(b[i]);
        b[8] = b[0], b[0] = b[1], b[1] = b[8];
        white = !white;
    }
    return tb_probe_wdl(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], 0, 0, ep, white);
}

static const char *wdl_name(unsigned w)
{
    static const char *const names[] = { "loss", "blessed loss", "draw", "cursed win", "win" };
    return w <= TB_WIN ? names[w] : "failed";
}

static int setup(void **state)
{
    (void)state;
    err_t err;
    const char *data = getenv("GSW_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/syzygy", data ? data : "tests/data");
    if (!tb_init(path) || TB_LARGEST != 4) {
        fprintf(stderr, "no Syzygy tables in %s (TB_LARGEST %u)\n", path, TB_LARGEST);
        return -1;
    }
    /* GSW_SYZYGY_EGDB=DIR: gsw's tables in DIR (kept, reused when there) */
    const char *keep = getenv("GSW_SYZYGY_EGDB");
    if (test_tmpdir_make("gsw-syzygy") || game_open("chess", &v, &err) ||
        egdb_set_open(v, keep && *keep ? keep : dir, &set, &err))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* (no tb_free: Debian's 2019 Fathom prints munmap errors there) */
    egdb_set_close(set);
    game_close(v);
    return test_tmpdir_remove() == 0 ? 0 : -1;
}

/* ---- the tables alone: positions whose value chess players know ---- */

static void test_known_positions(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        unsigned wdl;
    } cases[] = {
        { "8/8/8/8/4k3/8/1Q6/K7 b - - 0 1", TB_LOSS },   /* KQvK's longest win (the generator's log) */
        { "8/8/8/8/4k3/8/1Q6/K7 w - - 0 1", TB_WIN },
        { "8/8/8/8/8/2k5/1Q6/7K b - - 0 1", TB_DRAW },   /* the king takes the hanging queen */
        { "k7/8/1QK5/8/8/8/8/8 b - - 0 1", TB_DRAW },    /* stalemate */
        { "7k/8/8/8/8/8/8/R6K w - - 0 1", TB_WIN },      /* KRvK */
        { "7k/8/8/8/8/8/B7/7K w - - 0 1", TB_DRAW },     /* KBvK */
        { "7k/8/8/8/8/8/8/N6K b - - 0 1", TB_DRAW },     /* KNvK */
        { "8/8/4K3/8/4P3/8/8/k7 w - - 0 1", TB_WIN },    /* KPvK: the king on a key square */
        { "8/8/4K3/8/4P3/8/8/k7 b - - 0 1", TB_LOSS },
        { "k7/8/8/8/8/8/P1K5/8 w - - 0 1", TB_DRAW },    /* a rook pawn, the defender in the corner */
        { "k7/8/8/8/8/8/P1K5/8 b - - 0 1", TB_DRAW },
        { "7K/8/8/4p3/8/4k3/8/8 b - - 0 1", TB_WIN },    /* KvKP: Black's pawn */
        { "7K/8/8/4p3/8/4k3/8/8 w - - 0 1", TB_LOSS },
        { "7K/8/p7/8/k7/7R/8/8 w - - 0 1", TB_WIN },     /* KRvKP: the longest White win by DTZ (its log) */
        { "8/8/8/8/5R2/3k4/2p2K2/8 w - - 0 1", TB_LOSS }, /* ... and Black's */
        { "k7/r7/8/8/8/8/8/3Q3K w - - 0 1", TB_WIN },    /* KQvKR */
        { "k7/1r6/8/8/8/8/8/2R4K w - - 0 1", TB_DRAW },  /* KRvKR */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        err_t err;
        assert_int_equal(game_pos_parse(v, cases[i].fen, pos, &err), GSW_OK);
        unsigned got = fathom_wdl((const ch_pos_t *)pos, 0);
        if (got != cases[i].wdl)
            fail_msg("%s: Syzygy says %s, known to be %s", cases[i].fen, wdl_name(got), wdl_name(cases[i].wdl));
    }
}

/* ---- every position of an ending, both ways ---- */

static const char *val_name(val_t x) { return val_is_win(x) ? "win" : val_is_loss(x) ? "loss" : "draw"; }
static int val_dist(val_t x) { return val_is_proven_decisive(x) ? val_plies(x) : 0; }

typedef struct counts {
    uint64_t positions, wins, draws, losses;
    uint64_t cursed, blessed;     /* Syzygy's cursed wins and blessed losses */
    int longest_cursed, shortest_cursed;   /* gsw's distances there (plies) */
    int longest;                  /* gsw's longest win or loss, plies */
    uint64_t mismatches;
    uint64_t flip_mismatches;     /* Syzygy's value of the colour-reversed image differs */
    uint64_t ep;                  /* positions with an ep right */
    uint64_t ep_differ;           /* ... whose value differs from the board's without it */
    uint64_t ep_outcome;          /* ... in win, draw or loss */
    char ep_example[128];         /* the first of those */
    val_t ep_with, ep_without;    /* its values */
} counts_t;

static void compare_ending(const char *ending, counts_t *c)
{
    const retro_game_t *rg = v->ops->retro;
    uint64_t slice;
    err_t err;
    assert_int_equal(rg->slice_parse(v, ending, &slice, &err), GSW_OK);
    egdb_build_options_t o = { .for_slice = &slice, .metric = RETRO_DTW, .threads = 2 };
    egdb_build_report_t rep;
    if (egdb_build(set, &o, &rep, &err)) fail_msg("build %s: %s", ending, err.msg);
    egdb_prober_t pr;
    assert_int_equal(egdb_prober_init(&pr, set, 8, &err), GSW_OK);
    memset(c, 0, sizeof *c);
    c->shortest_cursed = -1;
    uint64_t size = rg->slice_size(v, slice);
    for (uint64_t i = 0; i < size; i++) {
        /* one index stands for a position and its mirror images (gsw folds
           symmetry): the counts weigh it by them, Fathom is asked once */
        uint64_t wt = rg->weight(v, slice, i);
        if (!wt) continue;
        GSW_POSBUF pos[GSW_MAX_POS];
        rg->position(v, slice, i, pos);
        const ch_pos_t *p = (const ch_pos_t *)pos;
        val_t lo, hi;
        err.msg[0] = 0;
        if (egdb_probe(&pr, pos, &lo, &hi, NULL, &err) != 1 || lo != hi)
            fail_msg("%s index %llu: gsw's probe failed (%s)", ending, (unsigned long long)i, err.msg);
        unsigned w = fathom_wdl(p, 0);
        /* the colour-reversed image, both ways: the same value (gsw looks
           it up flipped; Syzygy's table holds one orientation too) */
        val_t flo, fhi;
        rg->mirror(v, pos);
        if (egdb_probe(&pr, pos, &flo, &fhi, NULL, &err) != 1 || flo != lo || fhi != hi)
            fail_msg("%s index %llu: gsw's colour-reversed probe differs", ending, (unsigned long long)i);
        rg->mirror(v, pos);
        unsigned fw = fathom_wdl(p, 1);
        c->flip_mismatches += fw != w;
        int gsw = val_is_win(lo) ? 1 : val_is_loss(lo) ? -1 : 0;
        int plies = gsw ? val_plies(lo) : 0;
        int syz = w == TB_WIN || w == TB_CURSED_WIN ? 1 : w == TB_LOSS || w == TB_BLESSED_LOSS ? -1 : 0;
        /* a mate within 100 plies comes before the 50-move rule can */
        int rule_ok = !(gsw && plies <= 100 && (w == TB_CURSED_WIN || w == TB_BLESSED_LOSS));
        if (p->ep != CH_NOSQ) {   /* the same board without the right: its own index */
            ch_pos_t q = *p;
            q.ep = CH_NOSQ;
            ch_refresh(&q);
            val_t qlo, qhi;
            if (egdb_probe(&pr, &q, &qlo, &qhi, NULL, &err) != 1 || qlo != qhi)
                fail_msg("%s index %llu: gsw's probe without the ep right failed", ending, (unsigned long long)i);
            c->ep += wt;
            c->ep_outcome += wt * ((val_is_win(qlo) - val_is_loss(qlo)) != (val_is_win(lo) - val_is_loss(lo)));
            if (qlo != lo && !c->ep_differ) {
                ch_format_fen(p, c->ep_example, sizeof c->ep_example);
                c->ep_with = lo;
                c->ep_without = qlo;
            }
            c->ep_differ += wt * (qlo != lo);
        }
        c->positions += wt;
        c->wins += wt * (gsw > 0);
        c->draws += wt * (gsw == 0);
        c->losses += wt * (gsw < 0);
        if (plies > c->longest) c->longest = plies;
        if (w == TB_CURSED_WIN || w == TB_BLESSED_LOSS) {
            c->cursed += wt * (w == TB_CURSED_WIN);
            c->blessed += wt * (w == TB_BLESSED_LOSS);
            if (plies > c->longest_cursed) c->longest_cursed = plies;
            if (c->shortest_cursed < 0 || plies < c->shortest_cursed) c->shortest_cursed = plies;
        }
        if (w > TB_WIN || gsw != syz || !rule_ok) {
            if (c->mismatches++ < 10) {
                char fen[128];
                ch_format_fen(p, fen, sizeof fen);
                print_error("%s: gsw %s in %d plies, Syzygy %s\n", fen, gsw > 0 ? "win" : gsw < 0 ? "loss" : "draw",
                            plies, wdl_name(w));
            }
        }
    }
    egdb_prober_free(&pr);
    print_message("%s: %llu positions, gsw %llu wins, %llu draws, %llu losses (longest %d plies); "
                  "Syzygy %llu cursed wins, %llu blessed losses; %llu disagree\n",
                  ending, (unsigned long long)c->positions, (unsigned long long)c->wins,
                  (unsigned long long)c->draws, (unsigned long long)c->losses, c->longest,
                  (unsigned long long)c->cursed, (unsigned long long)c->blessed,
                  (unsigned long long)c->mismatches);
    if (c->ep)
        print_message("%s: %llu of them with an ep right, %llu of which differ from the board without it "
                      "(%llu in win, draw or loss)\n",
                      ending, (unsigned long long)c->ep, (unsigned long long)c->ep_differ,
                      (unsigned long long)c->ep_outcome);
    if (c->ep_differ)
        print_message("%s: e.g. %s: %s %d, without the right %s %d (plies)\n", ending, c->ep_example,
                      val_name(c->ep_with), val_dist(c->ep_with), val_name(c->ep_without), val_dist(c->ep_without));
    if (c->cursed || c->blessed)
        print_message("%s: gsw's mates there take %d to %d plies\n", ending, c->shortest_cursed, c->longest_cursed);
    if (c->mismatches) fail_msg("%s: %llu positions disagree", ending, (unsigned long long)c->mismatches);
    if (c->flip_mismatches)
        fail_msg("%s: Syzygy's colour-reversed images differ in %llu positions", ending,
                 (unsigned long long)c->flip_mismatches);
}

static void test_every_position(void **state)
{
    (void)state;
    static const struct {
        const char *ending;
        int slow;
    } endings[] = {
        { "KQK", 0 },  { "KRK", 0 },  { "KPK", 0 },  { "KRKP", 1 },
        { "KQKR", 1 }, { "KRKR", 1 }, { "KRKB", 1 }, { "KRKN", 1 }, { "KPKP", 1 },
    };
    const char *only = getenv("GSW_SYZYGY_ENDINGS");
    int done = 0;
    for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
        if (endings[e].slow && !slow()) continue;
        if (only && *only && (!endings[e].slow || !strstr(only, endings[e].ending))) continue;
        counts_t c;
        compare_ending(endings[e].ending, &c);
        /* the walk saw the ending: wins, draws and losses for the side to move */
        assert_true(c.positions > 100000);
        assert_true(c.wins > 0 && c.draws > 0 && c.losses > 0);
        assert_int_equal(c.wins + c.draws + c.losses, c.positions);
        if (!strcmp(endings[e].ending, "KPKP")) assert_true(c.ep > 0 && c.ep_outcome > 0);
        done++;
    }
    assert_true(done >= 3 || (only && *only));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_positions),
        cmocka_unit_test(test_every_position),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

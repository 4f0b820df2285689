/* Checkers endgame databases built by the retrograde engine: the published
 * per-slice figures (Trice & Dodgen: positions, longest win and loss), the
 * values against alpha-beta and df-pn over the rules (no database), probes
 * through the searches, damage found and rebuilt, a stopped build resumed.
 * GSW_EGDB_RELEASE=1 (the release-labelled entry) adds every 4-piece slice,
 * the 5-piece kings-only ones and 3K v 3K. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "solve/egdb.h"
#include "solve/solver.h"
#include "tests/solve/brute_count.h"
#include "tests/test_rng.h"

static char dir[256];
static gv_t *v;
static egdb_set_t *set;

/* Trice & Dodgen's table (tests/data/checkers/README.md): material Black vs
 * White as bk, bm, wk, wm; positions (Black to move); longest win; longest
 * loss; which of the two figures fit each reading (egdb.h). */
enum { WIN_MAT = 1, LOSS_MAT = 2, WIN_FIRST = 4, LOSS_FIRST = 8, ALL_FIT = 15 };
typedef struct td_row {
    int c[4];
    uint64_t positions;
    int win, loss;
    int pieces;
    int fit;
} td_row_t;

static const td_row_t td[] = {
    { { 1, 0, 1, 0 }, 992, 11, 10, 2, ALL_FIT },
    /* the three rows of one man against one piece, the table's slips: the
       rules give 1K v 1C 11/12 in both readings, 1C v 1K 11/12 (material)
       or 11/4 (first), 1C v 1C 13/6 (test_rules_count counts them
       independently) */
    { { 1, 0, 0, 1 }, 868, 11, 10, 2, WIN_MAT | WIN_FIRST },
    { { 0, 1, 1, 0 }, 868, 5, 12, 2, LOSS_MAT },
    { { 0, 1, 0, 1 }, 760, 13, 12, 2, WIN_MAT | WIN_FIRST },
    { { 2, 0, 1, 0 }, 14880, 33, 34, 3, ALL_FIT },
    { { 2, 0, 0, 1 }, 13020, 33, 34, 3, ALL_FIT },
    { { 1, 1, 1, 0 }, 26040, 47, 48, 3, ALL_FIT },
    { { 0, 2, 1, 0 }, 11340, 61, 62, 3, ALL_FIT },
    { { 0, 2, 0, 1 }, 9936, 61, 62, 3, ALL_FIT },
    { { 2, 0, 2, 0 }, 215760, 49, 48, 4, ALL_FIT },
    { { 3, 0, 1, 0 }, 143840, 29, 30, 4, ALL_FIT },
    /* release: every 4-piece slice, the 5-piece kings-only ones, 3K v 3K */
    { { 2, 0, 1, 1 }, 377580, 95, 94, 40, ALL_FIT },
    { { 0, 2, 0, 2 }, 125664, 109, 108, 40, ALL_FIT },
    { { 1, 2, 1, 0 }, 328860, 53, 54, 40, ALL_FIT },
    { { 0, 3, 0, 1 }, 83304, 55, 56, 40, ALL_FIT },
    { { 3, 0, 2, 0 }, 2013760, 67, 68, 50, ALL_FIT },
    { { 4, 0, 1, 0 }, 1006880, 29, 30, 50, ALL_FIT },
    { { 3, 0, 3, 0 }, 18123840, 73, 74, 60, ALL_FIT },   /* a 6-piece unit: about 10 s on 2 cores */
};
#define NTD ((int)(sizeof td / sizeof td[0]))

/* A row's fit bit for the win and the loss column in a reading. */
static int fit_win(egdb_table_t t) { return t == EGDB_TABLE_FIRST ? WIN_FIRST : WIN_MAT; }
static int fit_loss(egdb_table_t t) { return t == EGDB_TABLE_FIRST ? LOSS_FIRST : LOSS_MAT; }

static int release(void) { return getenv("GSW_EGDB_RELEASE") && atoi(getenv("GSW_EGDB_RELEASE")); }

static int build(const char *fen, int pieces, retro_metric_t m, gsw_flag_t *stop, egdb_build_report_t *rep)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    if (fen) assert_int_equal(game_pos_parse(v, fen, pos, &err), GSW_OK);
    egdb_build_options_t o = { .pieces = pieces, .for_pos = fen ? pos : NULL, .metric = m, .threads = 2, .stop = stop };
    int rc = egdb_build(set, &o, rep, &err);
    if (rc && !stop) fail_msg("build: %s", err.msg);
    return rc;
}

static int setup(void **state)
{
    (void)state;
    err_t err;
    snprintf(dir, sizeof dir, "/tmp/gsw-egdb-test-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    if (game_open("checkers", &v, &err) || egdb_set_open(v, dir, &set, &err)) return -1;
    egdb_build_report_t rep;
    build(NULL, 3, RETRO_DTW, NULL, &rep);
    build("B:WK1,K2:BK31,K32", 0, RETRO_DTW, NULL, &rep);   /* 2K v 2K */
    build("B:WK1:BK30,K31,K32", 0, RETRO_DTW, NULL, &rep);  /* 3K v 1K and 1K v 3K */
    if (release()) {
        build(NULL, 4, RETRO_DTW, NULL, &rep);
        build("B:WK1,K2:BK30,K31,K32", 0, RETRO_DTW, NULL, &rep);
        build("B:WK1:BK29,K30,K31,K32", 0, RETRO_DTW, NULL, &rep);
        build("B:WK1,K2,K3:BK30,K31,K32", 0, RETRO_DTW, NULL, &rep);   /* 3K v 3K */
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    egdb_set_close(set);
    game_close(v);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_trice_dodgen(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < NTD; i++) {
        const td_row_t *t = &td[i];
        if (t->pieces >= 40 && !release()) continue;
        for (int table = EGDB_TABLE_MATERIAL; table <= EGDB_TABLE_FIRST; table++) {
            egdb_stat_t *rows;
            int n;
            err_t err;
            assert_int_equal(egdb_stats(set, t->c, 4, (egdb_table_t)table, &rows, &n, NULL, &err), GSW_OK);
            if (n != 1) fail_msg("slice %d,%d,%d,%d: %d rows", t->c[0], t->c[1], t->c[2], t->c[3], n);
            int fw = fit_win((egdb_table_t)table), fl = fit_loss((egdb_table_t)table);
            if (rows[0].positions != t->positions || ((t->fit & fw) && rows[0].win.plies != t->win) ||
                ((t->fit & fl) && rows[0].loss.plies != t->loss))
                fail_msg("slice %d,%d,%d,%d (%s): %llu positions, win %d, loss %d; published %llu, %d, %d", t->c[0],
                         t->c[1], t->c[2], t->c[3], egdb_table_name((egdb_table_t)table),
                         (unsigned long long)rows[0].positions, rows[0].win.plies, rows[0].loss.plies,
                         (unsigned long long)t->positions, t->win, t->loss);
            assert_int_equal(rows[0].wins + rows[0].draws + rows[0].losses, rows[0].positions);
            free(rows);
        }
        checked++;
    }
    assert_true(checked >= 11);
}

/* --- an independent count, from the rules --------------------------------
 * Every position of 0 to 3 pieces, either side to move, solved by the
 * brute-force solver of tests/solve/brute_count.c: its own move generator
 * (squares 0-31 are 1-32 of the standard numbering, Black's men move
 * towards 29-32 and crown there; a position with no legal move is lost in
 * 0 plies; a capture is forced, a jump goes on while it can, and a man that
 * crowns ends its move) and a retrograde pass over an explicit graph:
 * nothing of games/checkers or core/retro.c is used. */
typedef struct bf {
    int n, cap;
    uint8_t *side;       /* 0: Black to move */
    uint8_t *capture;    /* the side to move must capture */
    uint8_t *material;   /* bk, bm, wk, wm: 2 bits each (bf_material) */
    int16_t *val;        /* 0 a draw, d + 1 won in d, -(d + 1) lost in d */
} bf_t;

/* Counts of black kings, black men, white kings and white men (each at
 * most 3), 2 bits each. */
static uint8_t bf_material(int bk, int bm, int wk, int wm) { return (uint8_t)(bk | bm << 2 | wk << 4 | wm << 6); }

static void bf_visit(void *ctx, const unsigned char board[32], int side, int capture, brute_value_t v)
{
    bf_t *g = ctx;
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 1 << 16;
        g->side = realloc(g->side, (size_t)g->cap);
        g->capture = realloc(g->capture, (size_t)g->cap);
        g->material = realloc(g->material, (size_t)g->cap);
        g->val = realloc(g->val, (size_t)g->cap * sizeof *g->val);
        assert_true(g->side && g->capture && g->material && g->val);
    }
    int k[5] = { 0 };
    for (int sq = 0; sq < 32; sq++) k[board[sq]]++;
    g->side[g->n] = (uint8_t)side;
    g->capture[g->n] = (uint8_t)capture;
    g->material[g->n] = bf_material(k[BRUTE_CK_BK], k[BRUTE_CK_BM], k[BRUTE_CK_WK], k[BRUTE_CK_WM]);
    g->val[g->n] = (int16_t)(v.outcome * (v.plies + 1));
    g->n++;
}

static void bf_solve(bf_t *g)
{
    memset(g, 0, sizeof *g);
    assert_int_equal(brute_checkers_each(bf_visit, g), 0);
}

static void bf_free(bf_t *g)
{
    free(g->side);
    free(g->capture);
    free(g->material);
    free(g->val);
    brute_free();
}

/* A material's row in one reading, counted over the nodes: positions,
 * wins and losses with Black to move, and the longest win and loss over
 * nodes whose side to move has no capture. */
typedef struct { uint64_t positions, wins, losses; int win, loss; } bf_row_t;

static bf_row_t bf_stats(const bf_t *g, const int *c, egdb_table_t table)
{
    bf_row_t r = { 0, 0, 0, -1, -1 };
    uint8_t want = bf_material(c[0], c[1], c[2], c[3]);
    for (int i = 0; i < g->n; i++) {
        if (g->material[i] != want) continue;
        int v = g->val[i], d = abs(v) - 1, black = g->side[i] == 0;
        if (black) {
            r.positions++;
            r.wins += v > 0;
            r.losses += v < 0;
        }
        if (!v || g->capture[i]) continue;
        /* first: Black's wins, Black to move, and White's losses, White to
           move; material: every win and loss, either side to move */
        if (v > 0 && (black || table == EGDB_TABLE_MATERIAL) && d > r.win) r.win = d;
        if (v < 0 && (!black || table == EGDB_TABLE_MATERIAL) && d > r.loss) r.loss = d;
    }
    return r;
}

/* The independent count against the databases, material by material, in
 * both readings (every material of 1 to 3 pieces), and against the table
 * where it fits; the table's slips are what the rules do not give. */
static void test_rules_count(void **state)
{
    (void)state;
    bf_t g;
    bf_solve(&g);
    int compared = 0;
    for (int table = EGDB_TABLE_MATERIAL; table <= EGDB_TABLE_FIRST; table++) {
        egdb_stat_t *rows;
        int n;
        err_t err;
        assert_int_equal(egdb_stats(set, NULL, 0, (egdb_table_t)table, &rows, &n, NULL, &err), GSW_OK);
        for (int r = 0; r < n; r++) {
            const int *c = rows[r].counts;
            if (c[0] + c[1] + c[2] + c[3] > 3) continue;
            bf_row_t b = bf_stats(&g, c, (egdb_table_t)table);
            if (b.positions != rows[r].positions || b.wins != rows[r].wins || b.losses != rows[r].losses ||
                b.win != rows[r].win.plies || b.loss != rows[r].loss.plies)
                fail_msg("%d,%d,%d,%d (%s): the rules give %llu positions, %llu won, %llu lost, longest %d/%d; "
                         "the databases %llu, %llu, %llu, %d/%d", c[0], c[1], c[2], c[3],
                         egdb_table_name((egdb_table_t)table), (unsigned long long)b.positions,
                         (unsigned long long)b.wins, (unsigned long long)b.losses, b.win, b.loss,
                         (unsigned long long)rows[r].positions, (unsigned long long)rows[r].wins,
                         (unsigned long long)rows[r].losses, rows[r].win.plies, rows[r].loss.plies);
            compared++;
        }
        free(rows);
        /* the table's rows of 2 and 3 pieces: each figure that fits this
           reading is the rules', each that does not is not */
        for (int i = 0; i < NTD; i++) {
            const td_row_t *t = &td[i];
            if (t->pieces > 3) continue;
            bf_row_t b = bf_stats(&g, t->c, (egdb_table_t)table);
            int fw = fit_win((egdb_table_t)table), fl = fit_loss((egdb_table_t)table);
            assert_int_equal(b.positions, t->positions);
            if ((b.win == t->win) != !!(t->fit & fw) || (b.loss == t->loss) != !!(t->fit & fl))
                fail_msg("%d,%d,%d,%d (%s): the rules give %d/%d, the table %d/%d", t->c[0], t->c[1], t->c[2], t->c[3],
                         egdb_table_name((egdb_table_t)table), b.win, b.loss, t->win, t->loss);
        }
    }
    /* 1-3 pieces: 4 + 10 + 20 materials, in two readings */
    assert_int_equal(compared, 2 * 34);
    bf_free(&g);
}

/* A random position of the slices built: any material of 2-3 pieces. */
static void random_pos(uint64_t *rng, void *pos)
{
    const retro_game_t *rg = v->ops->retro;
    int pieces = 2 + (int)(test_splitmix(rng) % 2);
    uint64_t ids[512];
    int n = rg->slices(v, pieces, ids, 512);
    uint64_t s = ids[test_splitmix(rng) % (uint64_t)n];
    rg->position(v, s, test_splitmix(rng) % rg->slice_size(v, s), pos);
    if (test_splitmix(rng) & 1) rg->mirror(v, pos);   /* White to move, too */
}

/* The database against alpha-beta over the rules, and df-pn for the class. */
static void test_against_search(void **state)
{
    (void)state;
    egdb_prober_t pr;
    err_t err;
    tt_t tt;
    assert_int_equal(egdb_prober_init(&pr, set, 8, &err), GSW_OK);
    assert_int_equal(tt_init(&tt, 16, &err), GSW_OK);
    uint64_t rng = 2026;
    int decisive = 0, draws = 0;
    for (int i = 0; i < 80; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        random_pos(&rng, pos);
        val_t lo, hi, tv;
        if (v->ops->terminal(v, pos, &tv)) continue;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        assert_int_equal(lo, hi);
        /* draws by repetition cost the searches dearly: a budget, and what
           runs out of it is not judged (the draws that finish are) */
        ab_options_t o = { .threads = 1, .node_limit = 300000 };
        ab_result_t r;
        tt_clear(&tt);
        assert_int_equal(ab_solve(v, &tt, pos, &o, &r, &err), GSW_OK);
        char fen[128];
        v->ops->pos_format(v, pos, fen, sizeof fen);
        if (!r.aborted && (r.lo != lo || r.hi != hi))
            fail_msg("%s: database %d, alpha-beta [%d, %d]", fen, (int)lo, (int)r.lo, (int)r.hi);
        if (r.aborted && (r.lo > lo || r.hi < lo))
            fail_msg("%s: database %d outside alpha-beta's bounds [%d, %d]", fen, (int)lo, (int)r.lo, (int)r.hi);
        dfpn_options_t po = { .hash_mb = 8, .node_limit = 300000 };
        dfpn_result_t d;
        assert_int_equal(dfpn_solve(v, pos, &po, &d, &err), GSW_OK);
        outcome_t want = lo > 0 ? OUTCOME_WIN : lo < 0 ? OUTCOME_LOSS : OUTCOME_DRAW;
        if (d.outcome != OUTCOME_UNKNOWN && d.outcome != want)
            fail_msg("%s: database %d, df-pn %s", fen, (int)lo, outcome_name(d.outcome));
        if (!r.aborted) decisive += lo != 0;
        draws += lo == 0;   /* (checked against the bounds the budget proved) */
    }
    if (decisive < 20 || draws < 3) fail_msg("only %d decisive and %d drawn positions judged", decisive, draws);
    tt_free(&tt);
    egdb_prober_free(&pr);
}

/* Distance to conversion (what the workbench weighs against a move-count
 * rule): the 3-piece files built beside the distance-to-win ones agree
 * with them on which random positions are decided, and a decided
 * position's conversion never comes after its end (the last capture, or
 * sooner). Either side's man move converts, so the distance's parity does
 * not say who wins. */
static void test_conversion(void **state)
{
    (void)state;
    egdb_build_report_t rep;
    err_t err;
    build(NULL, 3, RETRO_DTC, NULL, &rep);
    egdb_prober_t pr;
    assert_int_equal(egdb_prober_init(&pr, set, 8, &err), GSW_OK);
    uint64_t rng = 2611;
    int decisive = 0, shorter = 0;
    for (int i = 0; i < 20000; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        random_pos(&rng, pos);
        val_t lo, hi, tv;
        if (v->ops->terminal(v, pos, &tv)) continue;
        assert_int_equal(egdb_probe(&pr, pos, &lo, &hi, NULL, &err), 1);
        int c = -1, got = egdb_conversion(&pr, pos, &c, &err);
        assert_true(got >= 0);
        char fen[128];
        v->ops->pos_format(v, pos, fen, sizeof fen);
        if (got != (lo != VAL_DRAW)) fail_msg("%s: distance to win %d, conversion %s", fen, (int)lo, got ? "known" : "none");
        if (!got) continue;
        decisive++;
        if (c < 0 || c > val_plies(lo))
            fail_msg("%s: distance to win %d plies (%s), to conversion %d", fen, val_plies(lo), lo > 0 ? "won" : "lost", c);
        shorter += c < val_plies(lo);
    }
    egdb_prober_free(&pr);
    printf("[ conversion ] %d decisive positions, %d convert before they end\n", decisive, shorter);
    assert_true(decisive > 1000);
}

/* The searches with the databases as their oracle: a 4-piece kings position
 * solved over the 3-piece databases agrees with its own database. */
static void test_oracle(void **state)
{
    (void)state;
    solver_t s;
    err_t err;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    assert_int_equal(solver_open_egdb(&s, dir, NULL, &err), GSW_OK);
    assert_non_null(s.ab.oracle);
    /* decisive ones: a draw by repetition takes plain alpha-beta too long */
    const char *fens[] = { "B:WK10:BK30,K31,K32", "W:WK5:BK27,K28,K32", "B:W18,K31:B22,K23" };
    for (int i = 0; i < 3; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        assert_int_equal(game_pos_parse(v, fens[i], pos, &err), GSW_OK);
        answer_t a;
        assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
        tt_t tt;
        assert_int_equal(tt_init(&tt, 16, &err), GSW_OK);
        ab_options_t o = { .threads = 1 }, oo = { .threads = 1, .oracle = s.ab.oracle };
        ab_result_t plain, with;
        assert_int_equal(ab_solve(v, &tt, pos, &o, &plain, &err), GSW_OK);
        tt_clear(&tt);
        assert_int_equal(ab_solve(v, &tt, pos, &oo, &with, &err), GSW_OK);
        tt_free(&tt);
        if (plain.lo != with.lo || plain.hi != with.hi || a.r.lo != plain.lo || a.r.hi != plain.hi)
            fail_msg("%s: alpha-beta %d, with the databases %d, solver %d (%s)", fens[i], (int)plain.lo, (int)with.lo,
                     (int)a.r.lo, answer_from(&a, "egdb") ? "databases" : "search");
        if (i < 2) assert_true(answer_from(&a, "egdb"));   /* held by the databases built in setup */
        assert_true(with.nodes < plain.nodes);
    }
    /* the heuristic engine too: two plies over the files see the win in 31
       that no 2-ply search over the rules can */
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, "B:WK10:BK28,K32", pos, &err), GSW_OK);
    ab_options_t ho = { .threads = 1, .depth_limit = 2 };
    ab_result_t r;
    assert_int_equal(solver_think(&s, pos, &ho, &r, &err), GSW_OK);
    assert_true(r.proven);
    assert_int_equal(r.score, val_win(31));
    const gsw_oracle_t *keep = s.ab.oracle;
    s.ab.oracle = NULL;
    tt_clear(&s.tt);
    assert_int_equal(solver_think(&s, pos, &ho, &r, &err), GSW_OK);
    assert_false(r.proven);
    s.ab.oracle = keep;
    solver_free(&s);
}

static void damage(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

/* A damaged file: named by verify and by probes, rebuilt by build. */
static void test_damage(void **state)
{
    (void)state;
    const retro_game_t *rg = v->ops->retro;
    uint64_t slice;
    err_t err;
    assert_int_equal(rg->slice_parse(v, "2K0C-1K0C.bxwx", &slice, &err), GSW_OK);
    char path[1200];
    egdb_slice_path(set, RETRO_DTW, slice, path, sizeof path);
    egdb_slice_forget(set, RETRO_DTW, slice);
    damage(path, 200);
    int checked;
    assert_int_not_equal(egdb_verify(set, &slice, 1, NULL, NULL, NULL, &checked, &err), GSW_OK);
    assert_non_null(strstr(err.msg, path));
    egdb_slice_forget(set, RETRO_DTW, slice);
    egdb_build_report_t rep;
    build("B:WK1:BK31,K32", 0, RETRO_DTW, NULL, &rep);
    assert_true(rep.built >= 1);
    assert_int_equal(egdb_verify(set, &slice, 1, NULL, NULL, NULL, &checked, &err), GSW_OK);
    assert_int_equal(checked, 2);   /* its wld and dtw files */
}

/* A build stopped part way keeps its finished slices; run again, it
 * reuses them and finishes. */
static int progress_calls;
static gsw_flag_t stop_flag;
static void stop_after(void *ctx, const char *line)
{
    (void)ctx;
    if (strstr(line, ": done") && ++progress_calls == 3) stop_flag = 1;
}

static void test_resume(void **state)
{
    (void)state;
    char sub[300];
    snprintf(sub, sizeof sub, "%s/resume", dir);
    egdb_set_t *s2;
    err_t err;
    assert_int_equal(egdb_set_open(v, sub, &s2, &err), GSW_OK);
    egdb_build_options_t o = { .pieces = 2, .metric = RETRO_WLD, .threads = 2, .stop = &stop_flag,
                               .progress = stop_after };
    egdb_build_report_t rep;
    assert_int_not_equal(egdb_build(s2, &o, &rep, &err), GSW_OK);
    assert_non_null(strstr(err.msg, "stopped"));
    int first = rep.built;
    assert_true(first >= 3 && first < rep.slices);
    stop_flag = 0;
    o.progress = NULL;
    assert_int_equal(egdb_build(s2, &o, &rep, &err), GSW_OK);
    assert_int_equal(rep.reused, first);
    assert_int_equal(rep.built + rep.reused, rep.slices);
    assert_int_equal(egdb_build(s2, &o, &rep, &err), GSW_OK);   /* finished: all reused */
    assert_int_equal(rep.built, 0);
    egdb_set_close(s2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trice_dodgen),
        cmocka_unit_test(test_rules_count),
        cmocka_unit_test(test_against_search),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_conversion),   /* (last: test_damage counts a slice's files) */
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

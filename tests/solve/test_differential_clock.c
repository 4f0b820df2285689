/* The differential test's clock (issue 51): seeded random chess and
 * checkers endings of three pieces, their clocks near the move-count rule's
 * limit (chess: halfmove 90-100; checkers: 70-80 plies without a capture or
 * a man's move), valued three ways must agree with an independent
 * count-aware brute force written from the rules (tests/solve/brute_count.c):
 *  - the door as `gsw solve` uses it (solver_t: databases, then search),
 *    its best move keeping the value (a draw's too), and for chess
 *    `gsw solve --json` itself;
 *  - the workbench's analyst: the position, and every move's value;
 *  - chess only, `gsw uci` with `go nodes N`: a mate it claims is one in
 *    fact (no faster than the truth), a draw is never called a mate, an
 *    ending the rule draws a few plies from the limit (won or lost on a
 *    fresh clock) or at it scores 0, and its move keeps a win the brute
 *    force proves within the depth it searched (a heuristic search need not
 *    find a mate beyond its horizon, which a clock near the limit can
 *    demand).
 * Each mode with and without the distances to conversion (chess: dtm alone
 * or with dtc; checkers: dtw alone or with dtc). Chess's fixed positions
 * (chess_fixed: what the random ones once found wrong) come first.
 * GSW_SLOW=1: more positions; GSW_DIFF_SEED=N: another seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/game.h"
#include "core/value.h"
#include "games/checkers/ck.h"
#include "solve/analyst.h"
#include "solve/egdb.h"
#include "solve/solver.h"
#include "tests/solve/brute_count.h"
#include "tests/solve/checkers_positions.h"
#include "tests/test_rng.h"

static uint64_t rng_state;
static uint64_t rng_next(void) { return test_splitmix(&rng_state); }

/* A brute-force value as gsw's val_t. */
static val_t brute_val(const brute_value_t *b)
{
    return b->outcome > 0 ? val_win(b->plies) : b->outcome < 0 ? val_loss(b->plies) : VAL_DRAW;
}

static const char *vtext(val_t lo, val_t hi, char *buf, size_t n)
{
    value_text(lo, hi, buf, n);
    return buf;
}

/* ---- the positions ---- */

/* A chess ending of the kings and one piece (Q, R or P of either colour),
 * either side to move, the side not to move not in check, with a halfmove
 * clock from 90 to 100 (further from the limit, a search without the
 * distances to conversion grows fast: KRK at 85 takes over 20 M nodes). */
static int draw_chess(const gv_t *v, char *fen, size_t n)
{
    static const char pieces[] = "QRPqrp";
    char board[64];
    memset(board, 0, sizeof board);
    int wk = (int)(rng_next() % 64), bk, x;
    do bk = (int)(rng_next() % 64);
    while (bk == wk || (abs(bk / 8 - wk / 8) <= 1 && abs(bk % 8 - wk % 8) <= 1));
    char pc = pieces[rng_next() % 6];
    do x = (int)(rng_next() % 64);
    while (x == wk || x == bk || ((pc == 'P' || pc == 'p') && (x / 8 == 0 || x / 8 == 7)));
    board[wk] = 'K';
    board[bk] = 'k';
    board[x] = pc;
    char rows[80];
    size_t len = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int c = 0; c < 8; c++) {
            char q = board[r * 8 + c];
            if (!q) { empty++; continue; }
            if (empty) rows[len++] = (char)('0' + empty);
            empty = 0;
            rows[len++] = q;
        }
        if (empty) rows[len++] = (char)('0' + empty);
        if (r) rows[len++] = '/';
    }
    rows[len] = 0;
    int side = (int)(rng_next() % 2), clock = 90 + (int)(rng_next() % 11);
    /* the side not to move must not be in check: the same board with it to move */
    char other[128];
    snprintf(other, sizeof other, "%s %c - - %d 60", rows, side ? 'w' : 'b', clock);
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    if (game_pos_parse(v, other, pos, &err) || v->ops->pos_in_check(v, pos)) return 0;
    snprintf(fen, n, "%s %c - - %d 60", rows, side ? 'b' : 'w', clock);
    return !game_pos_parse(v, fen, pos, &err);
}

/* Chess positions checked every run before the random ones: drawn under
 * the rule, where a king move lets the pawn's side win in time (its pawn
 * move starts the count again) while the position alone, without that
 * side's distance to conversion, leaves the move [loss, draw] under the
 * rule; the door took such a move for the best (the mover's upper bound,
 * not the value it is sure of) and the analyst gave it the draw (the
 * slow run, seed 20261202). */
static const char *const chess_fixed[] = {
    "8/8/6p1/6k1/8/5K2/8/8 w - - 94 60",   /* Ke2: a loss in 36 plies, not a draw (Kg3 draws) */
    "8/8/8/8/1p6/3K4/8/1k6 w - - 98 60",   /* Kd2: a loss in 26 */
    "8/2K5/6p1/8/8/8/8/5k2 w - - 92 60",   /* Kb6: a loss in 28 */
    "8/6p1/8/3k4/8/8/5K2/8 w - - 91 60",   /* Ke1: a loss in 46 */
    "8/3K4/6P1/6k1/8/8/8/8 b - - 94 60",   /* Kf4: a loss in 20 */
    "8/8/8/8/6K1/3P4/2k5/8 b - - 93 60",   /* Kb1: a loss in 24 */
    "8/8/K7/8/3P4/k7/8/8 b - - 96 60",     /* Ka2: a loss in 24 */
    "8/8/8/8/P2k4/8/6K1/8 b - - 95 60",    /* Kc3: a loss in 24 */
    /* the clock run out at the root: gsw uci scored the pawn move that
       starts the count again (cp 240 with e2e4) where the rule has drawn */
    "6k1/8/8/8/8/8/4P1K1/8 w - - 100 60",
    "8/1K3p2/8/8/8/3k4/8/8 b - - 100 60",
    "8/8/2p5/8/8/1k6/8/K7 b - - 100 60",
};
#define CHESS_FIXED ((int)(sizeof chess_fixed / sizeof chess_fixed[0]))

/* ---- the three ways ---- */

typedef struct tally {
    int positions, moves, decisive, ruled, cli, uci, bad;
} tally_t;

/* The door, as `gsw solve` opens it: dir's databases (NULL: none). */
static void door_value(gv_t *v, const char *dir, const void *pos, val_t *lo, val_t *hi, move_t *best)
{
    solver_t s;
    err_t err;
    answer_t a;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    assert_int_equal(solver_open_egdb(&s, dir ? dir : "/nonexistent-gsw-egdb", NULL, &err), GSW_OK);
    s.ab.node_limit = 20000000;
    s.no_build = 1;   /* (the mode's files only: no distances to conversion built on demand) */
    if (solver_run(&s, pos, &a, &err)) fail_msg("solve: %s", err.msg);
    if (a.r.aborted) {
        char f[128];
        v->ops->pos_format(v, pos, f, sizeof f);
        fail_msg("the door's solve of %s ran out of its 20 M nodes", f);
    }
    *lo = a.r.lo;
    *hi = a.r.hi;
    *best = a.r.best;
    solver_free(&s);
}

/* Check one position every way but UCI: the door's value (exact, or the
 * result where the rule left the distance open) and the analyst's value of
 * the position and of every move against the brute force. */
static void check_position(gv_t *v, const char *dir, const char *fen, int quiet, tally_t *t)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, fen, pos, &err), GSW_OK);
    if (quiet >= 0) ((ck_pos_t *)pos)->quiet = (uint8_t)quiet;
    brute_value_t b;
    int rc = quiet >= 0 ? brute_checkers(fen, quiet, &b) : brute_chess(fen, &b);
    assert_int_equal(rc, 0);
    val_t want = brute_val(&b), lo, hi;
    move_t best;
    char t1[96], t2[96];
    t->positions++;
    t->decisive += b.outcome != 0;
    door_value(v, dir, pos, &lo, &hi, &best);
    /* exact, or (the rule took a database's distance away) the result alone */
    int agree = lo == hi ? lo == want : lo <= want && want <= hi && (lo > VAL_DRAW || hi < VAL_DRAW);
    if (!agree) {
        printf("DISAGREE %s (clock %d) door: %s, brute force: %s\n", fen, quiet, vtext(lo, hi, t1, sizeof t1),
               vtext(want, want, t2, sizeof t2));
        t->bad++;
    }
    /* the door's best move keeps the value (a draw's too: it must not lose) */
    if (best != MOVE_NONE) {
        brute_value_t cb;
        memcpy(child, pos, O->pos_size);
        O->play(v, child, best);
        char cf[128];
        O->pos_format(v, child, cf, sizeof cf);
        int crc = quiet >= 0 ? brute_checkers(cf, ((ck_pos_t *)child)->quiet, &cb) : brute_chess(cf, &cb);
        if (!crc && -cb.outcome != b.outcome) {
            printf("DISAGREE %s (clock %d) door's best move leads to %s: %s there\n", fen, quiet, cf,
                   cb.outcome > 0 ? "a loss" : cb.outcome < 0 ? "a win" : "a draw");
            t->bad++;
        }
    }
    /* the analyst: the position, then every move */
    static gsw_flag_t no_stop;
    analyst_t a;
    analysis_t *an = malloc(sizeof *an);
    assert_non_null(an);
    assert_int_equal(analyst_open(&a, v, 16, 1, NULL, NULL, &no_stop, &err), GSW_OK);
    assert_int_equal(solver_open_egdb(&a.solver, dir ? dir : "/nonexistent-gsw-egdb", NULL, &err), GSW_OK);
    a.solver.no_build = 1;
    analyst_task_t task = { 0 };
    analyst_list(v, pos, an);
    if (analyst_root(&a, &task, pos, an, &err)) fail_msg("analyst_root: %s", err.msg);
    for (int i; (i = analyst_next(an)) >= 0;)
        if (analyst_prove(&a, &task, pos, an, i, &err)) fail_msg("analyst_prove: %s", err.msg);
    if (an->n > 0 && !(an->root_lo <= want && want <= an->root_hi)) {
        printf("DISAGREE %s (clock %d) analyst: %s, brute force: %s\n", fen, quiet,
               vtext(an->root_lo, an->root_hi, t1, sizeof t1), vtext(want, want, t2, sizeof t2));
        t->bad++;
    }
    /* (a position whose clock has run out ends the game: its moves are not the game's) */
    for (int i = 0; i < an->n && game_count_left(v, pos) > 0; i++) {
        const move_value_t *mv = &an->mv[i];
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv->move);
        char cf[128];
        O->pos_format(v, child, cf, sizeof cf);
        brute_value_t cb;
        int crc = quiet >= 0 ? brute_checkers(cf, ((ck_pos_t *)child)->quiet, &cb) : brute_chess(cf, &cb);
        assert_int_equal(crc, 0);
        val_t cw = val_up(brute_val(&cb));   /* the mover's value */
        t->moves++;
        int exact = mv->lo == mv->hi;
        if (mv->state != MV_PROVEN || !(mv->lo <= cw && cw <= mv->hi) || (!exact && !mv->final)) {
            printf("DISAGREE %s (clock %d) analyst's move %s: %s, brute force: %s\n", fen, quiet, mv->text,
                   mv->state == MV_PROVEN ? vtext(mv->lo, mv->hi, t1, sizeof t1) : "not proven",
                   vtext(cw, cw, t2, sizeof t2));
            t->bad++;
        }
        if (mv->late) {
            printf("DISAGREE %s (clock %d) analyst's move %s is marked late: values are the game's\n", fen, quiet, mv->text);
            t->bad++;
        }
    }
    /* where the rule decided something the position alone would not */
    {
        solver_t s;
        answer_t pa;
        assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
        assert_int_equal(solver_open_egdb(&s, dir ? dir : "/nonexistent-gsw-egdb", NULL, &err), GSW_OK);
        solver_ignore_line(&s);
        s.ab.node_limit = 20000000;
        s.no_build = 1;
        if (!solver_run(&s, pos, &pa, &err) && !pa.r.aborted) t->ruled += !(pa.r.lo <= want && want <= pa.r.hi);
        solver_free(&s);
    }
    analyst_close(&a);
    free(an);
}

/* ---- the command line ---- */

/* Every chess position through `gsw solve --json` as a person runs it (its
 * own process, dir's tablebases; a node budget, so nothing is built): its
 * value against the brute force. */
static void check_cli(gv_t *v, const char *dir, char (*fens)[128], int n, tally_t *t)
{
    const char *bin = getenv("GSW_BIN");
    if (!bin || !*bin) fail_msg("GSW_BIN is not set (the test needs gsw)");
    for (int i = 0; i < n; i++) {
        char cmd[800], out[2048] = "";
        snprintf(cmd, sizeof cmd, "'%s' solve chess '%s' --dir '%s' --no-cache --nodes 20000000 --json 2>/dev/null",
                 bin, fens[i], dir);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t got = fread(out, 1, sizeof out - 1, p);
        out[got] = 0;
        pclose(p);
        brute_value_t b;
        assert_int_equal(brute_chess(fens[i], &b), 0);
        const char *vv = strstr(out, "\"value\":\""), *pp = strstr(out, "\"plies\":");
        int plies = -1;
        if (pp) sscanf(pp + 8, "%d", &plies);
        const char *want = b.outcome > 0 ? "win" : b.outcome < 0 ? "loss" : "draw";
        int ok = vv && !strncmp(vv + 9, want, strlen(want)) && (b.outcome == 0 || plies < 0 || plies == b.plies);
        t->cli++;
        if (!ok) {
            printf("DISAGREE %s gsw solve: %.200s; brute force: %s in %d plies\n", fens[i], out, want, b.plies);
            t->bad++;
        }
    }
    (void)v;
}

/* ---- gsw uci ---- */

/* The last "info depth D ... score" of each go in out, in order: its kind
 * ('c' cp, 'm' mate), value and depth, and the bestmove. Returns how many
 * were read. */
static int uci_read(FILE *f, char *kind, int *score, int *depth, char (*best)[8], int max)
{
    char line[4096];
    int n = 0;
    char k = 0;
    int sc = 0, dp = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, " score ");
        if (!strncmp(line, "info depth", 10) && p) {
            if (sscanf(p, " score cp %d", &sc) == 1) k = 'c';
            else if (sscanf(p, " score mate %d", &sc) == 1) k = 'm';
            if (sscanf(line, "info depth %d", &dp) != 1) dp = 0;
        }
        if (!strncmp(line, "bestmove ", 9)) {
            kind[n] = k;
            score[n] = sc;
            depth[n] = dp;
            sscanf(line + 9, "%7s", best[n]);
            n++;
            k = 0;
            dp = 0;
        }
    }
    return n;
}

/* The brute force's value of a chess FEN with its halfmove clock set to 0:
 * the value the move-count rule leaves alone. */
static int brute_chess_fresh(const char *fen, brute_value_t *b)
{
    char f[128];
    snprintf(f, sizeof f, "%s", fen);
    char *sp = f;   /* the fifth field: after the fourth space */
    for (int i = 0; i < 4 && sp; i++) sp = strchr(sp + 1, ' ');
    if (!sp) return -1;
    char *end = strchr(sp + 1, ' ');
    if (!end) return -1;
    char g[128];
    snprintf(g, sizeof g, "%.*s 0%s", (int)(sp - f), f, end);
    return brute_chess(g, b);
}

/* Every chess position through one `gsw uci` with go nodes N: its claims
 * against the brute force. */
static void check_uci(gv_t *v, char (*fens)[128], int n, tally_t *t)
{
    const char *bin = getenv("GSW_BIN");
    if (!bin || !*bin) fail_msg("GSW_BIN is not set (the test needs gsw uci)");
    char in[] = "/tmp/gsw-clock-uci-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "uci\nsetoption name Hash value 16\n");
    for (int i = 0; i < n; i++) fprintf(f, "ucinewgame\nposition fen %s\ngo nodes 20000\n", fens[i]);
    fprintf(f, "ucinewgame\nquit\n");   /* (ucinewgame waits for the last search; quit would stop it) */
    fclose(f);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' uci < '%s'", bin, in);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *kind = calloc((size_t)n, 1), (*best)[8] = calloc((size_t)n, sizeof *best);
    int *score = calloc((size_t)n, sizeof *score), *depth = calloc((size_t)n, sizeof *depth);
    int got = uci_read(p, kind, score, depth, best, n);
    int st = pclose(p);
    unlink(in);
    assert_int_equal(st, 0);
    assert_int_equal(got, n);
    const game_ops_t *O = v->ops;
    for (int i = 0; i < n; i++) {
        brute_value_t b;
        assert_int_equal(brute_chess(fens[i], &b), 0);
        GSW_POSBUF pos[GSW_MAX_POS];
        err_t err;
        assert_int_equal(game_pos_parse(v, fens[i], pos, &err), GSW_OK);
        int left = game_count_left(v, pos);
        const char *why = NULL;
        if (kind[i] == 'm' && score[i] > 0 && !(b.outcome > 0 && b.plies <= 2 * score[i] - 1)) why = "claims a mate";
        else if (kind[i] == 'm' && score[i] < 0 && !(b.outcome < 0 && b.plies <= -2 * score[i])) why = "claims to be mated";
        else if (b.outcome == 0 && left <= 4 && !(kind[i] == 'c' && score[i] == 0)) {
            /* the rule's draw (the same position on a fresh clock is won or
               lost): the search meets it within its horizon. A draw by
               chess itself (a pawn ending whose pawn move starts the count
               again) is the evaluation's to judge, not the clock's. */
            brute_value_t fresh;
            assert_int_equal(brute_chess_fresh(fens[i], &fresh), 0);
            if (fresh.outcome != 0 || left == 0) why = "does not score the draw 0";
        } else if (b.outcome > 0 && b.plies <= depth[i]) {   /* its move keeps a win within the depth it searched */
            move_t m;
            if (O->move_parse(v, pos, best[i], &m, &err)) why = "plays an illegal move";
            else {
                GSW_POSBUF c[GSW_MAX_POS];
                memcpy(c, pos, O->pos_size);
                O->play(v, c, m);
                char cf[128];
                brute_value_t cb;
                O->pos_format(v, c, cf, sizeof cf);
                if (!brute_chess(cf, &cb) && cb.outcome >= 0) why = "throws the win away";
            }
        }
        t->uci++;
        if (why) {
            printf("DISAGREE %s uci %s: score %s %d, bestmove %s; brute force: %s in %d plies\n", fens[i], why,
                   kind[i] == 'm' ? "mate" : "cp", score[i], best[i],
                   b.outcome > 0 ? "win" : b.outcome < 0 ? "loss" : "draw", b.plies);
            t->bad++;
        }
    }
    free(kind);
    free(best);
    free(score);
    free(depth);
}

/* ---- the test ---- */

static void build(gv_t *v, const char *dir, const char *slice, retro_metric_t m)
{
    egdb_set_t *set;
    err_t err;
    uint64_t s;
    egdb_build_report_t rep;
    assert_int_equal(egdb_set_open(v, dir, &set, &err), GSW_OK);
    if (slice) assert_int_equal(v->ops->retro->slice_parse(v, slice, &s, &err), GSW_OK);
    egdb_build_options_t bo = { .for_slice = slice ? &s : NULL, .pieces = slice ? 0 : 3, .metric = m, .threads = 2 };
    if (egdb_build(set, &bo, &rep, &err)) fail_msg("egdb build %s: %s", slice ? slice : "3 pieces", err.msg);
    egdb_set_close(set);
}

static void test_clock(void **st)
{
    (void)st;
    int slow = getenv("GSW_SLOW") && atoi(getenv("GSW_SLOW")) > 0;
    rng_state = getenv("GSW_DIFF_SEED") ? strtoull(getenv("GSW_DIFF_SEED"), NULL, 0) : 20261202;
    char dtm[] = "/tmp/gsw-clock-dtm-XXXXXX", dtc[] = "/tmp/gsw-clock-dtc-XXXXXX", ck[] = "/tmp/gsw-clock-ck-XXXXXX",
         ckc[] = "/tmp/gsw-clock-ckc-XXXXXX";
    assert_non_null(mkdtemp(dtm));
    assert_non_null(mkdtemp(dtc));
    assert_non_null(mkdtemp(ck));
    assert_non_null(mkdtemp(ckc));
    gv_t *chess, *checkers;
    err_t err;
    assert_int_equal(game_open("chess", &chess, &err), GSW_OK);
    assert_int_equal(game_open("checkers", &checkers, &err), GSW_OK);
    static const char *const endings[] = { "KQK", "KRK", "KPK" };
    for (int i = 0; i < 3; i++) {
        build(chess, dtm, endings[i], RETRO_DTW);
        build(chess, dtc, endings[i], RETRO_DTW);
        build(chess, dtc, endings[i], RETRO_DTC);
    }
    /* (checkers without databases: a search of three pieces with men,
       each man's move a fresh count, can take more than 20 M nodes) */
    build(checkers, ck, NULL, RETRO_DTW);
    build(checkers, ckc, NULL, RETRO_DTW);
    build(checkers, ckc, NULL, RETRO_DTC);

    int nchess = CHESS_FIXED + (slow ? 300 : 40), nck = slow ? 200 : 24;
    char (*fens)[128] = calloc((size_t)(nchess > nck ? nchess : nck), sizeof *fens);
    assert_non_null(fens);
    int bad = 0, ruled = 0, decisive = 0;
    /* chess */
    for (int i = 0; i < CHESS_FIXED; i++) snprintf(fens[i], sizeof fens[i], "%s", chess_fixed[i]);
    for (int got = CHESS_FIXED, tries = 0; got < nchess; tries++) {
        assert_true(tries < 100000);
        got += draw_chess(chess, fens[got], sizeof fens[got]);
    }
    for (int k = 0; k < 2; k++) {
        tally_t t = { 0 };
        double t0 = gsw_now_ms();
        for (int i = 0; i < nchess; i++) check_position(chess, k ? dtc : dtm, fens[i], -1, &t);
        check_cli(chess, k ? dtc : dtm, fens, nchess, &t);
        if (k == 0) check_uci(chess, fens, nchess, &t);
        printf("[ clock     ] chess, tablebases %-8s %3d positions (%3d won or lost, %3d the rule decides), %4d moves, "
               "%3d through gsw solve, %3d through uci, %d disagreements, %6.0f ms\n", k ? "dtm+dtc:" : "dtm:", t.positions,
               t.decisive, t.ruled, t.moves, t.cli, t.uci, t.bad, gsw_now_ms() - t0);
        bad += t.bad;
        ruled += t.ruled;
        decisive += t.decisive;
    }
    /* checkers: three pieces, 70 to 80 plies without a capture or a man's move */
    for (int i = 0; i < nck; i++) {
        do checkers_random_fen(rng_next, 3, fens[i], sizeof fens[i]);
        while (strlen(fens[i]) < 5);
    }
    int *quiet = calloc((size_t)nck, sizeof *quiet);
    assert_non_null(quiet);
    for (int i = 0; i < nck; i++) quiet[i] = 70 + (int)(rng_next() % 11);
    for (int k = 0; k < 2; k++) {
        tally_t t = { 0 };
        double t0 = gsw_now_ms();
        for (int i = 0; i < nck; i++) check_position(checkers, k ? ckc : ck, fens[i], quiet[i], &t);
        printf("[ clock     ] checkers, %-13s %3d positions (%3d won or lost, %3d the rule decides), %4d moves, "
               "%d disagreements, %6.0f ms\n", k ? "dtw+dtc:" : "dtw:", t.positions, t.decisive, t.ruled, t.moves,
               t.bad, gsw_now_ms() - t0);
        bad += t.bad;
        ruled += t.ruled;
        decisive += t.decisive;
    }
    free(quiet);
    free(fens);
    game_close(chess);
    game_close(checkers);
    brute_free();
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s' '%s'", dtm, dtc, ck, ckc);
    if (system(cmd)) printf("could not remove the databases\n");
    fflush(stdout);
    if (bad) fail_msg("%d disagreements with the brute force (see DISAGREE lines above)", bad);
    assert_true(decisive > 0);   /* the positions held wins and losses, */
    assert_true(ruled > 0);      /* and values the rule changes */
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Peg solitaire: published figures (tests/data/README.md) for the triangle
 * in the default run and for the English board with GSW_SOL_ENGLISH set
 * (label "release": seconds in a Release build); counts and fewest moves
 * on small boards checked against naive enumeration written here; the
 * single-agent search against the sweep; boards, names, symmetries, the
 * view, bad input and the heuristic players. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/puzzle.h"

static gv_t *open_ok(const char *spec)
{
    gv_t *v = NULL;
    err_t err;
    int rc = game_open(spec, &v, &err);
    if (rc) fprintf(stderr, "%s: %s\n", spec, err.msg);
    assert_int_equal(rc, GSW_OK);
    return v;
}

static puzzle_sweep_t *sweep(const gv_t *v, const char *ptext, int what)
{
    static puzzle_sweep_t sw;
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    memset(&sw, 0, sizeof sw);
    sw.what = what;
    assert_int_equal(game_pos_parse(v, ptext, pos, &err), GSW_OK);
    assert_int_equal(v->ops->puzzle_sweep(v, pos, &sw, &err), GSW_OK);
    assert_false(sw.aborted);
    return &sw;
}

static uint64_t total(const puzzle_sweep_t *sw, int folded)
{
    uint64_t t = 0;
    for (int l = 0; l < sw->levels; l++) t += folded ? sw->folded[l] : sw->positions[l];
    return t;
}

/* Replay moves from pos; returns 1 if every move was legal and the goal is met at the end. */
static int replay_reaches_goal(const gv_t *v, const void *pos, const move_t *mv, int n)
{
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, pos, v->ops->pos_size);
    for (int i = 0; i < n; i++) {
        move_t legal[GSW_MAX_MOVES];
        int k = v->ops->moves(v, cur, legal), ok = 0;
        for (int j = 0; j < k; j++) ok |= legal[j] == mv[i];
        if (!ok) return 0;
        v->ops->play(v, cur, mv[i]);
    }
    return v->ops->puzzle_goal(v, cur);
}

/* Facts: the 15-hole triangle, one hole vacant, goal any single peg (durangobill.com, OEIS A127500). */
static const struct { int hole; uint64_t solutions; int min_moves; } triangle_facts[] = {
    { 1, 29760, 10 }, { 11, 29760, 10 }, { 15, 29760, 10 }, { 2, 14880, -1 }, { 3, 14880, -1 }, { 7, 14880, -1 },
    { 10, 14880, -1 }, { 12, 14880, -1 }, { 14, 14880, -1 }, { 4, 85258, 9 }, { 6, 85258, 9 }, { 13, 85258, 9 },
    { 5, 1550, -1 }, { 8, 1550, -1 }, { 9, 1550, -1 },
};

static void test_triangle_counts(void **state)
{
    (void)state;
    int best = 100;
    for (size_t i = 0; i < sizeof triangle_facts / sizeof *triangle_facts; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "solitaire:triangle,start=%d,goal=any", triangle_facts[i].hole);
        gv_t *v = open_ok(spec);
        puzzle_sweep_t *sw = sweep(v, "", SWEEP_SOLUTIONS);
        assert_true(sw->solutions == triangle_facts[i].solutions);
        sw = sweep(v, "", SWEEP_MIN_MOVES);
        if (triangle_facts[i].min_moves > 0) assert_int_equal(sw->min_moves, triangle_facts[i].min_moves);
        if (sw->min_moves < best) best = sw->min_moves;
        /* the shortest solution is a real one, with that many moves */
        GSW_POSBUF pos[GSW_MAX_POS];
        v->ops->pos_start(v, pos);
        assert_true(replay_reaches_goal(v, pos, sw->path, sw->npath));
        int moves = 1;
        for (int k = 1; k < sw->npath; k++) moves += !v->ops->move_continues(v, sw->path[k - 1], sw->path[k]);
        assert_int_equal(moves, sw->min_moves);
        /* the search agrees that it is solvable */
        puzzle_result_t *r = malloc(sizeof *r);
        err_t err;
        assert_int_equal(puzzle_solve(v, pos, NULL, r, &err), GSW_OK);
        assert_int_equal(r->solvable, 1);
        assert_true(replay_reaches_goal(v, pos, r->moves, r->nmoves));
        free(r);
        game_close(v);
    }
    assert_int_equal(best, 9);   /* the shortest of all: 9 moves */
}

/* Naive counts by plain recursion over the generic ops, for small boards. */
static uint64_t naive_solutions(const gv_t *v, const void *pos)
{
    if (v->ops->puzzle_goal(v, pos)) return 1;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv);
    uint64_t t = 0;
    GSW_POSBUF c[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(c, pos, v->ops->pos_size);
        v->ops->play(v, c, mv[i]);
        t += naive_solutions(v, c);
    }
    return t;
}

/* Fewest moves (chains count once) by trying every jump sequence. */
static int naive_min_moves(const gv_t *v, const void *pos, move_t last, int moves)
{
    if (v->ops->puzzle_goal(v, pos)) return moves;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv), best = -1;
    GSW_POSBUF c[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(c, pos, v->ops->pos_size);
        v->ops->play(v, c, mv[i]);
        int m = naive_min_moves(v, c, mv[i], moves + (last == MOVE_NONE || !v->ops->move_continues(v, last, mv[i])));
        if (m >= 0 && (best < 0 || m < best)) best = m;
    }
    return best;
}

/* Distinct positions reachable (no folding), by recursion with a small set. */
static uint64_t seen[1 << 16];
static int naive_positions(const gv_t *v, uint64_t p, int *count)
{
    uint64_t h = p * 0x9E3779B97F4A7C15ull >> 48;
    while (seen[h] && seen[h] != p) h = (h + 1) & 0xffff;
    if (seen[h]) return 0;
    seen[h] = p;
    (*count)++;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, &p, mv);
    for (int i = 0; i < n; i++) {
        uint64_t q = p;
        v->ops->play(v, &q, mv[i]);
        naive_positions(v, q, count);
    }
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void check_small(const char *spec, const char *ptext, int *solvable_seen)
{
    gv_t *v = open_ok(spec);
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, ptext, pos, &err), GSW_OK);
    puzzle_sweep_t *sw = sweep(v, ptext, SWEEP_SOLUTIONS);
    uint64_t naive = naive_solutions(v, pos);
    assert_true(sw->solutions == naive);
    *solvable_seen += naive > 0;
    sw = sweep(v, ptext, SWEEP_MIN_MOVES);
    assert_int_equal(sw->min_moves, naive_min_moves(v, pos, MOVE_NONE, 0));
    if (naive) assert_true(replay_reaches_goal(v, pos, sw->path, sw->npath));
    sw = sweep(v, ptext, SWEEP_POSITIONS);
    int count = 0;
    memset(seen, 0, sizeof seen);
    naive_positions(v, *(uint64_t *)pos, &count);
    assert_true(total(sw, 0) == (uint64_t)count);
    assert_true(total(sw, 1) <= total(sw, 0));
    puzzle_result_t *r = malloc(sizeof *r);
    assert_int_equal(puzzle_solve(v, pos, NULL, r, &err), GSW_OK);
    assert_int_equal(r->solvable, naive > 0);
    if (naive) assert_true(replay_reaches_goal(v, pos, r->moves, r->nmoves));
    /* without the static pruning the search gives the same verdict */
    puzzle_options_t o = { .no_prune = 1 };
    assert_int_equal(puzzle_solve(v, pos, &o, r, &err), GSW_OK);
    assert_int_equal(r->solvable, naive > 0);
    free(r);
    game_close(v);
}

static void test_small_boards(void **state)
{
    (void)state;
    static const char *const arts[] = {
        "oo.o\n",                               /* a line: one solution */
        "ooo\no.o\nooo\n",                      /* 3x3, centre vacant */
        "oooo\noooo\no.oo\noooo\n",              /* 4x4 */
        "   .\n  o o\n o o o\no o o o\n",        /* the 10-hole triangle */
    };
    static const char *const goals[] = { "", ",goal=any", ",left=2" };
    int solvable = 0;
    char path[] = "/tmp/gsw_sol_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    for (size_t i = 0; i < sizeof arts / sizeof *arts; i++) {
        write_file(path, arts[i]);
        for (int g = 0; g < 3; g++) {
            char spec[128];
            snprintf(spec, sizeof spec, "solitaire:board=%s%s", path, goals[g]);
            check_small(spec, "", &solvable);
        }
    }
    close(fd);
    remove(path);
    /* positions with few pegs on the big boards: a plus sign, a triangle corner */
    for (int g = 0; g < 3; g++) {
        char spec[64];
        snprintf(spec, sizeof spec, "solitaire:english%s", goals[g]);
        check_small(spec, ".../.o./...o.../.ooooo./...o.../.o./...", &solvable);
        snprintf(spec, sizeof spec, "solitaire:wiegleb%s", goals[g]);
        check_small(spec, ".../.../.o./....o..../..ooooo../....o..../.o./.../...", &solvable);
    }
    check_small("solitaire:triangle,goal=any", "./oo/ooo/.o.o/o.o.o", &solvable);
    check_small("solitaire:triangle,left=3", "./oo/ooo/.o.o/o.o.o", &solvable);
    assert_true(solvable >= 6);
}

/* The endgame table (built backwards from the goal) against the sweep
 * (forwards from the start): every start and goal hole of the triangle. */
static void test_endgame_table(void **state)
{
    (void)state;
    int yes = 0, no = 0;
    for (int start = 1; start <= 15; start++)
        for (int goal = 1; goal <= 15; goal++) {
            char spec[64];
            snprintf(spec, sizeof spec, "solitaire:triangle,start=%d,goal=%d", start, goal);
            gv_t *v = open_ok(spec);
            puzzle_sweep_t *sw = sweep(v, "", SWEEP_SOLUTIONS);
            int solvable = sw->solutions > 0;
            v->ops->puzzle_prepare(v);
            GSW_POSBUF pos[GSW_MAX_POS];
            v->ops->pos_start(v, pos);
            char reason[160];
            assert_int_equal(puzzle_hopeless(v, pos, reason, sizeof reason), !solvable);
            puzzle_result_t *r = malloc(sizeof *r);
            err_t err;
            assert_int_equal(puzzle_solve(v, pos, NULL, r, &err), GSW_OK);
            assert_int_equal(r->solvable, solvable);
            if (solvable) assert_true(replay_reaches_goal(v, pos, r->moves, r->nmoves));
            free(r);
            yes += solvable;
            no += !solvable;
            game_close(v);
        }
    assert_true(yes > 0 && no > 0);
}

static void test_french_impossible(void **state)
{
    (void)state;
    gv_t *v = open_ok("solitaire:french");
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    puzzle_result_t *r = malloc(sizeof *r);
    err_t err;
    assert_int_equal(puzzle_solve(v, pos, NULL, r, &err), GSW_OK);
    assert_int_equal(r->solvable, 0);
    assert_non_null(strstr(r->reason, "class"));
    char reason[160];
    assert_int_equal(puzzle_hopeless(v, pos, reason, sizeof reason), 1);
    assert_true(r->time_ms < 1000);
    free(r);
    game_close(v);
    /* ... while the English board is not ruled out, and is solved */
    v = open_ok("solitaire:english");
    v->ops->pos_start(v, pos);
    assert_int_equal(puzzle_hopeless(v, pos, reason, sizeof reason), 0);
    r = malloc(sizeof *r);
    assert_int_equal(puzzle_solve(v, pos, NULL, r, &err), GSW_OK);
    assert_int_equal(r->solvable, 1);
    assert_int_equal(r->nmoves, 31);
    assert_true(replay_reaches_goal(v, pos, r->moves, r->nmoves));
    /* a stop flag already set stops at once, unknown */
    gsw_flag_t stop = 1;
    puzzle_options_t o = { .stop = &stop };
    assert_int_equal(puzzle_solve(v, pos, &o, r, &err), GSW_OK);
    assert_int_equal(r->solvable, -1);
    free(r);
    game_close(v);
}

static void test_boards_and_names(void **state)
{
    (void)state;
    static const struct { const char *spec; int holes, nsym; const char *centre; } boards[] = {
        { "solitaire:english", 33, 8, "d4" }, { "solitaire:french", 37, 8, "d4" },
        { "solitaire:wiegleb", 45, 8, "e5" }, { "solitaire:triangle,start=5+8+9", 15, 6, NULL },
        { "solitaire:english,goal=c4", 33, 2, NULL },
    };
    for (size_t i = 0; i < sizeof boards / sizeof *boards; i++) {
        gv_t *v = open_ok(boards[i].spec);
        GSW_POSBUF pos[GSW_MAX_POS];
        v->ops->pos_start(v, pos);
        assert_int_equal(game_nsym(v), boards[i].nsym);
        char text[256];
        v->ops->pos_format(v, pos, text, sizeof text);
        int holes = 0, pegs = 0;
        for (char *c = text; *c; c++) { holes += *c != '/'; pegs += *c == 'o'; }
        assert_int_equal(holes, boards[i].holes);
        if (boards[i].centre) {   /* the centre is the one vacant hole, and its name parses */
            assert_int_equal(pegs, boards[i].holes - 1);
            GSW_POSBUF back[GSW_MAX_POS];
            err_t err;
            assert_int_equal(game_pos_parse(v, boards[i].centre, back, &err), GSW_OK);
            assert_memory_equal(back, pos, v->ops->pos_size);
        }
        game_close(v);
    }
    /* English: the first jumps into d4, by name */
    gv_t *v = open_ok("solitaire:english");
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    err_t err;
    move_t m;
    assert_int_equal(v->ops->move_parse(v, pos, "d2-d4", &m, &err), GSW_OK);
    assert_int_equal(v->ops->move_parse(v, pos, "d1-d3", &m, &err), GSW_EINPUT);
    assert_int_equal(v->ops->move_parse(v, pos, "z9-d4", &m, &err), GSW_EINPUT);
    move_t mv[GSW_MAX_MOVES];
    assert_int_equal(v->ops->moves(v, pos, mv), 4);
    /* the view: pegs are neutral pieces, the centre a hole, corners off the board, four classes */
    static board_view_t bv;
    v->ops->view(v, pos, &bv);
    assert_int_equal(bv.rows, 7);
    assert_int_equal(bv.cols, 7);
    assert_int_equal(bv.cell[3 * 7 + 3].kind, VIEW_EMPTY);
    assert_int_equal(bv.cell[0].kind, VIEW_OFF);
    assert_int_equal(bv.cell[2].kind, VIEW_PIECE);
    assert_int_equal(bv.cell[2].owner, 2);
    assert_string_equal(bv.tag_name, "piece classes");
    int tags[5] = { 0 };
    for (int i = 0; i < 49; i++)
        if (bv.cell[i].kind != VIEW_OFF) tags[bv.cell[i].tag]++;
    assert_int_equal(tags[0], 0);
    assert_int_equal(tags[1] + tags[2] + tags[3] + tags[4], 33);
    assert_int_equal(tags[4], 5);   /* odd row, odd column (0-based): the centre's class */
    int from, to;
    v->ops->move_cells(v, pos, m, &from, &to);
    assert_int_equal(from, 1 * 7 + 3);
    assert_int_equal(to, 3 * 7 + 3);
    game_close(v);
    /* the triangle names holes 1..15 from the apex */
    v = open_ok("solitaire:triangle");
    v->ops->pos_start(v, pos);
    assert_int_equal(v->ops->move_parse(v, pos, "4-1", &m, &err), GSW_OK);
    assert_int_equal(v->ops->move_parse(v, pos, "6-1", &m, &err), GSW_OK);
    assert_int_equal(v->ops->moves(v, pos, mv), 2);
    assert_int_equal(game_nsym(v), 6);
    game_close(v);
}

static void test_bad_boards(void **state)
{
    (void)state;
    static const struct { const char *art, *spec_tail, *needle; } bad[] = {
        { "ooo\n\n   ooo\n", "", "disconnected" },
        { "...\n...\n", "", "no pegs" },
        { "oo?o\n", "", "'?'" },
        { "ooo\no.o\nooo\n", ",start=z9", "z9" },
        { "ooo\no.o\nooo\n", ",goal=q1", "q1" },
        { "ooo\no.o\nooo\n", ",left=0", "left" },
        { "\n\n", "", "no holes" },
        { "oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo\n", "", "64" },
    };
    char path[] = "/tmp/gsw_sol_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_file(path, bad[i].art);
        char spec[128];
        snprintf(spec, sizeof spec, "solitaire:board=%s%s", path, bad[i].spec_tail);
        gv_t *v;
        err_t err;
        assert_int_equal(game_open(spec, &v, &err), GSW_EINPUT);
        if (!strstr(err.msg, bad[i].needle)) fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err.msg, bad[i].needle);
        assert_non_null(strstr(err.msg, bad[i].needle));
    }
    close(fd);
    remove(path);
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("solitaire:hexagon", &v, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "hexagon"));
    assert_int_equal(game_open("solitaire:english,colour=red", &v, &err), GSW_EINPUT);
    assert_int_equal(game_open("solitaire:board=/nonexistent/board.txt", &v, &err), GSW_EINPUT);
    v = open_ok("solitaire:english");
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, "x9", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "x9"));
    assert_int_equal(game_pos_parse(v, "ooo/ooo", pos, &err), GSW_EINPUT);
    game_close(v);
}

static void test_players(void **state)
{
    (void)state;
    gv_t *v = open_ok("solitaire:english");
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    static move_t mv[PUZZLE_MAX_MOVES];
    int pegs_left[8] = { 0 };
    for (int i = 0; v->ops->puzzle_players[i]; i++) {
        int n = 0;
        err_t err;
        assert_int_equal(v->ops->puzzle_play(v, pos, v->ops->puzzle_players[i], mv, PUZZLE_MAX_MOVES, &n, &err),
                         GSW_OK);
        GSW_POSBUF cur[GSW_MAX_POS];
        memcpy(cur, pos, v->ops->pos_size);
        for (int k = 0; k < n; k++) {
            move_t legal[GSW_MAX_MOVES];
            int nl = v->ops->moves(v, cur, legal), ok = 0;
            for (int j = 0; j < nl; j++) ok |= legal[j] == mv[k];
            assert_true(ok);
            v->ops->play(v, cur, mv[k]);
        }
        move_t legal[GSW_MAX_MOVES];
        assert_int_equal(v->ops->moves(v, cur, legal), 0);   /* played to the end */
        pegs_left[i] = 32 - n;
    }
    assert_true(pegs_left[4] == 1);   /* the class-based player finds a single-peg finish */
    assert_true(pegs_left[0] > pegs_left[4]);
    int n;
    err_t err;
    assert_int_equal(v->ops->puzzle_play(v, pos, "oracle", mv, PUZZLE_MAX_MOVES, &n, &err), GSW_EINPUT);
    game_close(v);
}

/* The English board (FACTS: OEIS A112737; G. Bell, arXiv 0903.3696; Beasley). */
static void test_english_positions(void **state)
{
    (void)state;
    gv_t *v = open_ok("solitaire:english");
    puzzle_sweep_t *sw = sweep(v, "", SWEEP_POSITIONS);
    assert_true(total(sw, 0) == 187636299ull);
    assert_true(total(sw, 1) == 23475688ull);
    game_close(v);
}

static void test_english_solutions(void **state)
{
    (void)state;
    gv_t *v = open_ok("solitaire:english");
    puzzle_sweep_t *sw = sweep(v, "", SWEEP_SOLUTIONS);
    assert_true(sw->solutions == (unsigned __int128)40861647040079968ull);
    game_close(v);
}

static void test_english_min_moves(void **state)
{
    (void)state;
    gv_t *v = open_ok("solitaire:english");
    puzzle_sweep_t *sw = sweep(v, "", SWEEP_MIN_MOVES);
    assert_int_equal(sw->min_moves, 18);
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    assert_true(replay_reaches_goal(v, pos, sw->path, sw->npath));
    game_close(v);
}

int main(void)
{
    const char *english = getenv("GSW_SOL_ENGLISH");   /* positions, solutions or minmoves */
    if (english && *english) {
        const struct CMUnitTest pos[] = { cmocka_unit_test(test_english_positions) };
        const struct CMUnitTest sol[] = { cmocka_unit_test(test_english_solutions) };
        const struct CMUnitTest mm[] = { cmocka_unit_test(test_english_min_moves) };
        if (!strcmp(english, "positions")) return cmocka_run_group_tests(pos, NULL, NULL);
        if (!strcmp(english, "solutions")) return cmocka_run_group_tests(sol, NULL, NULL);
        if (!strcmp(english, "minmoves")) return cmocka_run_group_tests(mm, NULL, NULL);
        fprintf(stderr, "GSW_SOL_ENGLISH: expected positions, solutions or minmoves\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_counts),
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_endgame_table),
        cmocka_unit_test(test_french_impossible),
        cmocka_unit_test(test_boards_and_names),
        cmocka_unit_test(test_bad_boards),
        cmocka_unit_test(test_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

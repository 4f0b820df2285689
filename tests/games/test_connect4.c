/* Connect Four: the reference test sets give their published scores, small
 * boards their published values and position counts, and the engines (fixed
 * 7x6, one word, two words; specialised and generic search) agree. Set
 * GSW_SLOW=1 for the opt-in boards (7x4, 6x5, 7x5, 6x6).
 *
 * The heaviest checks are split in two: the default entry (every build,
 * the sanitizers' too) takes a share, and GSW_C4_RELEASE=1 (the release-
 * labelled entry) runs only the rest: 6x5's first plies, 30 more random
 * 7x6 positions across the engines, the middle-medium set's lines that
 * are not every fourth, and the beginning-hard set's second position.
 * Under the sanitizers the whole took about two minutes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/game.h"
#include "games/connect4/c4.h"

static tt_t tt;

static gv_t *open_variant(const char *spec)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    return v;
}

static int static_always;   /* solve() looks at children's static bounds at every node */
static int halving_only;    /* ... narrows by halving at every ply */
static int threads = 1;
/* the release entry: the heavy checks' remainder alone */
static int release_run(void) { const char *e = getenv("GSW_C4_RELEASE"); return e && atoi(e); }

static val_t solve(const gv_t *v, const void *pos, int clear)
{
    ab_options_t o = { .threads = threads, .no_best = 1, .static_always = static_always, .halving_only = halving_only };
    ab_result_t r;
    err_t err;
    if (clear) tt_clear(&tt);
    assert_int_equal(ab_solve(v, &tt, pos, &o, &r, &err), GSW_OK);
    assert_false(r.aborted);
    assert_int_equal(r.lo, r.hi);
    return r.lo;
}

/* Solve every `step`-th line of a reference set from line `first` (0-based),
 * at most `limit`; all must match. */
static void check_set_from(const char *name, int first, int step, int limit)
{
    char path[1024];
    const char *dir = getenv("GSW_TEST_DATA");
    snprintf(path, sizeof path, "%s/connect4/%s", dir ? dir : "tests/data", name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    gv_t *v = open_variant("connect4");
    char line[256], moves[128];
    int expected, k = 0, checked = 0;
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    while (fgets(line, sizeof line, f) && checked < limit) {
        const int i = k++;
        if (i < first || (i - first) % step) continue;
        assert_int_equal(sscanf(line, "%127s %d", moves, &expected), 2);
        assert_int_equal(game_pos_parse(v, moves, pos, &err), GSW_OK);
        val_t val = solve(v, pos, 0);
        int score;
        assert_true(v->ops->value_score(v, pos, val, &score));
        if (score != expected) fail_msg("%s line %d (%s): score %d, expected %d", name, k, moves, score, expected);
        checked++;
    }
    fclose(f);
    game_close(v);
    assert_true(checked > 0);
}

static void check_set(const char *name, int step, int limit) { check_set_from(name, 0, step, limit); }

static void test_end_easy(void **s) { (void)s; check_set("Test_L3_R1", 1, 1000); }
static void test_middle_easy(void **s) { (void)s; check_set("Test_L2_R1", 1, 1000); }
/* (every fourth line here, the other three in four in the release entry) */
static void test_middle_medium(void **s) { (void)s; check_set("Test_L2_R2", 4, 250); }
static void test_middle_medium_rest(void **s)
{
    (void)s;
    for (int first = 1; first < 4; first++) check_set_from("Test_L2_R2", first, 4, 250);
}
static void test_begin_easy(void **s) { (void)s; check_set("Test_L1_R1", 4, 250); }
static void test_begin_medium(void **s) { (void)s; check_set("Test_L1_R2", 100, 10); }
static void test_begin_hard(void **s) { (void)s; check_set("Test_L1_R3", 500, 1); }
static void test_begin_hard_rest(void **s) { (void)s; check_set_from("Test_L1_R3", 500, 500, 1); }
/* the static look at children (by default only in big searches) at every node */
static void test_static_look(void **s)
{
    (void)s;
    static_always = 1;
    check_set("Test_L2_R2", 10, 100);
    check_set("Test_L1_R2", 200, 5);
    static_always = 0;
}

/* Two threads share the table and put off the children the other is
 * searching (ab_exact.h): the same values, the table kept between
 * positions and the threads racing on it; with and without the static
 * look. */
static void test_two_threads(void **s)
{
    threads = 2;
    check_set("Test_L2_R2", 20, 50);
    check_set("Test_L1_R2", 50, 20);
    test_static_look(s);
    threads = 1;
}

/* Published values of empty boards (FACTS: Tromp; Steininger's tables). */
static void check_board(const char *spec, outcome_t outcome, int end_stone)
{
    gv_t *v = open_variant(spec);
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    val_t val = solve(v, pos, 1);
    gvalue_t g = gvalue_from_val(val, BOUND_EXACT);
    if (g.outcome == OUTCOME_DRAW) g.plies = v->ops->draw_plies(v, pos);
    if (g.outcome != outcome || g.plies != end_stone)
        fail_msg("%s: %s in %d plies, expected %s in %d", spec, outcome_name(g.outcome), g.plies,
                 outcome_name(outcome), end_stone);
    game_close(v);
}

static void test_small_boards(void **s)
{
    (void)s;
    check_board("connect4:4x4", OUTCOME_DRAW, 16);
    check_board("connect4:5x4", OUTCOME_DRAW, 20);
    check_board("connect4:6x4", OUTCOME_LOSS, 24);   /* the second player wins */
    check_board("connect4:5x5", OUTCOME_DRAW, 25);
}

/* The first plies' tests go by the sign first, then by halving (ab.c);
 * from the third ply on, and with halving_only, by halving alone. Every
 * position of plies 0-2 of boards whose values there include wins, draws
 * and losses, fast and slow, valued both ways (each with a fresh table),
 * must get the same value. */
static void check_first_plies(const char *spec, int ply, const void *pos, gv_t *v, int *decisive)
{
    move_t mv[GSW_MAX_MOVES];
    val_t tv;
    if (ply > 2 || v->ops->terminal(v, pos, &tv)) return;
    val_t sign = solve(v, pos, 1);
    halving_only = 1;
    val_t halving = solve(v, pos, 1);
    halving_only = 0;
    if (sign != halving) {
        char text[64];
        v->ops->pos_format(v, pos, text, sizeof text);
        fail_msg("%s \"%s\": sign first %d, halving %d", spec, text, sign, halving);
    }
    if (sign != VAL_DRAW) (*decisive)++;
    int n = v->ops->moves(v, pos, mv);
    for (int i = 0; i < n; i++) {
        GSW_POSBUF child[GSW_MAX_POS];
        memcpy(child, pos, v->ops->pos_size);
        v->ops->play(v, child, mv[i]);
        check_first_plies(spec, ply + 1, child, v, decisive);
    }
}

static void test_first_plies(void **s)
{
    (void)s;
    /* (6x5, most of the time, in the release entry) */
    const char *quick[] = { "connect4:5x4", "connect4:6x4", "connect4:5x5" }, *rest[] = { "connect4:6x5" };
    const char **specs = release_run() ? rest : quick;
    size_t nspecs = release_run() ? 1 : 3;
    for (size_t k = 0; k < nspecs; k++) {
        gv_t *v = open_variant(specs[k]);
        GSW_POSBUF pos[GSW_MAX_POS];
        int decisive = 0;
        v->ops->pos_start(v, pos);
        check_first_plies(specs[k], 0, pos, v, &decisive);
        assert_true(decisive > 0);   /* (wins and losses to narrow among) */
        game_close(v);
    }
}

static void test_slow_boards(void **s)
{
    (void)s;
    if (!getenv("GSW_SLOW")) skip();
    check_board("connect4:7x4", OUTCOME_DRAW, 28);
    check_board("connect4:6x5", OUTCOME_DRAW, 30);
    check_board("connect4:7x5", OUTCOME_DRAW, 35);
    check_board("connect4:6x6", OUTCOME_LOSS, 36);
}

/* ---- position counts (FACTS: the BDD solver's table) ---- */

typedef struct kset { uint64_t *k; uint64_t mask, n; } kset_t;

static int kset_add(kset_t *s, uint64_t key)
{
    key += 1;   /* 0 marks an empty slot */
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 17;
    for (;; h++) {
        uint64_t *e = &s->k[h & s->mask];
        if (*e == key) return 0;
        if (!*e) { *e = key; s->n++; return 1; }
    }
}

static void count_rec(const gv_t *v, const void *pos, kset_t *s, uint8_t *key)
{
    /* the (unfolded) key of a Connect Four position: stones to move + all stones */
    int sym;
    (void)sym;
    const game_ops_t *O = v->ops;
    uint64_t k = O->pos_hash(v, pos);   /* a bijection of cur + mask on one-word boards */
    if (!kset_add(s, k)) return;
    (void)key;
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv[i]);
        count_rec(v, child, s, key);
    }
}

static uint64_t count_positions(const char *spec, int log2slots)
{
    gv_t *v = open_variant(spec);
    kset_t s = { calloc((size_t)1 << log2slots, 8), ((uint64_t)1 << log2slots) - 1, 0 };
    assert_non_null(s.k);
    GSW_POSBUF pos[GSW_MAX_POS];
    uint8_t key[GSW_MAX_KEY];
    v->ops->pos_start(v, pos);
    count_rec(v, pos, &s, key);
    free(s.k);
    game_close(v);
    return s.n;
}

static void test_position_counts(void **s)
{
    (void)s;
    assert_int_equal(count_positions("connect4:4x4", 19), 161029);
    assert_int_equal(count_positions("connect4:4x5", 22), 1706255);
    if (getenv("GSW_SLOW")) assert_int_equal(count_positions("connect4:5x4", 24), 3945711);
}

/* ---- engines agree ---- */

static uint64_t rs = 88172645463325252ull;
static unsigned rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (unsigned)(rs >> 33); }

/* A random unfinished position `plies` deep that is not lost at once. */
static int random_position(const gv_t *v, void *pos, int plies)
{
    const game_ops_t *O = v->ops;
    O->pos_start(v, pos);
    move_t mv[GSW_MAX_MOVES];
    for (int i = 0; i < plies; i++) {
        int n = O->moves(v, pos, mv);
        if (!n) return 0;
        O->play(v, pos, mv[rnd() % (unsigned)n]);
    }
    val_t tv;
    return !O->terminal(v, pos, &tv);
}

static void test_engines_agree(void **s)
{
    (void)s;
    gv_t *fixed = open_variant("connect4:7x6");
    assert_ptr_equal(fixed->ops, &c4_ops_7x6);
    /* the same board through the one-word and two-word engines */
    gv_t one = *fixed, two = *fixed, generic = *fixed;
    one.ops = &c4_ops_64;
    two.ops = &c4_ops_128;
    static game_ops_t gops;
    gops = c4_ops_64;
    gops.ab_exact_entry = NULL;       /* the core's generic search */
    gops.ab_play = NULL;
    gops.ab_order = NULL;
    generic.ops = &gops;
    /* 10 positions here, 30 in the release entry (where no test draws
     * random positions before this one: other positions) */
    int compared = 0, want = release_run() ? 30 : 10;
    char text[256];
    for (int t = 0; t < 5000 && compared < want; t++) {
        GSW_POSBUF pos[GSW_MAX_POS], p1[GSW_MAX_POS], p2[GSW_MAX_POS], p3[GSW_MAX_POS];
        if (!random_position(fixed, pos, 10 + (int)(rnd() % 14))) continue;
        fixed->ops->pos_format(fixed, pos, text, sizeof text);
        err_t err;
        assert_int_equal(game_pos_parse(&one, text, p1, &err), GSW_OK);
        assert_int_equal(game_pos_parse(&two, text, p2, &err), GSW_OK);
        assert_int_equal(game_pos_parse(&generic, text, p3, &err), GSW_OK);
        val_t a = solve(fixed, pos, 1), b = solve(&one, p1, 1), c = solve(&two, p2, 1), d = solve(&generic, p3, 1);
        static_always = 1;   /* the static look at children (the engines' own copies have it) */
        val_t e = solve(fixed, pos, 1), f = solve(&one, p1, 1);
        static_always = 0;
        if (a != b || a != c || a != d || a != e || a != f)
            fail_msg("%s: fixed %d, 64 %d, 128 %d, generic %d; static look: fixed %d, 64 %d", text, a, b, c, d, e, f);
        compared++;
    }
    assert_int_equal(compared, want);
    game_close(fixed);
}

/* The game's static bounds (ab_expand: immediate wins and losses, cells no
 * side can fill, claimeven) must hold every position's value. Random
 * positions of boards of even height (where claimeven applies) are valued
 * by the core's generic search on moves alone, with none of the game's
 * bounds, and the bounds checked against that value. */
static void check_bounds(const char *spec, int tries, int min_ply, int spread)
{
    gv_t *v = open_variant(spec);
    gv_t plain = *v;
    static game_ops_t pops;
    pops = *v->ops;
    pops.ab_exact_entry = NULL;
    pops.ab_expand = NULL;
    pops.ab_play = NULL;
    pops.ab_order = NULL;
    plain.ops = &pops;
    int checked = 0, bounded = 0;
    char text[256];
    for (int t = 0; t < tries; t++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        if (!random_position(v, pos, min_ply + (int)(rnd() % (unsigned)spread))) continue;
        move_t mv[GSW_MAX_MOVES];
        val_t lo = -VAL_WIN + 1, hi = VAL_WIN - 1;
        v->ops->ab_expand(v, pos, mv, &lo, &hi);
        val_t val = solve(&plain, pos, 1);
        v->ops->pos_format(v, pos, text, sizeof text);
        if (val < lo || val > hi) fail_msg("%s %s: value %d outside the game's bounds [%d, %d]", spec, text, val, lo, hi);
        if (hi <= VAL_DRAW && hi > -VAL_PROVEN + 4) bounded++;   /* claimeven or no four: not an immediate loss */
        checked++;
    }
    assert_true(checked > tries / 4);
    assert_true(bounded > 0);
    game_close(v);
}

static void test_static_bounds(void **s)
{
    (void)s;
    check_bounds("connect4:6x4", 300, 9, 12);
    check_bounds("connect4:5x4", 200, 8, 10);
    check_bounds("connect4:4x6", 200, 9, 12);
    check_bounds("connect4:7x4", 150, 11, 12);
}

/* Boards wider than 9 columns use comma-separated moves. */
/* Seeded bounds (a cache row) that are false must never become a value: the
 * solve notices, says so (contradiction) and proves the value without them;
 * true seeds are used silently. Random 5x4 positions, every kind of false
 * seed: above the value, below it, a false exact value, and one the game's
 * own bounds rule out. */
static void test_false_seeds(void **s)
{
    (void)s;
    gv_t *v = open_variant("connect4:5x4");
    GSW_POSBUF pos[GSW_MAX_POS];
    int checked = 0, false_seeds = 0, noticed = 0;
    for (int k = 0; k < 60; k++) {
        if (!random_position(v, pos, 2 + (int)(rnd() % 14))) continue;
        val_t x = solve(v, pos, 1);
        const val_t W = VAL_WIN - 1;
        struct { val_t lo, hi; int false_seed; } seeds[] = {
            { x + 1, W, 1 }, { -W, x - 1, 1 }, { x + 1, x + 1, 1 }, { x - 1, x - 1, 1 },
            { x > 0 ? -W : x + 1, x > 0 ? 0 : W, 1 }, { x >= 0 ? -W : 0, x >= 0 ? -1 : W, 1 },
            { x, W, 0 }, { -W, x, 0 }, { x, x, 0 }, { x - 3, x + 3, 0 },
        };
        for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
            for (int wdl = 0; wdl < 2; wdl++) {
                ab_options_t o = { .threads = 1, .seeded = 1, .seed_lo = seeds[i].lo, .seed_hi = seeds[i].hi,
                                   .wdl_only = wdl };
                ab_result_t r;
                err_t err;
                tt_clear(&tt);
                assert_int_equal(ab_solve(v, &tt, pos, &o, &r, &err), GSW_OK);
                assert_false(r.aborted);
                if (!(r.lo <= x && x <= r.hi)) printf("WRONG seed %zu wdl %d x %d r %d %d c %d\n", i, wdl, (int)x, (int)r.lo, (int)r.hi, r.contradiction);
                assert_true(r.lo <= x && x <= r.hi);   /* never a false answer */
                if (!wdl) assert_int_equal(r.lo, r.hi);
                /* a false seed the answer would rest on is noticed (a few
                 * are harmless: "at most a win in 18 plies" with 17 left is
                 * read as "at most a win in 17", which is true) */
                if (seeds[i].false_seed && !wdl) { false_seeds++; noticed += r.contradiction; }
                if (!seeds[i].false_seed) assert_false(r.contradiction);
                checked++;
            }
    }
    assert_true(checked > 500);
    printf("false seeds noticed: %d of %d\n", noticed, false_seeds);
    assert_true(noticed * 10 >= false_seeds * 9);
    game_close(v);
}

static void test_wide_board(void **s)
{
    (void)s;
    gv_t *v = open_variant("connect4:10x5");
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    char text[256];
    assert_int_equal(game_pos_parse(v, "10,1,10,1,10,1", pos, &err), GSW_OK);
    v->ops->pos_format(v, pos, text, sizeof text);
    assert_string_equal(text, "10,1,10,1,10,1");
    assert_int_equal(solve(v, pos, 1), val_win(1));   /* four in column 10 */
    assert_int_equal(game_pos_parse(v, "10,11", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "11"));
    game_close(v);
}

/* Finished positions and illegal strings. */
static void test_bad_and_finished(void **s)
{
    (void)s;
    gv_t *v = open_variant("connect4");
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, "1212121", pos, &err), GSW_OK);   /* first player's fourth stone wins */
    val_t tv;
    assert_true(v->ops->terminal(v, pos, &tv));
    assert_int_equal(tv, val_loss(0));
    int score;
    v->ops->value_score(v, pos, tv, &score);
    assert_int_equal(score, -18);
    move_t mv[GSW_MAX_MOVES];
    assert_int_equal(v->ops->moves(v, pos, mv), 0);
    assert_int_equal(game_pos_parse(v, "12121212", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "ended"));
    assert_int_equal(game_pos_parse(v, "1111111", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "full"));
    assert_int_equal(game_pos_parse(v, "48", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "out of range"));
    assert_int_equal(game_pos_parse(v, "4a", pos, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "'a'"));
    game_close(v);
}

/* Heuristic mode plays legal moves and takes an immediate win. */
static void test_heuristic(void **s)
{
    (void)s;
    gv_t *v = open_variant("connect4");
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    assert_int_equal(game_pos_parse(v, "121212", pos, &err), GSW_OK);
    ab_options_t o = { .threads = 1, .depth_limit = 6 };
    ab_result_t r;
    tt_clear(&tt);
    assert_int_equal(ab_think(v, &tt, pos, &o, &r, &err), GSW_OK);
    assert_int_equal(r.best, 0);   /* column 1 completes four */
    assert_true(r.proven);
    assert_int_equal(r.score, val_win(1));
    game_close(v);
}

static int setup(void **s)
{
    (void)s;
    err_t err;
    return tt_init(&tt, 64, &err);
}

static int teardown(void **s)
{
    (void)s;
    tt_free(&tt);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_and_finished),
        cmocka_unit_test(test_wide_board),
        cmocka_unit_test(test_false_seeds),
        cmocka_unit_test(test_heuristic),
        cmocka_unit_test(test_engines_agree),
        cmocka_unit_test(test_static_bounds),
        cmocka_unit_test(test_position_counts),
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_first_plies),
        cmocka_unit_test(test_slow_boards),
        cmocka_unit_test(test_end_easy),
        cmocka_unit_test(test_middle_easy),
        cmocka_unit_test(test_middle_medium),
        cmocka_unit_test(test_begin_easy),
        cmocka_unit_test(test_begin_medium),
        cmocka_unit_test(test_begin_hard),
        cmocka_unit_test(test_static_look),
        cmocka_unit_test(test_two_threads),
    };
    const struct CMUnitTest rest[] = {
        cmocka_unit_test(test_engines_agree),
        cmocka_unit_test(test_first_plies),
        cmocka_unit_test(test_middle_medium_rest),
        cmocka_unit_test(test_begin_hard_rest),
    };
    if (release_run()) return cmocka_run_group_tests(rest, setup, teardown);
    return cmocka_run_group_tests(tests, setup, teardown);
}

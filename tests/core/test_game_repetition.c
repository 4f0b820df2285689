/* The shared repetition rules (core/game.h): a search's repetition is a
 * draw, and in play a position that stands for the third time on the line,
 * among the plies that can repeat it, draws the game; twice does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"

/* A position reduced to what the rule compares, and a field it ignores
 * (a move counter). */
typedef struct { int id, counter; } tpos_t;

static int same(const void *a, const void *b) { return ((const tpos_t *)a)->id == ((const tpos_t *)b)->id; }

/* The line of ids (counters all different); threefold over its last back plies. */
static int over(const int *ids, int n, int back, val_t *value, char *why, size_t wn)
{
    static tpos_t pos[64];
    const void *line[64];
    for (int i = 0; i < n; i++) {
        pos[i].id = ids[i];
        pos[i].counter = i;
        line[i] = &pos[i];
    }
    return game_line_threefold(line, n, back, same, value, why, wn);
}

static void test_search_repetition_is_draw(void **state)
{
    (void)state;
    val_t v = val_win(3);
    assert_int_equal(game_repetition_draw(NULL, NULL, &v), 1);
    assert_int_equal(v, VAL_DRAW);
}

static void test_three_times_is_draw(void **state)
{
    (void)state;
    /* A B A B A: A stands for the third time */
    const int ids[] = { 1, 2, 1, 2, 1 };
    val_t v = val_win(1);
    char why[32] = "";
    assert_int_equal(over(ids, 5, 100, &v, why, sizeof why), 1);
    assert_int_equal(v, VAL_DRAW);
    assert_string_equal(why, "threefold repetition");
    /* the third time with other positions between */
    const int ids2[] = { 1, 5, 1, 6, 7, 8, 1 };
    assert_int_equal(over(ids2, 7, 100, &v, why, sizeof why), 1);
}

static void test_twice_is_not(void **state)
{
    (void)state;
    const int ids[] = { 3, 1, 2, 1, 2 };   /* the current position (2) for the second time */
    val_t v = val_win(1);
    char why[32] = "";
    assert_int_equal(over(ids, 5, 100, &v, why, sizeof why), 0);
    assert_int_equal(v, val_win(1));
    assert_string_equal(why, "");
    assert_int_equal(over(ids, 1, 100, &v, why, sizeof why), 0);
    assert_int_equal(over(ids, 0, 100, &v, why, sizeof why), 0);
}

/* Only positions with the same side to move count: A at odd distances is
 * another position by the rules. */
static void test_other_side_to_move_does_not_count(void **state)
{
    (void)state;
    const int ids[] = { 1, 1, 2, 1, 3, 1 };   /* A at plies 0, 1, 3, 5: same side to move only at 1, 3, 5 */
    val_t v = VAL_DRAW;
    char why[32];
    assert_int_equal(over(ids, 6, 100, &v, why, sizeof why), 1);
    const int ids2[] = { 1, 2, 1, 1, 3, 1 };  /* at plies 0, 2, 3, 5: with the side to move of ply 5 only at 3 */
    assert_int_equal(over(ids2, 6, 100, &v, why, sizeof why), 0);
}

/* Positions before the last irreversible move (more than back plies ago)
 * cannot repeat the current one. */
static void test_back_limits_the_search(void **state)
{
    (void)state;
    const int ids[] = { 1, 2, 1, 2, 1 };
    val_t v = VAL_DRAW;
    char why[32];
    assert_int_equal(over(ids, 5, 4, &v, why, sizeof why), 1);   /* ply 0 is 4 plies back: counts */
    assert_int_equal(over(ids, 5, 3, &v, why, sizeof why), 0);   /* it is beyond the limit */
    assert_int_equal(over(ids, 5, 0, &v, why, sizeof why), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_repetition_is_draw),
        cmocka_unit_test(test_three_times_is_draw),
        cmocka_unit_test(test_twice_is_not),
        cmocka_unit_test(test_other_side_to_move_does_not_count),
        cmocka_unit_test(test_back_limits_the_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

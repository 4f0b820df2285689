/* The one order of moves (move_value_cmp, solve/analyst.h) that every
 * list follows: wins fastest first, then wins the move-count rule may draw
 * first, then mates the heuristic search found, then a draw-or-win not
 * settled under the rule, then draws, then unproven moves by score
 * (unscored last), then a draw-or-loss, then the heuristic's mates against
 * the mover, then losses slowest first; ties keep the game's order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "solve/analyst.h"

static move_value_t proven(const char *name, val_t lo, val_t hi)
{
    move_value_t m = { .state = MV_PROVEN, .lo = lo, .hi = hi, .conv = -1 };
    snprintf(m.text, sizeof m.text, "%s", name);
    return m;
}

static move_value_t scored(const char *name, int32_t score)
{
    move_value_t m = { .state = MV_HEURISTIC, .score = score, .depth = 8, .conv = -1 };
    snprintf(m.text, sizeof m.text, "%s", name);
    return m;
}

/* The names of mv in the order, joined by spaces. */
static void ordered(const move_value_t *mv, int n, char *out, size_t cap)
{
    int order[GSW_MAX_MOVES];
    move_values_order(mv, n, order);
    out[0] = 0;
    for (int i = 0; i < n; i++) snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? " " : "", mv[order[i]].text);
}

static void test_classes(void **state)
{
    (void)state;
    move_value_t late = proven("late", val_win(9), val_win(9)), perhaps = proven("perhaps", val_win(11), val_win(11));
    late.late = 1;
    perhaps.late = 2;
    move_value_t unscored = { .state = MV_UNKNOWN, .conv = -1 };
    snprintf(unscored.text, sizeof unscored.text, "none");
    move_value_t open = proven("open", val_loss(20), val_win(20));   /* bounds across a draw: unproven */
    open.score = 40;
    open.depth = 6;
    /* the game's order, scrambled on purpose */
    move_value_t mv[] = {
        proven("draw", VAL_DRAW, VAL_DRAW), proven("loss3", val_loss(3), val_loss(3)), scored("h-50", -50),
        proven("win49", val_win(49), val_win(49)), unscored, late, proven("win7", val_win(7), val_win(7)),
        proven("loss9", val_loss(9), val_loss(9)), scored("h+300", 300), proven("dorw", VAL_DRAW, val_win(61)),
        proven("dorl", val_loss(30), VAL_DRAW), perhaps, open,
    };
    char got[400];
    ordered(mv, (int)(sizeof mv / sizeof mv[0]), got, sizeof got);
    assert_string_equal(got, "win7 win49 perhaps late dorw draw h+300 open h-50 none dorl loss9 loss3");
    /* a mate the heuristic search found goes before a proven draw: KQRP v
     * KR after 64...Re6+, where the draw is the stalemate Kxe6 and Kf5
     * reads "~mate in 7" (a game the analysis pane's first move lost so) */
    move_value_t ending[] = {
        proven("Kxe6", VAL_DRAW, VAL_DRAW), scored("Kf5", val_win(13)), scored("Kd4", val_win(17)),
        scored("Kf4", 2760), proven("dorw", VAL_DRAW, val_win(61)), proven("win21", val_win(21), val_win(21)),
        scored("mated", val_loss(6)), proven("dorl", val_loss(30), VAL_DRAW), proven("loss9", val_loss(9), val_loss(9)),
    };
    ordered(ending, (int)(sizeof ending / sizeof ending[0]), got, sizeof got);
    assert_string_equal(got, "win21 Kf5 Kd4 dorw Kxe6 Kf4 dorl mated loss9");
}

static void test_ties_and_conversions(void **state)
{
    (void)state;
    /* wins the databases hold without their distance: the soonest conversion first, unknown last */
    move_value_t a = proven("a", VAL_PROVEN, VAL_WIN - 1), b = a, c = a;
    a.final = b.final = c.final = 1;
    a.conv = 12;
    b.conv = 4;
    c.conv = -1;
    snprintf(b.text, sizeof b.text, "b");
    snprintf(c.text, sizeof c.text, "c");
    move_value_t l1 = proven("l1", -VAL_WIN + 1, -VAL_PROVEN), l2 = l1;
    l1.final = l2.final = 1;
    l1.conv = 3;
    l2.conv = 15;
    snprintf(l2.text, sizeof l2.text, "l2");
    move_value_t d1 = proven("d1", VAL_DRAW, VAL_DRAW), d2 = proven("d2", VAL_DRAW, VAL_DRAW);
    move_value_t mv[] = { l1, a, d1, c, l2, b, d2 };
    char got[200];
    ordered(mv, 7, got, sizeof got);
    assert_string_equal(got, "b a c d1 d2 l2 l1");   /* equal draws keep the game's order */
    assert_int_equal(move_value_cmp(&d1, &d2), 0);
    assert_true(analysis_better(&mv[5], &mv[1]));
    assert_false(analysis_better(&mv[1], &mv[5]));
}

/* analysis_best picks the first of the order among settled moves. */
static void test_best_agrees(void **state)
{
    (void)state;
    static analysis_t an;
    memset(&an, 0, sizeof an);
    an.n = 4;
    an.mv[0] = proven("d", VAL_DRAW, VAL_DRAW);
    an.mv[1] = proven("w31", val_win(31), val_win(31));
    an.mv[2] = proven("w5", val_win(5), val_win(5));
    an.mv[2].late = 1;   /* fastest, but the rule may draw it first */
    an.mv[3] = scored("h", 900);
    assert_int_equal(analysis_best(&an), 1);
    int order[4];
    move_values_order(an.mv, an.n, order);
    assert_int_equal(order[0], analysis_best(&an));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_ties_and_conversions),
        cmocka_unit_test(test_best_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

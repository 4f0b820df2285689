/* A game on a clock (workbench/session_clock.h), the model without a
 * screen: the controls' text, the mover charged and the increment added,
 * the clock held (Ctrl-C on the computer's move), a flag that falls ends
 * the game (a loss; a draw where the other side cannot win), undo puts the
 * times back and lifts it, a new game starts full, a record's moves played
 * before the first tick take no time, and the computer's share. Times are
 * passed in, around the real clock session_play reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/ab.h"
#include "workbench/session.h"
#include "workbench/session_clock.h"

#define NEAR(x, y) assert_true((x) > (y) - 150 && (x) < (y) + 150)   /* ms, for session_play's own reading */

static void test_parse(void **st)
{
    (void)st;
    double b, i;
    err_t err;
    char t[32];
    assert_int_equal(clock_parse("5+3", &b, &i, &err), GSW_OK);
    assert_true(b == 300000 && i == 3000);
    clock_text(b, i, t, sizeof t);
    assert_string_equal(t, "5+3");
    assert_int_equal(clock_parse("0:30+1", &b, &i, &err), GSW_OK);
    assert_true(b == 30000 && i == 1000);
    clock_text(b, i, t, sizeof t);
    assert_string_equal(t, "0:30+1");
    assert_int_equal(clock_parse("90s+0.5", &b, &i, &err), GSW_OK);
    assert_true(b == 90000 && i == 500);
    assert_int_equal(clock_parse("3", &b, &i, &err), GSW_OK);
    assert_true(b == 180000 && i == 0);
    const char *bad[] = { "", "+3", "0+1", "5x3", "5+", "1:5+0", "1:60+0", "-1+0", "5+3+1", "1500+0",
                          "nan+0", "5+nan", "inf+0", "0x5+0", "5+1e1", " 5+3", NULL };
    for (int k = 0; bad[k]; k++) assert_int_equal(clock_parse(bad[k], &b, &i, &err), GSW_EINPUT);
    /* a control with no time to start with says so, not that its form is wrong */
    assert_int_equal(clock_parse("0:00+5", &b, &i, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "no time to start with"));
    assert_int_equal(clock_parse("5x3", &b, &i, &err), GSW_EINPUT);
    assert_null(strstr(err.msg, "no time to start with"));
    clock_time_text(272400, t, sizeof t);
    assert_string_equal(t, "4:32");
    clock_time_text(12390, t, sizeof t);
    assert_string_equal(t, "12.3");
    clock_time_text(-5, t, sizeof t);
    assert_string_equal(t, "0.0");
}

static void test_run_hold_flag_undo(void **st)
{
    (void)st;
    static session_t s;
    err_t err;
    assert_int_equal(session_init(&s, "chess", "", &err), GSW_OK);
    session_clock_set(&s, 10000, 2000);
    assert_int_equal(session_play_text(&s, "e4", &err), GSW_OK);   /* before the first tick: no time taken */
    assert_true(session_clock_left(&s, 0, gsw_now_ms()) == 10000);
    double now = gsw_now_ms();
    assert_int_equal(session_clock_tick(&s, now - 3000, 0), 0);   /* Black's time began 3 s ago */
    NEAR(session_clock_left(&s, 1, now), 7000);
    assert_int_equal(session_play_text(&s, "e5", &err), GSW_OK);
    NEAR(session_clock_left(&s, 1, now), 9000);   /* 10 - 3 + 2 */
    now = gsw_now_ms();
    session_clock_tick(&s, now + 1000, 1);   /* held after a second: its time stands */
    NEAR(session_clock_left(&s, 0, now + 5000), 9000);
    session_clock_tick(&s, now + 5000, 0);   /* and runs on */
    NEAR(session_clock_left(&s, 0, now + 6000), 8000);
    assert_int_equal(session_clock_tick(&s, now + 13900, 0), 0);   /* (10 s: 1 before the hold, 9 after) */
    assert_int_equal(session_clock_tick(&s, now + 14100, 0), 1);   /* White's flag falls */
    val_t v;
    char why[96];
    assert_true(session_over_why(&s, &v, why, sizeof why));
    assert_true(v < VAL_DRAW);
    assert_string_equal(why, "White out of time");
    assert_true(session_clock_left(&s, 0, now + 20000) == 0);
    assert_int_equal(session_play_text(&s, "Nf3", &err), GSW_EINPUT);   /* no move after the flag */
    assert_true(session_undo(&s));   /* back past it: the times as they stood, the game on */
    assert_false(session_over(&s, NULL));
    NEAR(session_clock_left(&s, 1, gsw_now_ms()), 10000);   /* (Black's 3 s on e5 given back; running again) */
    assert_true(session_clock_left(&s, 0, gsw_now_ms()) == 10000);
    assert_int_equal(session_new(&s, "chess", "", &err), GSW_OK);   /* a new game: both full */
    assert_true(s.clock.on && session_clock_left(&s, 0, gsw_now_ms()) == 10000);
    session_free(&s);
}

static void test_flag_against_a_lone_king_draws(void **st)
{
    (void)st;
    static session_t s;
    err_t err;
    assert_int_equal(session_init(&s, "chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &err), GSW_OK);
    session_clock_set(&s, 1000, 0);
    double now = gsw_now_ms();
    session_clock_tick(&s, now, 0);
    assert_int_equal(session_clock_tick(&s, now + 1001, 0), 1);
    val_t v;
    char why[96];
    assert_true(session_over_why(&s, &v, why, sizeof why));
    assert_true(v == VAL_DRAW);
    assert_string_equal(why, "White out of time, but Black cannot win");
    session_clock_off(&s);   /* (no clock: the game goes on) */
    assert_false(session_over(&s, NULL));
    session_free(&s);
}

static void test_budget(void **st)
{
    (void)st;
    static session_t s;
    err_t err;
    assert_int_equal(session_init(&s, "chess", "", &err), GSW_OK);
    session_clock_set(&s, 300000, 3000);
    double b = session_clock_budget(&s);
    assert_true(b > 5000 && b < 20000);   /* 5+3: some 10 s a move at the start */
    session_clock_set(&s, 100, 0);
    assert_true(session_clock_budget(&s) < 100);   /* never all of what is left */
    session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_run_hold_flag_undo),
        cmocka_unit_test(test_flag_against_a_lone_king_draws),
        cmocka_unit_test(test_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

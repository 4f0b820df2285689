/* err_say (core/err.h): a printf-style message formatted and handed to a
 * caller's callback, cut to ERR_SAY_MAX - 1 bytes; no callback, no call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/err.h"

typedef struct {
    int calls;
    char last[ERR_SAY_MAX + 16];
} heard_t;

static void hear(void *ctx, const char *msg)
{
    heard_t *h = ctx;
    h->calls++;
    snprintf(h->last, sizeof h->last, "%s", msg);
}

static void test_formats_and_calls_back(void **state)
{
    (void)state;
    heard_t h = { 0 };
    err_say(hear, &h, "ply %d of %d: %s (%.1f s)", 3, 12, "made", 2.5);
    assert_int_equal(h.calls, 1);
    assert_string_equal(h.last, "ply 3 of 12: made (2.5 s)");
    err_say(hear, &h, "plain");
    assert_int_equal(h.calls, 2);
    assert_string_equal(h.last, "plain");
}

static void test_no_callback_no_call(void **state)
{
    (void)state;
    err_say(NULL, NULL, "nothing %d", 1);   /* must not crash */
    heard_t h = { 0 };
    err_say(NULL, &h, "nothing %d", 2);
    assert_int_equal(h.calls, 0);
}

static void test_long_message_is_cut(void **state)
{
    (void)state;
    static char big[ERR_SAY_MAX * 2];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    heard_t h = { 0 };
    err_say(hear, &h, "%s", big);
    assert_int_equal(h.calls, 1);
    assert_int_equal(strlen(h.last), ERR_SAY_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_and_calls_back),
        cmocka_unit_test(test_no_callback_no_call),
        cmocka_unit_test(test_long_message_is_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The --json writer: commas at any depth (proof trees nest far deeper than
 * 32 levels), escapes, non-finite numbers as null, a document written whole
 * by json_end and nothing at all by json_discard. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "cli/json.h"

/* The text written to a memory stream by fn. */
static char *capture(void (*fn)(FILE *f))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(f);
    fclose(f);
    return buf;
}

static void deep(FILE *f)
{
    json_t j;
    json_begin(&j, f);
    json_int(&j, "a", 1);
    json_arr(&j, "n");
    for (int i = 0; i < 100; i++) {   /* [{"d":i,"c":[ ... ]},i] */
        json_obj(&j, NULL);
        json_int(&j, "d", i);
        json_arr(&j, "c");
    }
    for (int i = 99; i >= 0; i--) {
        json_close(&j, ']');
        json_close(&j, '}');
        json_int(&j, NULL, i);
    }
    json_close(&j, ']');
    json_bool(&j, "z", 1);
    json_end(&j);
}

static void test_deep_nesting(void **s)
{
    (void)s;
    char *got = capture(deep);
    size_t cap = 100 * 40 + 100;
    char *want = malloc(cap), *p = want;
    assert_non_null(want);
    p += sprintf(p, "{\"a\":1,\"n\":[");
    for (int i = 0; i < 100; i++) p += sprintf(p, "{\"d\":%d,\"c\":[", i);
    for (int i = 99; i >= 0; i--) p += sprintf(p, "]},%d", i);
    sprintf(p, "],\"z\":true}\n");
    assert_string_equal(got, want);
    free(got);
    free(want);
}

static void values(FILE *f)
{
    json_t j;
    json_begin(&j, f);
    json_str(&j, "s", "a\"b\\c\nd\te\x01\x7f\xc3\xa9");
    json_num(&j, "x", 1.5);
    json_num(&j, "nan", NAN);
    json_num(&j, "inf", INFINITY);
    json_null(&j, "n");
    json_obj(&j, "o");
    json_close(&j, '}');
    json_arr(&j, "e");
    json_close(&j, ']');
    json_end(&j);
}

static void test_values(void **s)
{
    (void)s;
    char *got = capture(values);
    assert_string_equal(got, "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f\xc3\xa9\",\"x\":1.500,\"nan\":null,"
                             "\"inf\":null,\"n\":null,\"o\":{},\"e\":[]}\n");
    free(got);
}

static void discarded(FILE *f)
{
    json_t j;
    json_begin(&j, f);
    json_str(&j, "game", "connect4");
    json_arr(&j, "moves");
    json_int(&j, NULL, 1);
    json_discard(&j);   /* a verb that failed half way */
    fputs("after", f);
}

static void test_discard(void **s)
{
    (void)s;
    char *got = capture(discarded);
    assert_string_equal(got, "after");   /* nothing of the unfinished document */
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_discard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

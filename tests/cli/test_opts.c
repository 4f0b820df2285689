/* Options parsed from a verb's declaration (cli/opts.h): each kind's value
 * and default, positional arguments, -h/--help, an option the verb does not
 * take refused, bad values and a full list refused; and reading an option
 * the verb does not declare (or as another kind) aborts. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/opts.h"

static int check_calls;
static int check_abc(const char *val)
{
    check_calls++;
    return strcmp(val, "abc") ? GSW_EINPUT : 0;
}

static const cli_opt_t own[] = {
    { "flag", OPT_FLAG, NULL, "a flag", 0, 0, NULL },
    { "name", OPT_STR, "S", "a string", 0, 0, check_abc },
    { "count", OPT_INT, "N", "a whole number", 1, 10, NULL },
    { "ratio", OPT_NUM, "X", "a number", 0.5, 2, NULL },
    { "big", OPT_U64, "N", "a large whole number", 0, 1e15, NULL },
    { "kv", OPT_LIST, "K=V", "repeatable", 0, 2, NULL },
    OPT_END,
};
static const cli_opt_t *const tables[] = { opts_json, opts_search, own, NULL };
static int run_none(cli_args_t *a) { (void)a; return 0; }
static const cli_verb_t verb = { "fake", "gsw fake [X]", "a test verb", run_none, 2, NULL, .opts = tables };

/* parse argv (NULL-terminated, after "gsw fake") into a; its status */
static int parse(cli_args_t *a, int *help, ...)
{
    char *argv[32] = { "gsw", "fake" };
    int argc = 2;
    va_list ap;
    va_start(ap, help);
    for (char *s; (s = va_arg(ap, char *)) != NULL;) argv[argc++] = s;
    va_end(ap);
    memset(a, 0, sizeof *a);
    return opts_parse(argc, argv, 2, &verb, a, help);
}

static void test_values(void **state)
{
    (void)state;
    cli_args_t a;
    int help;
    check_calls = 0;
    assert_int_equal(parse(&a, &help, "p1", "--flag", "--name", "abc", "--count", "7", "--ratio", "1.5", "--big",
                           "123456789012", "--kv", "A=1", "p2", "--kv", "B=2", "--threads", "3", NULL), GSW_OK);
    assert_int_equal(help, 0);
    assert_int_equal(check_calls, 1);
    assert_int_equal(a.npos, 2);
    assert_string_equal(a.pos[0], "p1");
    assert_string_equal(a.pos[1], "p2");
    assert_true(args_flag(&a, "flag"));
    assert_false(args_flag(&a, "json"));
    assert_string_equal(args_str(&a, "name"), "abc");
    assert_int_equal(args_int(&a, "count", 0), 7);
    assert_true(args_num(&a, "ratio", 0) == 1.5);
    assert_true(args_u64(&a, "big", 0) == 123456789012ull);
    const char *const *kv;
    assert_int_equal(args_list(&a, "kv", &kv), 2);
    assert_string_equal(kv[0], "A=1");
    assert_string_equal(kv[1], "B=2");
    assert_int_equal(opts_threads(&a), 3);
    assert_true(args_given(&a, "threads"));
    assert_false(args_given(&a, "hash"));
    assert_true(opts_hash_mb(&a) == 128);   /* the default */
    assert_true(args_has(&a, "json"));
    assert_false(args_has(&a, "time"));

    /* defaults when not given */
    assert_int_equal(parse(&a, &help, NULL), GSW_OK);
    assert_null(args_str(&a, "name"));
    assert_int_equal(args_int(&a, "count", 4), 4);
    assert_true(args_num(&a, "ratio", 0.75) == 0.75);
    assert_int_equal(args_list(&a, "kv", &kv), 0);
    assert_false(args_given(&a, "count"));
    args_set_flag(&a, "flag");
    assert_true(args_flag(&a, "flag"));
    args_set_flag(&a, "no-cache");   /* not declared: nothing */
    assert_false(args_has(&a, "no-cache"));

    assert_int_equal(parse(&a, &help, "-h", NULL), GSW_OK);
    assert_int_equal(help, 1);
    assert_int_equal(parse(&a, &help, "x", "--help", NULL), GSW_OK);
    assert_int_equal(help, 1);
}

static void test_refused(void **state)
{
    (void)state;
    cli_args_t a;
    int help;
    assert_int_equal(parse(&a, &help, "--time", "5", NULL), GSW_EINPUT);      /* not this verb's */
    assert_int_equal(parse(&a, &help, "--bogus", NULL), GSW_EINPUT);
    assert_int_equal(parse(&a, &help, "--count", NULL), GSW_EINPUT);          /* needs a value */
    assert_int_equal(parse(&a, &help, "--count", "11", NULL), GSW_EINPUT);    /* over its range */
    assert_int_equal(parse(&a, &help, "--count", "2.5", NULL), GSW_EINPUT);   /* not whole */
    assert_int_equal(parse(&a, &help, "--ratio", "0.25", NULL), GSW_EINPUT);
    assert_int_equal(parse(&a, &help, "--big", "-1", NULL), GSW_EINPUT);
    assert_int_equal(parse(&a, &help, "--name", "abd", NULL), GSW_EINPUT);    /* its check */
    assert_int_equal(parse(&a, &help, "--kv", "A", NULL), GSW_EINPUT);        /* no = */
    assert_int_equal(parse(&a, &help, "--kv", "=1", NULL), GSW_EINPUT);
    assert_int_equal(parse(&a, &help, "--kv", "A=1", "--kv", "B=1", "--kv", "C=1", NULL), GSW_EINPUT);   /* at most 2 */
    assert_int_equal(parse(&a, &help, "1", "2", "3", "4", "5", "6", "7", "8", "9", NULL), GSW_EINPUT);   /* too many */
}

/* fn(a) in a child: it ends by SIGABRT */
static void aborts(void (*fn)(const cli_args_t *a))
{
    cli_args_t a;
    int help;
    assert_int_equal(parse(&a, &help, NULL), GSW_OK);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        fn(&a);
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

static void read_undeclared(const cli_args_t *a) { (void)args_int(a, "time", 0); }
static void read_undeclared_flag(const cli_args_t *a) { (void)args_flag(a, "no-cache"); }
static void read_as_flag(const cli_args_t *a) { (void)args_flag(a, "name"); }
static void read_as_str(const cli_args_t *a) { (void)args_str(a, "count"); }
static void read_given_undeclared(const cli_args_t *a) { (void)args_given(a, "depth"); }

static void test_undeclared_aborts(void **state)
{
    (void)state;
    aborts(read_undeclared);
    aborts(read_undeclared_flag);
    aborts(read_as_flag);
    aborts(read_as_str);
    aborts(read_given_undeclared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_undeclared_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The solved-position cache: round trips, bound merging, contradictions
 * refused, persistence and counters, concurrent writers (two connections and
 * two processes), garbage/truncated/foreign files refused untouched, and the
 * default location. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/cache.h"

static char dir[256], path[300];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "%s/gsw-cache-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/c.sqlite", dir);
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static cache_t *open_ok(const char *p)
{
    cache_t *c;
    err_t err;
    if (cache_open(p, &c, &err)) fail_msg("%s", err.msg);
    return c;
}

static void put(cache_t *c, uint32_t k, val_t lo, val_t hi, move_t best, int expect)
{
    cache_entry_t e = { .lo = lo, .hi = hi, .best = best, .nodes = 10, .time_ms = 1 };
    snprintf(e.solver, sizeof e.solver, "ab");
    err_t err;
    assert_int_equal(cache_put(c, "connect4", "7x6", (uint8_t *)&k, sizeof k, &e, &err), expect);
    if (expect == GSW_OK) assert_int_equal(cache_flush(c, &err), GSW_OK);
}

static int get(cache_t *c, uint32_t k, cache_entry_t *e)
{
    err_t err;
    return cache_get(c, "connect4", "7x6", (uint8_t *)&k, sizeof k, e, &err);
}

static void test_round_trip_and_merge(void **s)
{
    (void)s;
    unlink(path);
    cache_t *c = open_ok(path);
    cache_entry_t e;
    assert_int_equal(get(c, 1, &e), 0);
    put(c, 1, val_win(13), val_win(13), 3, GSW_OK);
    assert_int_equal(get(c, 1, &e), 1);
    assert_int_equal(e.lo, val_win(13));
    assert_int_equal(e.hi, val_win(13));
    assert_int_equal(e.best, 3);
    assert_string_equal(e.solver, "ab");
    /* lower, then upper: exact */
    put(c, 2, VAL_DRAW, VAL_WIN, MOVE_NONE, GSW_OK);
    put(c, 2, -VAL_WIN, VAL_DRAW, 4, GSW_OK);
    assert_int_equal(get(c, 2, &e), 1);
    assert_int_equal(e.lo, VAL_DRAW);
    assert_int_equal(e.hi, VAL_DRAW);
    assert_int_equal(e.best, 4);
    /* a looser bound never loosens an exact value */
    put(c, 1, VAL_DRAW, VAL_WIN, 5, GSW_OK);
    assert_int_equal(get(c, 1, &e), 1);
    assert_int_equal(e.lo, val_win(13));
    assert_int_equal(e.hi, val_win(13));
    assert_int_equal(e.best, 3);
    /* a contradiction is refused and the stored row kept */
    cache_entry_t bad = { .lo = val_loss(4), .hi = val_loss(4), .best = MOVE_NONE };
    uint32_t k = 1;
    err_t err;
    assert_int_equal(cache_put(c, "connect4", "7x6", (uint8_t *)&k, sizeof k, &bad, &err), GSW_OK);
    assert_int_equal(cache_flush(c, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "contradicts"));
    cache_entry_t crossed = { .lo = 5, .hi = 3 };
    assert_int_equal(cache_put(c, "connect4", "7x6", (uint8_t *)&k, sizeof k, &crossed, &err), GSW_EFAIL);
    assert_int_equal(cache_close(c, &err), GSW_OK);
    /* persistence and counters */
    c = open_ok(path);
    assert_int_equal(get(c, 1, &e), 1);
    assert_int_equal(e.lo, val_win(13));
    static cache_stats_t st;
    assert_int_equal(cache_stats(c, &st, &err), GSW_OK);
    assert_int_equal(st.rows, 2);
    assert_int_equal(st.exact_rows, 2);
    assert_int_equal(st.schema_version, 1);
    assert_true(st.hits >= 4);
    assert_int_equal(st.misses, 1);
    assert_int_equal(st.ngroups, 1);
    assert_string_equal(st.groups[0].game, "connect4");
    int ok;
    char report[512];
    assert_int_equal(cache_check(c, &ok, report, sizeof report, &err), GSW_OK);
    assert_true(ok);
    assert_int_equal(cache_close(c, &err), GSW_OK);
}

static void write_rows(const char *p, uint32_t base, int n)
{
    cache_t *c = open_ok(p);
    err_t err;
    for (int i = 0; i < n; i++) {
        uint32_t k = base + (uint32_t)i;
        cache_entry_t e = { .lo = VAL_DRAW, .hi = VAL_DRAW, .best = MOVE_NONE };
        if (cache_put(c, "connect4", "7x6", (uint8_t *)&k, sizeof k, &e, &err)) fail_msg("%s", err.msg);
    }
    if (cache_close(c, &err)) fail_msg("%s", err.msg);
}

static void test_concurrent_writers(void **s)
{
    (void)s;
    unlink(path);
    /* two connections in one process, interleaved */
    cache_t *a = open_ok(path), *b = open_ok(path);
    err_t err;
    for (uint32_t i = 0; i < 600; i++) {
        cache_entry_t e = { .lo = 0, .hi = 0, .best = MOVE_NONE };
        uint32_t k = 100000 + i;
        assert_int_equal(cache_put(i % 2 ? a : b, "connect4", "7x6", (uint8_t *)&k, sizeof k, &e, &err), GSW_OK);
    }
    assert_int_equal(cache_close(a, &err), GSW_OK);
    assert_int_equal(cache_close(b, &err), GSW_OK);
    /* two processes at once */
    pid_t p1 = fork();
    if (p1 == 0) { write_rows(path, 0, 2000); _exit(0); }
    pid_t p2 = fork();
    if (p2 == 0) { write_rows(path, 50000, 2000); _exit(0); }
    int st1, st2;
    waitpid(p1, &st1, 0);
    waitpid(p2, &st2, 0);
    assert_true(WIFEXITED(st1) && WEXITSTATUS(st1) == 0);
    assert_true(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
    cache_t *c = open_ok(path);
    static cache_stats_t st;
    assert_int_equal(cache_stats(c, &st, &err), GSW_OK);
    assert_int_equal(st.rows, 4600);
    assert_int_equal(cache_close(c, &err), GSW_OK);
}

static int same_file(const char *a, const char *b)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return system(cmd) == 0;
}

static void expect_refused(const char *p, const char *what)
{
    char copy[400], cmd[900];
    snprintf(copy, sizeof copy, "%s.orig", p);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", p, copy);
    assert_int_equal(system(cmd), 0);
    cache_t *c;
    err_t err;
    assert_int_equal(cache_open(p, &c, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, p));
    if (what) assert_non_null(strstr(err.msg, what));
    assert_null(strchr(err.msg, '\n'));
    assert_true(same_file(p, copy));
}

static void test_bad_files(void **s)
{
    (void)s;
    char p[400], cmd[1400];
    /* random bytes */
    snprintf(p, sizeof p, "%s/garbage.sqlite", dir);
    snprintf(cmd, sizeof cmd, "head -c 8192 /dev/urandom > '%s'", p);
    assert_int_equal(system(cmd), 0);
    expect_refused(p, NULL);
    /* a truncated real cache */
    write_rows(path, 0, 3000);
    snprintf(p, sizeof p, "%s/truncated.sqlite", dir);
    snprintf(cmd, sizeof cmd, "sqlite3 '%s' 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null && head -c 20000 '%s' > '%s'", path, path, p);
    assert_int_equal(system(cmd), 0);
    cache_t *c;
    err_t err;
    if (cache_open(p, &c, &err) == GSW_OK) {
        /* the header may survive: the damage must then show in a check */
        int ok = 1;
        char report[512];
        int rc = cache_check(c, &ok, report, sizeof report, &err);
        assert_true(rc != GSW_OK || !ok);
        cache_close(c, &err);
    }
    /* a foreign SQLite database */
    snprintf(p, sizeof p, "%s/foreign.sqlite", dir);
    snprintf(cmd, sizeof cmd, "sqlite3 '%s' 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'", p);
    assert_int_equal(system(cmd), 0);
    expect_refused(p, "not a gsw cache");
    /* a directory */
    assert_int_equal(cache_open(dir, &c, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "directory"));
}

static void test_default_path(void **s)
{
    (void)s;
    char buf[1024], want[600];
    err_t err;
    setenv("GSW_DB", "/some/where.sqlite", 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    assert_string_equal(buf, "/some/where.sqlite");
    unsetenv("GSW_DB");
    snprintf(want, sizeof want, "%s/xdg", dir);
    setenv("XDG_DATA_HOME", want, 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    snprintf(want, sizeof want, "%s/xdg/gsw/cache.sqlite", dir);
    assert_string_equal(buf, want);
    struct stat sb;
    snprintf(want, sizeof want, "%s/xdg/gsw", dir);
    assert_int_equal(stat(want, &sb), 0);
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", dir, 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    snprintf(want, sizeof want, "%s/.local/share/gsw/cache.sqlite", dir);
    assert_string_equal(buf, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_merge),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_default_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

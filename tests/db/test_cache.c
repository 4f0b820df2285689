/* The solved-position cache: round trips, bound merging, contradictions
 * refused, persistence and counters, concurrent writers (two connections and
 * two processes), garbage / truncated / corrupt / foreign / newer files refused
 * untouched, integrity checks, and the default location. Built a second time
 * with CACHE_TEST_LOCKED for the slow lock-timeout test. */
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

#include "db/book.h"
#include "db/cache.h"
#include "db/saved.h"

#ifdef CACHE_TEST_LOCKED
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

#include "tests/test_tmpdir.h"

static int setup(void **s)
{
    (void)s;
    return test_tmpdir_make("gsw-cache");
}

static int teardown(void **s)
{
    (void)s;
    return test_tmpdir_remove();
}

static cache_t *open_ok(const char *p)
{
    cache_t *c = NULL;
    err_t err;
    if (cache_open(p, &c, &err)) fail_msg("%s", err.msg);
    return c;
}

static void close_ok(cache_t *c)
{
    err_t err;
    if (cache_close(c, &err)) fail_msg("%s", err.msg);
}

static cache_entry_t entry(val_t lo, val_t hi, move_t best, const char *solver)
{
    cache_entry_t e = { .lo = lo, .hi = hi, .best = best, .nodes = 10, .time_ms = 1.5 };
    snprintf(e.solver, sizeof e.solver, "%s", solver);
    return e;
}

static int put(cache_t *c, uint32_t k, cache_entry_t e, err_t *err)
{
    return cache_put(c, "connect4", "7x6", (const uint8_t *)&k, sizeof k, &e, err);
}

static void put_ok(cache_t *c, uint32_t k, cache_entry_t e)
{
    err_t err;
    if (put(c, k, e, &err)) fail_msg("%s", err.msg);
}

static int get(cache_t *c, uint32_t k, cache_entry_t *e)
{
    err_t err;
    int r = cache_get(c, "connect4", "7x6", (const uint8_t *)&k, sizeof k, e, &err);
    if (r < 0) fail_msg("%s", err.msg);
    return r;
}

static void flush_ok(cache_t *c)
{
    err_t err;
    if (cache_flush(c, &err)) fail_msg("%s", err.msg);
}

static void stats_ok(cache_t *c, cache_stats_t *st)
{
    err_t err;
    if (cache_stats(c, st, &err)) fail_msg("%s", err.msg);
}

static void test_round_trip(void **s)
{
    (void)s;
    cache_t *c = open_ok(tmp_path("rt.sqlite"));
    cache_entry_t e;
    assert_int_equal(get(c, 1, &e), 0);
    assert_true(e.lo <= -VAL_WIN && e.hi >= VAL_WIN && e.best == MOVE_NONE);   /* a miss says nothing */
    put_ok(c, 1, entry(val_win(13), val_win(13), 3, "ab"));
    assert_int_equal(get(c, 1, &e), 1);   /* seen before any flush */
    assert_int_equal(e.lo, val_win(13));
    flush_ok(c);
    assert_int_equal(get(c, 1, &e), 1);
    assert_int_equal(e.lo, val_win(13));
    assert_int_equal(e.hi, val_win(13));
    assert_int_equal(e.best, 3);
    assert_string_equal(e.solver, "ab");
    assert_int_equal(e.nodes, 10);
    assert_true(e.time_ms == 1.5);
    /* other games, variants and keys are separate; an empty key is a key */
    err_t err;
    assert_int_equal(cache_get(c, "connect4", "6x5", (const uint8_t *)"\1\0\0\0", 4, &e, &err), 0);
    assert_int_equal(cache_get(c, "checkers", "7x6", (const uint8_t *)"\1\0\0\0", 4, &e, &err), 0);
    assert_int_equal(get(c, 2, &e), 0);
    cache_entry_t d = entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "dfpn");
    assert_int_equal(cache_put(c, "nim", "", (const uint8_t *)"", 0, &d, &err), GSW_OK);
    flush_ok(c);
    assert_int_equal(cache_get(c, "nim", "", (const uint8_t *)"", 0, &e, &err), 1);
    assert_int_equal(e.best, MOVE_NONE);
    assert_string_equal(e.solver, "dfpn");
    close_ok(c);
}

static void test_merge(void **s)
{
    (void)s;
    cache_t *c = open_ok(tmp_path("merge.sqlite"));
    cache_entry_t e;
    for (int flushed = 0; flushed < 2; flushed++) {   /* merged in memory, then in the file */
        uint32_t k = 10 + (uint32_t)flushed;
        /* at least a draw, then at most a draw: exactly a draw */
        put_ok(c, k, entry(VAL_DRAW, VAL_INF, MOVE_NONE, "ab"));
        if (flushed) flush_ok(c);
        put_ok(c, k, entry(-VAL_INF, VAL_DRAW, 4, "dfpn"));
        if (flushed) flush_ok(c);
        assert_int_equal(get(c, k, &e), 1);
        assert_int_equal(e.lo, VAL_DRAW);
        assert_int_equal(e.hi, VAL_DRAW);
        assert_int_equal(e.best, 4);
        assert_string_equal(e.solver, "dfpn");
        assert_int_equal(e.nodes, 20);   /* effort adds up */
        /* an exact value is never loosened, and keeps its move */
        put_ok(c, k, entry(val_loss(30), VAL_INF, 5, "ab"));
        if (flushed) flush_ok(c);
        assert_int_equal(get(c, k, &e), 1);
        assert_int_equal(e.lo, VAL_DRAW);
        assert_int_equal(e.hi, VAL_DRAW);
        assert_int_equal(e.best, 4);
        /* equally tight and newer: its move wins only if it has one */
        put_ok(c, k, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
        assert_int_equal(get(c, k, &e), 1);
        assert_int_equal(e.best, 4);
        put_ok(c, k, entry(VAL_DRAW, VAL_DRAW, 6, "ab"));
        assert_int_equal(get(c, k, &e), 1);
        assert_int_equal(e.best, 6);
    }
    close_ok(c);
}

static void test_contradiction(void **s)
{
    (void)s;
    const char *p = tmp_path("contra.sqlite");
    cache_t *c = open_ok(p);
    cache_entry_t e;
    err_t err;
    put_ok(c, 1, entry(val_win(13), val_win(13), 3, "ab"));
    put_ok(c, 2, entry(VAL_DRAW, VAL_INF, 1, "ab"));
    flush_ok(c);
    put_ok(c, 3, entry(VAL_DRAW, VAL_DRAW, 2, "ab"));   /* still pending */
    assert_int_equal(put(c, 1, entry(val_loss(4), val_loss(4), 0, "ab"), &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "connect4:7x6"));
    assert_int_equal(put(c, 2, entry(-VAL_INF, -1, 0, "ab"), &err), GSW_EFAIL);
    assert_int_equal(put(c, 3, entry(1, 1, 0, "ab"), &err), GSW_EFAIL);
    assert_int_equal(put(c, 4, entry(5, 3, 0, "ab"), &err), GSW_EFAIL);   /* crossed in itself */
    assert_non_null(strstr(err.msg, "connect4:7x6"));
    flush_ok(c);
    assert_int_equal(get(c, 1, &e), 1);
    assert_int_equal(e.lo, val_win(13));
    assert_int_equal(e.best, 3);
    assert_int_equal(get(c, 2, &e), 1);
    assert_int_equal(e.lo, VAL_DRAW);
    assert_int_equal(e.hi, VAL_INF);
    assert_int_equal(get(c, 3, &e), 1);
    assert_int_equal(e.lo, VAL_DRAW);
    assert_int_equal(get(c, 4, &e), 0);
    /* another connection stores the opposite while ours waits in memory:
     * the flush keeps its row, writes the rest, and says which game */
    cache_t *other = open_ok(p);
    put_ok(c, 5, entry(val_win(3), val_win(3), MOVE_NONE, "ab"));
    put_ok(c, 6, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
    put_ok(other, 5, entry(val_loss(2), val_loss(2), MOVE_NONE, "dfpn"));
    flush_ok(other);
    assert_int_equal(cache_flush(c, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "connect4:7x6"));
    assert_int_equal(get(c, 5, &e), 1);
    assert_int_equal(e.lo, val_loss(2));
    assert_int_equal(get(other, 6, &e), 1);
    close_ok(other);
    close_ok(c);
}

static void test_persistence_and_counters(void **s)
{
    (void)s;
    const char *p = tmp_path("persist.sqlite");
    cache_t *c = open_ok(p);
    cache_entry_t e;
    for (uint32_t k = 0; k < 1000; k++)   /* more than a batch */
        put_ok(c, k, entry(k % 3 ? VAL_DRAW : -5, VAL_DRAW, k, "ab"));
    cache_entry_t d = entry(1, 1, MOVE_NONE, "ab");
    err_t err;
    assert_int_equal(cache_put(c, "checkers", "english", (const uint8_t *)"xy", 2, &d, &err), GSW_OK);
    assert_int_equal(get(c, 7, &e), 1);
    assert_int_equal(get(c, 5000, &e), 0);
    close_ok(c);
    c = open_ok(p);
    assert_int_equal(get(c, 999, &e), 1);
    assert_int_equal(e.best, 999);
    assert_int_equal(get(c, 0, &e), 1);
    assert_int_equal(e.lo, -5);
    static cache_stats_t st;
    stats_ok(c, &st);
    assert_string_equal(st.path, p);
    assert_int_equal(st.schema_version, 5);
    assert_true(st.file_bytes > 0);
    assert_int_equal(st.rows, 1001);
    assert_int_equal(st.exact_rows, 666 + 1);   /* k % 3 == 0 are bounds */
    assert_int_equal(st.hits, 3);
    assert_int_equal(st.misses, 1);
    assert_int_equal(st.puts, 1001);
    assert_int_equal(st.ngroups, 2);
    assert_string_equal(st.groups[0].game, "checkers");
    assert_string_equal(st.groups[0].variant, "english");
    assert_int_equal(st.groups[0].rows, 1);
    assert_string_equal(st.groups[1].game, "connect4");
    assert_int_equal(st.groups[1].rows, 1000);
    /* two connections' counts add up */
    cache_t *b = open_ok(p);
    assert_int_equal(get(b, 1, &e), 1);
    assert_int_equal(get(b, 6000, &e), 0);
    close_ok(b);
    assert_int_equal(get(c, 6001, &e), 0);
    close_ok(c);
    c = open_ok(p);
    stats_ok(c, &st);
    assert_int_equal(st.hits, 4);
    assert_int_equal(st.misses, 3);
    int ok;
    char report[512];
    assert_int_equal(cache_check(c, &ok, report, sizeof report, &err), GSW_OK);
    assert_true(ok);
    assert_string_equal(report, "");
    close_ok(c);
}

/* In a child process: no cmocka, just an exit status. */
static int child_write(const char *p, uint32_t base, int n)
{
    cache_t *c;
    err_t err;
    if (cache_open(p, &c, &err)) { fprintf(stderr, "child: %s\n", err.msg); return 1; }
    for (int i = 0; i < n; i++) {
        uint32_t k = base + (uint32_t)i;
        cache_entry_t e = entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab");
        if (cache_put(c, "connect4", "7x6", (const uint8_t *)&k, sizeof k, &e, &err)
            || (i % 100 == 99 && cache_flush(c, &err))) {
            fprintf(stderr, "child: %s\n", err.msg);
            cache_close(c, &err);
            return 1;
        }
    }
    if (cache_close(c, &err)) { fprintf(stderr, "child: %s\n", err.msg); return 1; }
    return 0;
}

static void expect_rows(const char *p, uint32_t base, int n, int64_t total)
{
    cache_t *c = open_ok(p);
    cache_entry_t e;
    static cache_stats_t st;
    stats_ok(c, &st);
    assert_int_equal(st.rows, total);
    for (int i = 0; i < n; i++) assert_int_equal(get(c, base + (uint32_t)i, &e), 1);
    close_ok(c);
}

static void test_two_connections(void **s)
{
    (void)s;
    const char *p = tmp_path("conn.sqlite");
    cache_t *a = open_ok(p), *b = open_ok(p);
    for (uint32_t i = 0; i < 2000; i++) {
        put_ok(a, i, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
        put_ok(b, 10000 + i, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
        if (i % 100 == 99) { flush_ok(a); flush_ok(b); }
    }
    close_ok(a);
    close_ok(b);
    expect_rows(p, 0, 2000, 4000);
    expect_rows(p, 10000, 2000, 4000);
}

static void test_two_processes(void **s)
{
    (void)s;
    const char *p = tmp_path("proc.sqlite");   /* both race to create it too */
    pid_t pid[2];
    for (int i = 0; i < 2; i++) {
        pid[i] = fork();
        assert_true(pid[i] >= 0);
        if (pid[i] == 0) _exit(child_write(p, (uint32_t)i * 100000, 2000));
    }
    for (int i = 0; i < 2; i++) {
        int status;
        assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    expect_rows(p, 0, 2000, 4000);
    expect_rows(p, 100000, 2000, 4000);
}

static void write_file(const char *p, const void *data, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *read_file(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    unsigned char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) buf = realloc(buf, cap = cap * 2 + 65536);
        assert_non_null(buf);
        size_t got = fread(buf + *n, 1, cap - *n, f);
        *n += got;
        if (!got) break;
    }
    fclose(f);
    return buf;
}

/* cache_open fails with one line naming the file (and `what`), and leaves
 * the file byte for byte as it was. Returns 1; 0 if the open succeeded. */
static int refused(const char *p, const char *what, int must)
{
    size_t n0, n1;
    unsigned char *before = read_file(p, &n0);
    cache_t *c = NULL;
    err_t err;
    int rc = cache_open(p, &c, &err), was_refused = rc != GSW_OK;
    if (rc == GSW_OK) {
        if (must) fail_msg("%s opened", p);
        int ok = 1;
        char report[512];
        /* the header survived: the damage must show in a check */
        rc = cache_check(c, &ok, report, sizeof report, &err);
        assert_true(rc != GSW_OK || !ok);
        if (rc == GSW_OK) assert_true(strlen(report) > 0);
        cache_close(c, &err);
    } else {
        assert_int_equal(rc, GSW_EFAIL);
        assert_int_equal(err.code, GSW_EFAIL);
        assert_non_null(strstr(err.msg, p));
        if (what && !strstr(err.msg, what)) fail_msg("'%s' lacks '%s'", err.msg, what);
        assert_null(strchr(err.msg, '\n'));
    }
    unsigned char *after = read_file(p, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
    return was_refused;
}

/* A real cache of n rows, checkpointed into its one file. */
static const char *real_cache(const char *name, int n)
{
    const char *p = tmp_path(name);
    assert_int_equal(child_write(p, 0, n), 0);
    return p;
}

static void copy_prefix(const char *from, const char *to, size_t n)
{
    size_t len;
    unsigned char *buf = read_file(from, &len);
    assert_true(n <= len);
    write_file(to, buf, n);
    free(buf);
}

static void test_garbage_files(void **s)
{
    (void)s;
    unsigned char junk[8192];
    srand(7);
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)rand();
    const char *p = tmp_path("garbage.sqlite");
    write_file(p, junk, sizeof junk);
    refused(p, "not a database", 1);
    p = tmp_path("short.sqlite");
    write_file(p, "hello\n", 6);
    refused(p, "not a database", 1);
    memcpy(junk, "SQLite format 3", 16);   /* the magic, then junk */
    p = tmp_path("magic.sqlite");
    write_file(p, junk, sizeof junk);
    refused(p, NULL, 1);
}

static void test_truncated(void **s)
{
    (void)s;
    const char *real = real_cache("real.sqlite", 3000);
    size_t cut[] = { 20000, 8192, 50 };
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        const char *p = tmp_path("truncated.sqlite");
        copy_prefix(real, p, cut[i]);
        refused(p, cut[i] % 512 ? "truncated or corrupt" : "corrupt", 1);
    }
    expect_rows(real, 0, 3000, 3000);   /* the original is fine */
}

static void test_corrupt_page(void **s)
{
    (void)s;
    const char *real = real_cache("real2.sqlite", 3000), *p = tmp_path("corrupt.sqlite");
    size_t n;
    unsigned char *buf = read_file(real, &n);
    assert_true(n > 6 * 4096);
    memset(buf + 4 * 4096, 0x55, 4096);   /* scribble over one page in the middle */
    write_file(p, buf, n);
    free(buf);
    refused(p, NULL, 0);
}

static void raw_sql(const char *p, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s", msg);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_foreign_and_newer(void **s)
{
    (void)s;
    const char *p = tmp_path("foreign.sqlite");
    raw_sql(p, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    refused(p, "not a gsw cache", 1);
    p = tmp_path("otherapp.sqlite");
    raw_sql(p, "PRAGMA application_id = 1234;");
    refused(p, "not a gsw cache", 1);
    p = real_cache("newer.sqlite", 10);
    raw_sql(p, "PRAGMA user_version = 99;");
    refused(p, "newer", 1);
}

/* Book rows, read back joined with their solved rows (NULL without one). */
typedef struct book_seen { int n, with_row, ply_sum; val_t lo; } book_seen_t;

static int book_seen(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e)
{
    (void)key, (void)klen;
    book_seen_t *b = ctx;
    b->n++;
    b->ply_sum += ply;
    if (e) { b->with_row++; b->lo = e->lo; }
    return 0;
}

/* A version-1 file (before saved games) migrates and keeps its rows. */
static void test_migration_and_saved_games(void **s)
{
    (void)s;
    const char *p = tmp_path("v1.sqlite");
    raw_sql(p, "CREATE TABLE gsw_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
               "INSERT INTO gsw_meta VALUES ('hits', 0), ('misses', 0), ('puts', 0);"
               "CREATE TABLE solved (game TEXT NOT NULL, variant TEXT NOT NULL, key BLOB NOT NULL,"
               "  lo INTEGER NOT NULL, hi INTEGER NOT NULL, best INTEGER, solver TEXT, nodes INTEGER,"
               "  time_ms REAL, updated INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
               "  PRIMARY KEY (game, variant, key)) WITHOUT ROWID;"
               "INSERT INTO solved VALUES ('connect4', '7x6', x'0102', 5, 5, 3, 'ab', 10, 1.0, 0);"
               "PRAGMA application_id = 1735620401; PRAGMA user_version = 1;");
    cache_t *c = open_ok(p);
    static cache_stats_t st;
    stats_ok(c, &st);
    assert_int_equal(st.schema_version, 5);
    assert_int_equal(st.rows, 1);
    cache_entry_t e;
    err_t err;
    assert_int_equal(cache_get(c, "connect4", "7x6", (const uint8_t *)"\x01\x02", 2, &e, &err), 1);
    assert_int_equal(e.lo, 5);
    static saved_game_t g, h, list[4];
    snprintf(g.name, sizeof g.name, "first");
    snprintf(g.game, sizeof g.game, "connect4");
    snprintf(g.variant, sizeof g.variant, "5x4");
    snprintf(g.moves, sizeof g.moves, "3 3 2");
    assert_int_equal(saved_get(c, "first", &h, &err), 0);
    assert_int_equal(saved_put(c, &g, &err), GSW_OK);
    snprintf(g.moves, sizeof g.moves, "3 3 2 4");   /* saving again replaces */
    assert_int_equal(saved_put(c, &g, &err), GSW_OK);
    snprintf(g.name, sizeof g.name, "second");
    assert_int_equal(saved_put(c, &g, &err), GSW_OK);
    close_ok(c);
    c = open_ok(p);
    assert_int_equal(saved_get(c, "first", &h, &err), 1);
    assert_string_equal(h.moves, "3 3 2 4");
    assert_string_equal(h.variant, "5x4");
    assert_int_equal(saved_list(c, list, 4, &err), 2);
    assert_int_equal(saved_list(c, list, 1, &err), 1);
    /* schema 5: the book table, beside the old rows */
    book_row_t rows[2] = { { .key = { 1, 2 }, .klen = 2, .ply = 3 }, { .key = { 9 }, .klen = 1, .ply = 4 } };
    assert_int_equal(book_put(c, "connect4", "7x6", rows, 2, &err), GSW_OK);
    int64_t n;
    int max_ply;
    assert_int_equal(book_size(c, "connect4", "7x6", &n, &max_ply, &err), GSW_OK);
    assert_int_equal(n, 2);
    assert_int_equal(max_ply, 4);
    assert_int_equal(book_size(c, "connect4", "6x5", &n, &max_ply, &err), GSW_OK);
    assert_int_equal(n, 0);
    assert_int_equal(max_ply, -1);
    close_ok(c);
    c = open_ok(p);
    book_seen_t seen = { 0 };
    assert_int_equal(book_each(c, "connect4", "7x6", -1, book_seen, &seen, &err), GSW_OK);
    assert_int_equal(seen.n, 2);
    assert_int_equal(seen.ply_sum, 7);
    assert_int_equal(seen.with_row, 1);   /* x'0102' has its solved row, x'09' none */
    assert_int_equal(seen.lo, 5);
    memset(&seen, 0, sizeof seen);
    assert_int_equal(book_each(c, "connect4", "7x6", 3, book_seen, &seen, &err), GSW_OK);
    assert_int_equal(seen.n, 1);   /* up to ply 3 */
    close_ok(c);
}

static void test_new_and_odd_paths(void **s)
{
    (void)s;
    char p[400];
    snprintf(p, sizeof p, "%s/empty-XXXXXX", dir);
    int fd = mkstemp(p);   /* an empty file: a new cache */
    assert_true(fd >= 0);
    close(fd);
    cache_t *c = open_ok(p);
    int ok = 0;
    char report[512];
    err_t err;
    assert_int_equal(cache_check(c, &ok, report, sizeof report, &err), GSW_OK);
    assert_true(ok);
    static cache_stats_t st;
    stats_ok(c, &st);
    assert_int_equal(st.schema_version, 5);
    assert_int_equal(st.rows, 0);
    close_ok(c);
    c = (cache_t *)&err;
    assert_int_equal(cache_open(dir, &c, &err), GSW_EFAIL);
    assert_null(c);
    assert_non_null(strstr(err.msg, "directory"));
    /* a new file in folders that do not exist yet: they are made */
    snprintf(p, sizeof p, "%s/no/such/dir/c.sqlite", dir);
    c = open_ok(p);
    put_ok(c, 5, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
    close_ok(c);
    expect_rows(p, 5, 1, 1);
    /* ... unless a file stands where a folder must go */
    char plain[400];
    snprintf(plain, sizeof plain, "%s/plainfile", dir);
    write_file(plain, "x", 1);
    snprintf(p, sizeof p, "%s/plainfile/sub/c.sqlite", dir);
    c = (cache_t *)&err;
    assert_int_equal(cache_open(p, &c, &err), GSW_EFAIL);
    assert_null(c);
    assert_non_null(strstr(err.msg, "cannot create cache directory"));
    assert_non_null(strstr(err.msg, plain));
}

/* A damaged file's message says how to go on: --no-cache, or mv it aside. */
static void test_damage_hint(void **s)
{
    (void)s;
    const char *p = tmp_path("junk.sqlite");
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 7 + 3);
    write_file(p, junk, sizeof junk);
    cache_t *c;
    err_t err;
    assert_int_equal(cache_open(p, &c, &err), GSW_EFAIL);
    char want[900];
    snprintf(want, sizeof want, "mv %s %s.bad", p, p);
    assert_non_null(strstr(err.msg, "--no-cache"));
    if (!strstr(err.msg, want)) fail_msg("'%s' lacks '%s'", err.msg, want);
    assert_null(strchr(err.msg, '\n'));
    p = tmp_path("it's junk.sqlite");   /* a path a shell needs quoted */
    write_file(p, junk, sizeof junk);
    assert_int_equal(cache_open(p, &c, &err), GSW_EFAIL);
    snprintf(want, sizeof want, "mv '%s/it'\\''s junk.sqlite' '%s/it'\\''s junk.sqlite.bad'", dir, dir);
    if (!strstr(err.msg, want)) fail_msg("'%s' lacks '%s'", err.msg, want);
}

/* Notices, collected one per line. */
static char notices[8192];
static void note(void *ctx, const char *msg)
{
    (void)ctx;
    size_t n = strlen(notices);
    snprintf(notices + n, sizeof notices - n, "%s\n", msg);
}

/* A cache whose notices land in notices[]. */
static cache_t *open_noticed(const char *p)
{
    cache_t *c = NULL;
    err_t err;
    if (cache_open_notice(p, note, NULL, &c, &err)) fail_msg("%s", err.msg);
    return c;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
    return n;
}

/* The checks of a read-only cache (in a process that cannot write it). */
static int readonly_checks(const char *p, const char *why)
{
#define CHECK(x) do { if (!(x)) { fprintf(stderr, "readonly: %s:%d: %s (%s)\n", __FILE__, __LINE__, #x, err.msg); return 1; } } while (0)
    cache_t *c = NULL;
    err_t err;
    err_clear(&err);
    notices[0] = '\0';
    CHECK(cache_open(p, &c, &err) == GSW_OK);
    cache_set_notice(c, note, NULL);
    CHECK(cache_readonly(c) && !cache_storing(c));
    cache_entry_t e;
    uint32_t k = 3;
    CHECK(cache_get(c, "connect4", "7x6", (const uint8_t *)&k, sizeof k, &e, &err) == 1);   /* reads work */
    static cache_stats_t st;
    CHECK(cache_stats(c, &st, &err) == GSW_OK && st.rows == 20);
    int ok = 0;
    char report[256];
    CHECK(cache_check(c, &ok, report, sizeof report, &err) == GSW_OK && ok);
    CHECK(notices[0] == '\0');   /* reading says nothing */
    for (uint32_t i = 100; i < 400; i++) {   /* stores: said once, dropped, no error */
        e = entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab");
        CHECK(cache_put(c, "connect4", "7x6", (const uint8_t *)&i, sizeof i, &e, &err) == GSW_OK);
    }
    CHECK(cache_flush(c, &err) == GSW_OK);
    CHECK(cache_delete(c, "connect4", "7x6", (const uint8_t *)&k, sizeof k, &err) == GSW_OK);
    CHECK(count_of(notices, "won't be stored") == 1);
    CHECK(strstr(notices, why) && strstr(notices, "read-only") && strstr(notices, p));
    CHECK(cache_close(c, &err) == GSW_OK);
    CHECK(count_of(notices, "\n") == 1);
    return 0;
#undef CHECK
}

/* Run readonly_checks as a user who cannot write p: as root (who can write
 * anything), in a child that becomes nobody. */
static void readonly_as_other(const char *p, const char *why)
{
    if (geteuid() != 0) {
        assert_int_equal(readonly_checks(p, why), 0);
        return;
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setgid(65534) || setuid(65534)) _exit(3);
        _exit(readonly_checks(p, why));
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_readonly(void **s)
{
    (void)s;
    char sub[400], p[500], side[520];
    snprintf(sub, sizeof sub, "%s/ro", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(chmod(dir, 0755), 0);   /* others may look in (mkdtemp made it 0700) */
    snprintf(p, sizeof p, "%s/c.sqlite", sub);
    cache_t *c = open_ok(p);
    for (uint32_t i = 0; i < 20; i++) put_ok(c, i, entry(VAL_DRAW, VAL_DRAW, MOVE_NONE, "ab"));
    close_ok(c);
    size_t n0, n1;
    unsigned char *before = read_file(p, &n0);
    /* the file read-only, its folder too */
    assert_int_equal(chmod(p, 0444), 0);
    assert_int_equal(chmod(sub, 0555), 0);
    readonly_as_other(p, "the file is read-only");
    /* a file the user could write in a folder it cannot */
    assert_int_equal(chmod(p, 0666), 0);
    readonly_as_other(p, "its folder is read-only");
    /* a read-only file in a folder it can write */
    assert_int_equal(chmod(p, 0444), 0);
    assert_int_equal(chmod(sub, 0777), 0);
    readonly_as_other(p, "the file is read-only");
    unsigned char *after = read_file(p, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
    snprintf(side, sizeof side, "%s-wal", p);   /* no log was left beside it */
    struct stat sb;
    assert_int_equal(stat(side, &sb), -1);
    assert_int_equal(chmod(sub, 0755), 0);
    assert_int_equal(chmod(p, 0644), 0);
}

/* Another connection holds the write lock past the wait ($GSW_LOCK_MS): the
 * wait is said at once, the stores stay pending without an error and go in
 * once the lock is free; at close, what could not be stored is counted. */
static void test_lock_notice(void **s)
{
    (void)s;
    setenv("GSW_LOCK_MS", "400", 1);
    const char *p = real_cache("lockn.sqlite", 10);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    notices[0] = '\0';
    cache_t *c = open_noticed(p);
    err_t err;
    cache_entry_t e;
    assert_int_equal(put(c, 99, entry(0, 0, MOVE_NONE, "ab"), &err), GSW_OK);
    assert_int_equal(cache_flush(c, &err), GSW_OK);   /* no error: the answer stands */
    assert_non_null(strstr(notices, "waiting for the cache lock (another gsw is writing"));
    assert_non_null(strstr(notices, "still locked after 0.4 s"));
    assert_false(cache_storing(c));
    assert_int_equal(get(c, 99, &e), 1);   /* still pending, still seen */
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    flush_ok(c);   /* the lock is free: the store goes in */
    assert_true(cache_storing(c));
    close_ok(c);
    expect_rows(p, 99, 1, 11);
    /* locked to the end: the close counts what was lost */
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    notices[0] = '\0';
    c = open_noticed(p);
    assert_int_equal(put(c, 100, entry(0, 0, MOVE_NONE, "ab"), &err), GSW_OK);
    assert_int_equal(put(c, 101, entry(0, 0, MOVE_NONE, "ab"), &err), GSW_OK);
    assert_int_equal(cache_flush(c, &err), GSW_OK);
    close_ok(c);
    assert_non_null(strstr(notices, "2 results were not stored"));
    assert_int_equal(count_of(notices, "waiting for the cache lock"), 1);
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    unsetenv("GSW_LOCK_MS");
}

static void test_check_finds_bad_bounds(void **s)
{
    (void)s;
    const char *p = real_cache("bad.sqlite", 10);
    raw_sql(p, "INSERT INTO solved (game, variant, key, lo, hi) VALUES ('connect4', '7x6', x'00', 5, 3);");
    cache_t *c = open_ok(p);
    int ok = 1;
    char report[512];
    err_t err;
    assert_int_equal(cache_check(c, &ok, report, sizeof report, &err), GSW_OK);
    assert_false(ok);
    assert_non_null(strstr(report, "connect4:7x6"));
    assert_int_equal(cache_check(c, &ok, report, 8, &err), GSW_OK);   /* a small report is cut */
    assert_false(ok);
    assert_true(strlen(report) < 8);
    close_ok(c);
}

static void test_default_path(void **s)
{
    (void)s;
    char buf[1024], want[600];
    err_t err;
    struct stat sb;
    setenv("GSW_DB", "/some/where.sqlite", 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    assert_string_equal(buf, "/some/where.sqlite");
    setenv("GSW_DB", "", 1);   /* empty: as if unset */
    snprintf(want, sizeof want, "%s/xdg/data", dir);
    setenv("XDG_DATA_HOME", want, 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    snprintf(want, sizeof want, "%s/xdg/data/gsw/cache.sqlite", dir);
    assert_string_equal(buf, want);
    snprintf(want, sizeof want, "%s/xdg/data/gsw", dir);
    assert_int_equal(stat(want, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    unsetenv("GSW_DB");
    snprintf(want, sizeof want, "%s/home", dir);
    setenv("HOME", want, 1);
    setenv("XDG_DATA_HOME", "", 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    snprintf(want, sizeof want, "%s/home/.local/share/gsw/cache.sqlite", dir);
    assert_string_equal(buf, want);
    unsetenv("XDG_DATA_HOME");
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_OK);
    assert_string_equal(buf, want);
    /* a file where a directory must go */
    snprintf(want, sizeof want, "%s/plain", dir);
    write_file(want, "x", 1);
    setenv("XDG_DATA_HOME", want, 1);
    assert_int_equal(cache_default_path(buf, sizeof buf, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, want));
    unsetenv("XDG_DATA_HOME");
}

#ifdef CACHE_TEST_LOCKED
/* Another connection holds the write lock past the default wait (10 s). */
static void test_locked(void **s)
{
    (void)s;
    const char *p = real_cache("locked.sqlite", 10);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    notices[0] = '\0';
    cache_t *c = open_noticed(p);
    err_t err;
    assert_int_equal(put(c, 99, entry(0, 0, MOVE_NONE, "ab"), &err), GSW_OK);
    assert_int_equal(cache_flush(c, &err), GSW_OK);   /* waited, said, kept pending */
    assert_non_null(strstr(notices, "still locked after 10.0 s"));
    assert_non_null(strstr(notices, p));
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    flush_ok(c);   /* the store waited and goes in now */
    cache_entry_t e;
    assert_int_equal(get(c, 99, &e), 1);
    close_ok(c);
    /* an exclusive lock keeps even an open out */
    assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode=DELETE; BEGIN EXCLUSIVE;", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(cache_open(p, &c, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "database is locked"));
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef CACHE_TEST_LOCKED
        cmocka_unit_test(test_locked),
#else
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_contradiction),
        cmocka_unit_test(test_persistence_and_counters),
        cmocka_unit_test(test_two_connections),
        cmocka_unit_test(test_two_processes),
        cmocka_unit_test(test_garbage_files),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_corrupt_page),
        cmocka_unit_test(test_foreign_and_newer),
        cmocka_unit_test(test_migration_and_saved_games),
        cmocka_unit_test(test_new_and_odd_paths),
        cmocka_unit_test(test_check_finds_bad_bounds),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_damage_hint),
        cmocka_unit_test(test_readonly),
        cmocka_unit_test(test_lock_notice),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

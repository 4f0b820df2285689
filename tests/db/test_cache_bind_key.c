/* cache_bind_key (db/cache_private.h): a row's (game, variant, key) bound
 * as ?1 to ?3 of a statement, written and read back by them, an empty key
 * as an empty blob (not NULL). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "db/cache_private.h"

static sqlite3 *open_table(void)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (game TEXT, variant TEXT, key BLOB, v INTEGER)", NULL, NULL,
                                  NULL),
                     SQLITE_OK);
    return db;
}

static void put(sqlite3 *db, const char *game, const char *variant, const uint8_t *key, size_t klen, int v)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL), SQLITE_OK);
    cache_bind_key(st, game, variant, key, klen);
    sqlite3_bind_int(st, 4, v);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
}

/* The v of the row keyed so, or -1 for none. */
static int get(sqlite3 *db, const char *game, const char *variant, const uint8_t *key, size_t klen)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT v FROM t WHERE game = ?1 AND variant = ?2 AND key = ?3", -1, &st,
                                        NULL),
                     SQLITE_OK);
    cache_bind_key(st, game, variant, key, klen);
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static void test_binds_and_reads_back(void **state)
{
    (void)state;
    sqlite3 *db = open_table();
    const uint8_t k1[] = { 1, 2, 3, 0, 5 }, k2[] = { 1, 2, 3, 0, 6 };
    put(db, "chess", "standard", k1, sizeof k1, 7);
    put(db, "chess", "standard", k2, sizeof k2, 8);
    put(db, "checkers", "english", k1, sizeof k1, 9);
    assert_int_equal(get(db, "chess", "standard", k1, sizeof k1), 7);
    assert_int_equal(get(db, "chess", "standard", k2, sizeof k2), 8);
    assert_int_equal(get(db, "checkers", "english", k1, sizeof k1), 9);
    /* every part of the key counts, each in its own place, the key's bytes past a zero too */
    assert_int_equal(get(db, "chess", "english", k1, sizeof k1), -1);
    assert_int_equal(get(db, "standard", "chess", k1, sizeof k1), -1);
    assert_int_equal(get(db, "chess", "standard", k1, 3), -1);
    /* the columns hold what was bound */
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT game, variant, key FROM t WHERE v = 7", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "chess");
    assert_string_equal((const char *)sqlite3_column_text(st, 1), "standard");
    assert_int_equal(sqlite3_column_bytes(st, 2), (int)sizeof k1);
    assert_memory_equal(sqlite3_column_blob(st, 2), k1, sizeof k1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* An empty key is an empty blob, found again by an empty key. */
static void test_empty_key(void **state)
{
    (void)state;
    sqlite3 *db = open_table();
    put(db, "connect4", "7x6", NULL, 0, 4);
    assert_int_equal(get(db, "connect4", "7x6", NULL, 0), 4);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT typeof(key), length(key) FROM t", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "blob");
    assert_int_equal(sqlite3_column_int(st, 1), 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binds_and_reads_back),
        cmocka_unit_test(test_empty_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

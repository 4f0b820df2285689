/* Opening books in the cache file (see book.h): a table of (game, variant,
 * key, ply) beside the solved positions, read joined with them. */
#include "db/book.h"

#include "db/cache_private.h"
#include <stdio.h>
#include <string.h>

int book_put(cache_t *c, const char *game, const char *variant, const book_row_t *rows, int n, err_t *err)
{
    if (n <= 0 || !cache_may_store(c)) return GSW_OK;   /* read-only: said once */
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return cache_store_failed(c, err, "store book positions");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO book (game, variant, key, ply) VALUES (?1, ?2, ?3, ?4)", -1,
                           &st, NULL) != SQLITE_OK) {
        int rc = cache_fail(c, err, "store book positions");
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        cache_bind_key(st, game, variant, rows[i].key, rows[i].klen);
        sqlite3_bind_int(st, 4, rows[i].ply);
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK) return GSW_OK;
    int rc = cache_store_failed(c, err, "store book positions");
    if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int book_each(cache_t *c, const char *game, const char *variant, int max_ply, book_row_fn fn, void *ctx, err_t *err)
{
    if (cache_flush(c, err)) return GSW_EFAIL;
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT b.key, b.ply, s.lo, s.hi, s.best, s.solver FROM book b LEFT JOIN solved s "
                               "ON s.game = b.game AND s.variant = b.variant AND s.key = b.key "
                               "WHERE b.game = ?1 AND b.variant = ?2 AND (?3 < 0 OR b.ply <= ?3) ORDER BY b.ply, b.key",
                           -1, &q, NULL) != SQLITE_OK)
        return cache_fail(c, err, "read the book");
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, max_ply);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        uint8_t key[GSW_MAX_KEY];
        int klen = sqlite3_column_bytes(q, 0);
        if (klen > GSW_MAX_KEY) klen = GSW_MAX_KEY;   /* not a key gsw wrote: the game will refuse it */
        if (klen) memcpy(key, sqlite3_column_blob(q, 0), (size_t)klen);
        cache_entry_t e;
        memset(&e, 0, sizeof e);
        int has = sqlite3_column_type(q, 2) == SQLITE_INTEGER && sqlite3_column_type(q, 3) == SQLITE_INTEGER;
        if (has) {
            e.lo = (val_t)sqlite3_column_int64(q, 2);
            e.hi = (val_t)sqlite3_column_int64(q, 3);
            e.best = sqlite3_column_type(q, 4) == SQLITE_NULL ? MOVE_NONE : (move_t)sqlite3_column_int64(q, 4);
            const unsigned char *s = sqlite3_column_text(q, 5);
            snprintf(e.solver, sizeof e.solver, "%s", s ? (const char *)s : "");
        }
        stop = fn(ctx, key, (size_t)klen, sqlite3_column_int(q, 1), has ? &e : NULL);
    }
    int ok = stop || rc == SQLITE_DONE;
    if (!ok) cache_fail(c, err, "read the book");
    sqlite3_finalize(q);
    return ok ? GSW_OK : GSW_EFAIL;
}

int book_size(cache_t *c, const char *game, const char *variant, int64_t *rows, int *max_ply, err_t *err)
{
    *rows = 0;
    *max_ply = -1;
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT count(*), max(ply) FROM book WHERE game = ?1 AND variant = ?2", -1, &q, NULL)
        != SQLITE_OK)
        return cache_fail(c, err, "read the book");
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, variant, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q) == SQLITE_ROW ? GSW_OK : cache_fail(c, err, "read the book");
    if (!rc) {
        *rows = sqlite3_column_int64(q, 0);
        if (sqlite3_column_type(q, 1) == SQLITE_INTEGER) *max_ply = sqlite3_column_int(q, 1);
    }
    sqlite3_finalize(q);
    return rc;
}

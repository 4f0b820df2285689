/* For db/ only: the cache's SQLite connection, for the tables beside the
 * solved positions (saved games, proof trees), and its error words. */
#ifndef GSW_CACHE_PRIVATE_H
#define GSW_CACHE_PRIVATE_H

#include <sqlite3.h>

#include "db/cache.h"

sqlite3 *cache_sqlite(cache_t *c, char *path, size_t n);
/* The last SQLite error on c's connection as one line naming the file. */
int cache_fail(cache_t *c, err_t *err, const char *doing);
/* May a write go to the file? 0 for a read-only cache (which is said once). */
int cache_may_store(cache_t *c);
/* A write on c's connection failed: a lock held past the wait, or a file
 * that cannot be written, is said and is no error (GSW_OK: nothing stored);
 * anything else is an error as cache_fail makes it. */
int cache_store_failed(cache_t *c, err_t *err, const char *doing);

/* Bind a row's key to a statement's ?1 (game), ?2 (variant) and ?3 (key:
 * klen bytes, an empty blob when klen is 0), as every table in the file
 * keys its rows. */
static inline void cache_bind_key(sqlite3_stmt *st, const char *game, const char *variant, const uint8_t *key,
                                  size_t klen)
{
    sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
    if (klen) sqlite3_bind_blob(st, 3, key, (int)klen, SQLITE_STATIC);
    else sqlite3_bind_zeroblob(st, 3, 0);
}

#endif

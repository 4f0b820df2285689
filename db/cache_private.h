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

#endif

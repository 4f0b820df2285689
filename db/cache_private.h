/* For db/ only: the cache's SQLite connection, for the tables beside the
 * solved positions (saved games, proof trees), and its error words. */
#ifndef GSW_CACHE_PRIVATE_H
#define GSW_CACHE_PRIVATE_H

#include <sqlite3.h>

#include "db/cache.h"

sqlite3 *cache_sqlite(cache_t *c, char *path, size_t n);
/* The last SQLite error on c's connection as one line naming the file. */
int cache_fail(cache_t *c, err_t *err, const char *doing);

#endif

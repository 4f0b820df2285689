/* Opening books in the cache file: which positions of a (game, variant) are
 * book positions, and at which ply. Their values are the solved rows of the
 * same keys (one truth: a row that `cache verify --fix` drops leaves its
 * book position without a value, and the next `book build` solves it again). */
#ifndef GSW_DB_BOOK_H
#define GSW_DB_BOOK_H

#include "db/cache.h"

typedef struct book_row {
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    int ply;
} book_row_t;

/* Mark n positions as book positions (key as pos_key made it), in one
 * transaction. A read-only cache stores nothing (said once); a lock held
 * past the wait is said and is no error. */
int book_put(cache_t *c, const char *game, const char *variant, const book_row_t *rows, int n, err_t *err);
/* Every book position of (game, variant) with ply <= max_ply (-1: every
 * ply), by ply then key, with its solved row (NULL when the cache holds
 * none); pending stores are written first. Stops early when fn returns
 * nonzero. Rows whose key or ply no game could have made are passed on as
 * they are: the caller decodes them (and skips what it cannot). */
typedef int (*book_row_fn)(void *ctx, const uint8_t *key, size_t klen, int ply, const cache_entry_t *e);
int book_each(cache_t *c, const char *game, const char *variant, int max_ply, book_row_fn fn, void *ctx, err_t *err);
/* How many book positions (game, variant) has and its deepest ply (-1: none). */
int book_size(cache_t *c, const char *game, const char *variant, int64_t *rows, int *max_ply, err_t *err);

#endif

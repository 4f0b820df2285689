/* The SQLite cache of solved positions: one file (WAL mode) shared by every gsw
 * process, keyed by (game, variant, canonical position key). A row holds a
 * lower and an upper bound on the value (val_t, from the side to move); equal
 * bounds are an exact value. Storing merges: bounds only ever tighten, so a
 * proof is never lost and a window bound is never taken for a value.
 * db/ knows positions only as the bytes the game produced. */
#ifndef GSW_CACHE_H
#define GSW_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"
#include "core/value.h"
#include "db/cache_path.h"

typedef struct cache cache_t;

typedef struct cache_entry {
    val_t lo, hi;          /* lo <= true value <= hi; lo == hi: exact */
    move_t best;           /* a best move for the canonical orientation, or MOVE_NONE */
    char solver[16];       /* "ab", "dfpn", ... that produced it */
    uint64_t nodes;        /* effort spent */
    double time_ms;
} cache_entry_t;

typedef struct cache_stats {
    int schema_version;
    char path[1024];
    int64_t file_bytes;
    int64_t rows;               /* solved positions */
    int64_t exact_rows;         /* of which exact */
    int64_t hits, misses, puts; /* counted over the file's life */
    int ngroups;                /* per (game, variant) row counts */
    struct { char game[32]; char variant[48]; int64_t rows; } groups[64];
} cache_stats_t;

/* Open (creating the file, its folder, and migrating as needed). GSW_EFAIL
 * with a one-line message for a file that is not a gsw cache, is corrupt (the
 * message says how to go on: --no-cache, or moving it aside), or stays
 * locked. A file this process may not write (or whose folder it may not
 * write) opens read-only: reads work, stores are dropped, and the first
 * store says so through the notice (below). */
int cache_open(const char *path, cache_t **out, err_t *err);
/* The same, with a notice (below) from the start: waits for a lock while
 * opening are said too. */
int cache_open_notice(const char *path, void (*notice)(void *ctx, const char *msg), void *ctx, cache_t **out,
                      err_t *err);
/* Notices: one line each, no "gsw: " (the caller's words go first). Said:
 * a wait for another process's write lock that lasts 0.1 s (then at most
 * every 10 s); a lock still held after the wait ($GSW_LOCK_MS, default
 * 10 s: stores stay pending and later writes do not wait; at close, the
 * count of stores lost); the first store into a read-only cache. A write
 * stopped by the lock or by a read-only file is no error for the caller:
 * the answer stands, the cache is only a cache. NULL (the default): nothing
 * is said. */
void cache_set_notice(cache_t *c, void (*fn)(void *ctx, const char *msg), void *ctx);
/* Opened read-only (nothing is ever stored). */
int cache_readonly(const cache_t *c);
/* The file's path. */
const char *cache_filename(const cache_t *c);
/* Stores reach the file now: 0 when read-only, or while another process
 * holds the write lock past the wait. */
int cache_storing(const cache_t *c);
/* Flush pending writes and close. Returns GSW_OK or GSW_EFAIL. */
int cache_close(cache_t *c, err_t *err);
/* 1 found, 0 absent, -1 error (err set). Counts a hit or a miss. */
int cache_get(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, cache_entry_t *out, err_t *err);
/* Merge an entry in (bounds tightened, best move kept from the tighter
 * result). Writes are batched in a transaction, committed every few hundred
 * puts and by cache_flush / cache_close. */
int cache_put(cache_t *c, const char *game, const char *variant,
              const uint8_t *key, size_t klen, const cache_entry_t *e, err_t *err);
int cache_flush(cache_t *c, err_t *err);
/* Drop a row (stored and pending): a search proved it wrong. */
int cache_delete(cache_t *c, const char *game, const char *variant,
                 const uint8_t *key, size_t klen, err_t *err);
/* Every stored row (game and variant NULL: of every game), or a random
 * sample of about `sample` of them (0: all), in the order of the key;
 * stops early when fn returns nonzero. Pending stores are written first. */
typedef int (*cache_row_fn)(void *ctx, const char *game, const char *variant, const uint8_t *key,
                            size_t klen, const cache_entry_t *e);
int cache_each(cache_t *c, const char *game, const char *variant, int64_t sample, cache_row_fn fn,
               void *ctx, err_t *err);
int cache_stats(cache_t *c, cache_stats_t *st, err_t *err);
/* SQLite's integrity check plus gsw's own (bounds ordered). *ok = 1 when
 * clean; report receives the first problems, one per line. */
int cache_check(cache_t *c, int *ok, char *report, size_t n, err_t *err);

#endif

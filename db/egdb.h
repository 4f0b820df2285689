/* Endgame-database files: one file per slice and metric. A fixed header
 * (game, slice, metric, positions, block layout) with its own checksum, a
 * block table, an exception table, then the values in independently
 * decompressible zstd blocks, each with a checksum, so a probe reads and
 * decompresses one block. The file layer stores codes, not values: one code
 * per position, 2 bits (win/draw/loss) or 8 bits (a distance code), plus
 * exceptions (index -> 16-bit value) for what a byte cannot hold; what the
 * codes mean is the caller's (solve/egdb.c). A file is written under a
 * temporary name and renamed into place, so a crash never leaves a
 * half-written file that looks whole. Every check that fails names the file. */
#ifndef GSW_EGDB_H
#define GSW_EGDB_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define EGDB_BLOCK 65536            /* positions per block (the last may be short) */

typedef struct egdb_info {
    char game[16];                  /* "checkers" */
    char slice[48];                 /* the game's slice name */
    uint8_t metric;                 /* retro_metric_t */
    uint8_t bits;                   /* 2 or 8 */
    uint64_t n;                     /* positions */
    uint64_t nexc;                  /* exceptions */
} egdb_info_t;

/* Write a file: codes[0..n-1] (one byte each; with bits = 2 only the low
 * two bits count and must be < 4), the exceptions as parallel arrays sorted
 * by index. Writes path + ".tmp", syncs it and renames it to path. */
int egdb_write(const char *path, const egdb_info_t *info, const uint8_t *codes, const uint64_t *exc_index,
               const uint16_t *exc_val, err_t *err);
/* The same, compressing on `threads` threads (the same bytes). */
int egdb_write_threads(const char *path, const egdb_info_t *info, const uint8_t *codes, const uint64_t *exc_index,
                       const uint16_t *exc_val, int threads, err_t *err);

typedef struct egdb_file egdb_file_t;
/* Open a file: reads and checks the header, the block table and the
 * exception table (their checksums, the sizes they imply against the
 * file's size). A truncated or corrupt file is an error naming it. */
int egdb_open(const char *path, egdb_file_t **out, err_t *err);
void egdb_close(egdb_file_t *f);
const egdb_info_t *egdb_file_info(const egdb_file_t *f);
const char *egdb_file_path(const egdb_file_t *f);
/* Decompress block b (positions b * EGDB_BLOCK ...) into codes, one byte a
 * position; checks its checksum. Safe from several threads at once. */
int egdb_read_block(egdb_file_t *f, uint64_t b, uint8_t *codes, err_t *err);
/* The exception stored for index: 1 and *val, or 0 when there is none. */
int egdb_exception(const egdb_file_t *f, uint64_t index, uint16_t *val);
/* Read every block (the whole file's integrity): GSW_OK or an error naming
 * the file and the block. */
int egdb_check(egdb_file_t *f, err_t *err);

/* The format's 64-bit hash of len bytes, continuing from h (0 to start):
 * what the header and block checksums hold (tools that repair a file's
 * checksums on purpose, such as the fuzz target, need it). */
uint64_t egdb_hash64(uint64_t h, const void *data, size_t len);

/* A block cache for probes: decompressed blocks of any files, one cache
 * per thread (not shared). */
typedef struct egdb_cache egdb_cache_t;
egdb_cache_t *egdb_cache_new(size_t mb);
void egdb_cache_free(egdb_cache_t *c);
/* Forget every block of f (before closing it). */
void egdb_cache_forget(egdb_cache_t *c, const egdb_file_t *f);
/* The code of position index of f (through the cache): GSW_OK and *code. */
int egdb_get(egdb_cache_t *c, egdb_file_t *f, uint64_t index, uint8_t *code, err_t *err);
/* Ask the memory for index's code ahead of an egdb_get, where its block is
 * cached already (nothing else: no read, no change to the cache's order). */
void egdb_prefetch(const egdb_cache_t *c, const egdb_file_t *f, uint64_t index);

#endif

/* An opening book as a file, to ship with gsw and read without a cache:
 * the exact values of positions by their canonical keys (pos_key), sorted,
 * with each position's ply. solve/book.c writes one from a built book
 * (gsw book export) and reads it as the shipped book.
 *
 * On disk: the 8-byte magic "GSWBOOK1", then one zstd frame (with its
 * content checksum) holding: the game spec (u32 length, then the bytes,
 * "connect4:7x6"), the key length, the deepest ply and the position count
 * (u32, u32, u64, little-endian), then three columns: the keys (count x key
 * length bytes, strictly ascending as bytes), the values (count x i16, the
 * side to move's val_t) and the plies (count x u8); last, the FNV-1a 64 of
 * every byte before it (8 bytes, little-endian). Reading checks all of it,
 * so a damaged file is refused whole, never half used. */
#ifndef GSW_BOOKFILE_H
#define GSW_BOOKFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define BOOKF_MAX_KEY 32
#define BOOKF_MAX_COUNT (1u << 28)
#define BOOKF_SPEC_MAX 96

typedef struct bookf {
    char spec[BOOKF_SPEC_MAX];  /* "game:variant" */
    uint32_t klen;              /* bytes per key, 1..BOOKF_MAX_KEY */
    uint32_t max_ply;           /* no position is deeper (at most 255) */
    uint64_t n;                 /* positions */
    uint8_t *keys;              /* n x klen, strictly ascending (memcmp) */
    int16_t *val;               /* n values, node-relative (core/value.h) */
    uint8_t *ply;               /* n plies */
} bookf_t;

/* Write b to path (through path.tmp and a rename); *checksum (may be NULL)
 * receives the FNV-1a 64 of the file's bytes. The keys must be sorted. */
int bookf_write(const char *path, const bookf_t *b, uint64_t *checksum, err_t *err);
/* Read and check a file. On failure, a one-line message naming it. */
int bookf_read(const char *path, bookf_t *b, uint64_t *checksum, err_t *err);
/* The same from memory (the fuzz target's door); name is for messages. */
int bookf_read_mem(const void *data, size_t n, const char *name, bookf_t *b, err_t *err);
/* Only the header (spec, klen, max_ply, n; no arrays): decompressed from
 * the file's first bytes, the rest neither read nor checked, so a hint for
 * whether the book is worth reading whole (bookf_read checks everything).
 * Nothing to free. _mem is the fuzz target's door. */
int bookf_peek(const char *path, bookf_t *b, err_t *err);
int bookf_peek_mem(const void *data, size_t n, const char *name, bookf_t *b, err_t *err);
/* The index of key among b's keys, or -1. */
int64_t bookf_find(const bookf_t *b, const uint8_t *key, size_t klen);
void bookf_free(bookf_t *b);

#endif

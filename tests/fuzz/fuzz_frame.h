/* For the targets of the db's compressed files (db/bddfile.h's framing):
 * the input made into a file whose framing is valid (the magic, the input
 * as one zstd frame, the FNV-1a trailer), so that the payload's own checks
 * are reached. Returns the file (malloc'd, *n bytes); aborts when out of
 * memory. */
#ifndef GSW_FUZZ_FRAME_H
#define GSW_FUZZ_FRAME_H

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "db/bddfile.h"

static inline uint8_t *fuzz_frame(const char magic[8], const uint8_t *data, size_t size, size_t *n)
{
    size_t cap = ZSTD_compressBound(size);
    uint8_t *file = malloc(8 + cap + 8);
    if (!file) abort();
    memcpy(file, magic, 8);
    size_t zn = ZSTD_compress(file + 8, cap, data, size, 1);
    if (ZSTD_isError(zn)) abort();
    uint64_t sum = bddf_fnv(file, 8 + zn, BDDF_FNV_INIT);
    for (int i = 0; i < 8; i++) file[8 + zn + (size_t)i] = (uint8_t)(sum >> (8 * i));
    *n = 8 + zn + 8;
    return file;
}

#endif

/* The checksum every Syzygy table carries in its last 16 bytes (a table's
 * size is 16 past a multiple of 64): the generator's hash of everything
 * before them, which its tool `tbcheck` checks. The hash is CityHash's
 * (Geoff Pike and Jyrki Alakuijala, v1.0.x with the CRC32C variant): the
 * data in chunks of 16 MiB, each hashed by CityHashCrc256 to 32 bytes,
 * and those chunk hashes in order hashed by CityHashCrc128 to 16.
 *
 * gsw checks it before Fathom reads a table: Fathom trusts a table's
 * insides (its symbol tables and block offsets index memory unchecked),
 * so a damaged table would crash the process or corrupt its heap. */
#ifndef GSW_CH_SZ_SUM_H
#define GSW_CH_SZ_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* The CityHash functions the checksum is made of (exposed for tests). */
void ch_sz_city_crc256(const uint8_t *s, size_t len, uint64_t out[4]);
void ch_sz_city_crc128(const uint8_t *s, size_t len, uint64_t out[2]);

/* The checksum of a table's n bytes of data (its size less the 16 of the
 * stored checksum), in the stored checksum's byte order. */
void ch_sz_checksum(const uint8_t *data, size_t n, uint8_t out[16]);

/* The table at path checked against its stored checksum: GSW_OK, or
 * GSW_EINPUT with a one-line reason (it cannot be read, its size is not
 * 16 past a multiple of 64, or the checksum differs). */
int ch_sz_check_file(const char *path, err_t *err);

#endif

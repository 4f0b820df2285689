/* Syzygy tables' checksums (ch_sz_sum.h): CityHash's 128- and 256-bit
 * hashes as the table generator uses them, written from the published
 * algorithm, and a table file checked against its stored sum. */
#include "games/chess/ch_sz_sum.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif

/* CityHash's odd constants */
#define K0 0xc3a5c85c97cb3127ull
#define K1 0xb492b66fbe98f273ull
#define K2 0x9ae16a3b2f90404full
#define K3 0xc949d7c7509e6557ull
#define KMUL 0x9ddfea08eb382d69ull

typedef struct { uint64_t lo, hi; } u128_t;

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;   /* (the tables and this code: little-endian machines) */
}

static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t ror(uint64_t v, int r) { return r ? v >> r | v << (64 - r) : v; }
static inline uint64_t smix(uint64_t v) { return v ^ v >> 47; }

/* 16 bytes (u low, v high) to 8 */
static inline uint64_t h16(uint64_t u, uint64_t v)
{
    uint64_t a = (u ^ v) * KMUL;
    a ^= a >> 47;
    uint64_t b = (v ^ a) * KMUL;
    b ^= b >> 47;
    return b * KMUL;
}

/* the 64-bit hash of at most 16 bytes */
static uint64_t h0to16(const uint8_t *s, size_t n)
{
    if (n > 8) {
        uint64_t a = ld64(s), b = ld64(s + n - 8);
        return h16(a, ror(b + n, (int)n)) ^ b;
    }
    if (n >= 4) return h16(n + ((uint64_t)ld32(s) << 3), ld32(s + n - 4));
    if (n == 0) return K2;
    uint32_t y = (uint32_t)s[0] + ((uint32_t)s[n >> 1] << 8), z = (uint32_t)n + ((uint32_t)s[n - 1] << 2);
    return smix(y * K2 ^ z * K3) * K2;
}

/* 32 bytes w, x, y, z with seeds a, b to 16 (quick and weak) */
static inline u128_t weak32(const uint8_t *s, uint64_t a, uint64_t b)
{
    uint64_t w = ld64(s), x = ld64(s + 8), y = ld64(s + 16), z = ld64(s + 24);
    a += w;
    b = ror(b + a + z, 21);
    uint64_t c = a;
    a += x + y;
    b += ror(a, 44);
    return (u128_t){ a + z, b + c };
}

/* the 128-bit hash of fewer than 128 bytes, seeded (City and Murmur mixed) */
static u128_t murmur(const uint8_t *s, size_t n, u128_t seed)
{
    uint64_t a = seed.lo, b = seed.hi, c, d;
    if (n <= 16) {
        a = smix(a * K1) * K1;
        c = b * K1 + h0to16(s, n);
        d = smix(a + (n >= 8 ? ld64(s) : c));
    } else {
        c = h16(ld64(s + n - 8) + K1, a);
        d = h16(b + n, c + ld64(s + n - 16));
        a += d;
        for (long left = (long)n - 16; left > 0; left -= 16, s += 16) {
            a ^= smix(ld64(s) * K1) * K1;
            a *= K1;
            b ^= a;
            c ^= smix(ld64(s + 8) * K1) * K1;
            c *= K1;
            d ^= c;
        }
    }
    a = h16(a, c);
    b = h16(d, b);
    return (u128_t){ a ^ b, h16(b, a) };
}

/* one 64-byte round of the long hashes' state */
typedef struct { uint64_t x, y, z; u128_t v, w; } city_state_t;

static inline void round64(city_state_t *t, const uint8_t *s)
{
    t->x = ror(t->x + t->y + t->v.lo + ld64(s + 8), 37) * K1;
    t->y = ror(t->y + t->v.hi + ld64(s + 48), 42) * K1;
    t->x ^= t->w.hi;
    t->y += t->v.lo + ld64(s + 40);
    t->z = ror(t->z + t->w.lo, 33) * K1;
    t->v = weak32(s, t->v.hi * K1, t->x + t->w.lo);
    t->w = weak32(s + 32, t->z + t->w.hi, t->y + ld64(s + 16));
    uint64_t swap = t->z;
    t->z = t->x;
    t->x = swap;
}

static u128_t city128_seeded(const uint8_t *s, size_t n, u128_t seed)
{
    if (n < 128) return murmur(s, n, seed);
    city_state_t t;
    t.x = seed.lo;
    t.y = seed.hi;
    t.z = n * K1;
    t.v.lo = ror(t.y ^ K1, 49) * K1 + ld64(s);
    t.v.hi = ror(t.v.lo, 42) * K1 + ld64(s + 8);
    t.w.lo = ror(t.y + t.z, 35) * K1 + t.x;
    t.w.hi = ror(t.x + ld64(s + 88), 53) * K1;
    do {
        round64(&t, s);
        round64(&t, s + 64);
        s += 128;
        n -= 128;
    } while (n >= 128);
    t.x += ror(t.v.lo + t.z, 49) * K0;
    t.z += ror(t.w.lo, 37) * K0;
    /* what is left (under 128 bytes): 32 at a time from its end */
    for (size_t done = 0; done < n;) {
        done += 32;
        t.y = ror(t.x + t.y, 42) * K0 + t.v.hi;
        t.w.lo += ld64(s + n - done + 16);
        t.x = t.x * K0 + t.w.lo;
        t.z += t.w.hi + ld64(s + n - done);
        t.w.hi += t.v.lo;
        t.v = weak32(s + n - done, t.v.lo + t.z, t.v.hi);
    }
    t.x = h16(t.x, t.v.lo);
    t.y = h16(t.y + t.z, t.w.lo);
    return (u128_t){ h16(t.x + t.v.hi, t.w.hi) + t.y, h16(t.x + t.w.hi, t.y + t.v.hi) };
}

static u128_t city128(const uint8_t *s, size_t n)
{
    if (n >= 16) return city128_seeded(s + 16, n - 16, (u128_t){ ld64(s) ^ K3, ld64(s + 8) });
    if (n >= 8) return city128_seeded(NULL, 0, (u128_t){ ld64(s) ^ (n * K0), ld64(s + n - 8) ^ K1 });
    return city128_seeded(s, n, (u128_t){ K0, K1 });
}

/* CRC32C (Castagnoli) of the 8 bytes of v, from crc, unreflected in and
 * out: the SSE4.2 instruction's step */
static inline uint64_t crc8(uint64_t crc, uint64_t v)
{
#ifdef __SSE4_2__
    return _mm_crc32_u64(crc, v);
#else
    static uint32_t table[256];
    static int made;
    if (!__atomic_load_n(&made, __ATOMIC_ACQUIRE)) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t r = i;
            for (int k = 0; k < 8; k++) r = r & 1 ? r >> 1 ^ 0x82f63b78u : r >> 1;
            table[i] = r;
        }
        __atomic_store_n(&made, 1, __ATOMIC_RELEASE);
    }
    uint32_t r = (uint32_t)crc;
    for (int k = 0; k < 8; k++, v >>= 8) r = table[(r ^ (uint8_t)v) & 0xff] ^ r >> 8;
    return r;
#endif
}

/* CityHashCrc256 of at least 240 bytes */
static void crc256_long(const uint8_t *s, size_t n, uint32_t seed, uint64_t out[4])
{
    uint64_t a = ld64(s + 56) + K0, b = ld64(s + 96) + K0;
    uint64_t c = out[0] = h16(b, n);
    uint64_t d = out[1] = ld64(s + 120) * K0 + n;
    uint64_t e = ld64(s + 184) + seed, f = seed, g = 0, h = 0, i = 0, j = 0, t = c + d;
    /* one 40-byte step: rotations by r ^ z, multiplied by mul */
#define CRC_STEP(mul, z)                                 \
    do {                                                 \
        uint64_t was = a;                                \
        a = ror(b, 41 ^ (z)) * (mul) + ld64(s);          \
        b = ror(c, 27 ^ (z)) * (mul) + ld64(s + 8);      \
        c = ror(d, 41 ^ (z)) * (mul) + ld64(s + 16);     \
        d = ror(e, 33 ^ (z)) * (mul) + ld64(s + 24);     \
        e = ror(t, 25 ^ (z)) * (mul) + ld64(s + 32);     \
        t = was;                                         \
        f = crc8(f, a);                                  \
        g = crc8(g, b);                                  \
        h = crc8(h, c);                                  \
        i = crc8(i, d);                                  \
        j = crc8(j, e);                                  \
        s += 40;                                         \
    } while (0)
    size_t blocks = n / 240;
    n -= blocks * 240;
    do {
        for (int k = 0; k < 3; k++) {
            CRC_STEP(1, 1);
            CRC_STEP(K0, 0);
        }
    } while (--blocks > 0);
    for (; n >= 40; n -= 40) CRC_STEP(K0, 0);
    if (n > 0) {   /* the last 40 bytes, overlapping those done */
        s = s + n - 40;
        CRC_STEP(K0, 0);
    }
#undef CRC_STEP
    j += i << 32;
    a = h16(a, j);
    h += g << 32;
    b += h;
    c = h16(c, f) + i;
    d = h16(d, e + out[0]);
    j += e;
    i += h16(h, t);
    e = h16(a, d) + j;
    f = h16(b, c) + a;
    g = h16(j, i) + c;
    out[0] = e + f + g + h;
    a = smix((a + g) * K0) * K0 + b;
    out[1] += a + out[0];
    a = smix(a * K0) * K0 + c;
    out[2] = a + out[1];
    a = smix((a + e) * K0) * K0;
    out[3] = a + out[2];
}

void ch_sz_city_crc256(const uint8_t *s, size_t len, uint64_t out[4])
{
    if (len >= 240) {
        crc256_long(s, len, 0, out);
        return;
    }
    uint8_t buf[240] = { 0 };   /* shorter input: zero-padded, its length in the seed */
    if (len) memcpy(buf, s, len);
    crc256_long(buf, 240, ~(uint32_t)len, out);
}

void ch_sz_city_crc128(const uint8_t *s, size_t len, uint64_t out[2])
{
    if (len <= 900) {
        u128_t r = city128(s, len);
        out[0] = r.lo;
        out[1] = r.hi;
        return;
    }
    uint64_t r[4];
    ch_sz_city_crc256(s, len, r);
    out[0] = r[2];
    out[1] = r[3];
}

#define SZ_CHUNK ((size_t)1 << 24)

void ch_sz_checksum(const uint8_t *data, size_t n, uint8_t out[16])
{
    size_t chunks = (n + SZ_CHUNK - 1) / SZ_CHUNK;
    uint64_t one[4] = { 0 }, *sums = chunks <= 1 ? one : NULL;
    uint8_t *bytes;
    if (!sums) {
        sums = calloc(chunks, 32);
        if (!sums) {   /* (no memory for the chunks' sums: a sum no table has) */
            memset(out, 0, 16);
            return;
        }
    }
    for (size_t k = 0; k < chunks; k++) {
        size_t len = n - k * SZ_CHUNK < SZ_CHUNK ? n - k * SZ_CHUNK : SZ_CHUNK;
        ch_sz_city_crc256(data + k * SZ_CHUNK, len, sums + 4 * k);
    }
    bytes = (uint8_t *)sums;   /* (the sums as bytes: little-endian, as the generator writes them) */
    uint64_t r[2];
    ch_sz_city_crc128(bytes, 32 * chunks, r);
    memcpy(out, r, 16);
    if (sums != one) free(sums);
}

int ch_sz_check_file(const char *path, err_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st)) {
        int e = errno;
        close(fd);
        return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read %s: %s", path, strerror(e));
    }
    size_t size = (size_t)st.st_size;
    if (size < 16 || (size & 63) != 16) {
        close(fd);
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is damaged (%zu bytes: truncated or padded); fetch it again",
                       path, size);
    }
    const uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return err_set(err, GSW_EINPUT, "Syzygy tables: cannot read %s: %s", path, strerror(errno));
    madvise((void *)map, size, MADV_SEQUENTIAL);
    uint8_t sum[16];
    ch_sz_checksum(map, size - 16, sum);
    int same = !memcmp(sum, map + size - 16, 16);
    munmap((void *)map, size);
    if (!same)
        return err_set(err, GSW_EINPUT, "Syzygy tables: %s is damaged (its checksum differs from the one it carries); "
                       "fetch it again", path);
    return GSW_OK;
}

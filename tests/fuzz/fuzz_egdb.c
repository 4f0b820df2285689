/* An endgame-database file whose bytes the fuzzer controls (db/egdb.c): the
 * input is written to a scratch file and opened with egdb_open; if it opens,
 * every block is read (egdb_read_block, egdb_get through a cache), a few
 * exceptions are looked up and egdb_check runs. Each input is tried twice:
 * as it is, and with its checksums recomputed (each block's compressed
 * bytes, its codes where the frame decompresses, then the header) so
 * mutations get past them to the checks and code behind. Must never crash
 * or leak. */
#include "tests/fuzz/fuzz_util.h"

#include <zstd.h>

#include "db/egdb.h"

/* db/egdb.c's layout and checksum (copied: egdb.c exposes neither) */
#define HDR 128
#define BENT 32
#define XENT 10

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* recompute the checksums in b (a copy of the input); 0 when the tables do
 * not fit in it (nothing to repair) */
static int repair(uint8_t *b, size_t size)
{
    if (size < HDR) return 0;
    uint64_t nb = get64(b + 96), nexc = get64(b + 88);
    if (nb > (size - HDR) / BENT || nexc > (size - HDR - nb * BENT) / XENT) return 0;
    uint8_t *raw = malloc(EGDB_BLOCK);
    if (!raw) abort();
    for (uint64_t i = 0; i < nb; i++) {
        uint8_t *e = b + HDR + i * BENT;
        uint64_t off = get64(e);
        uint32_t cs = (uint32_t)get64(e + 8), rs = (uint32_t)(get64(e + 8) >> 32);
        if (off > size || cs > size - off || rs > EGDB_BLOCK) continue;
        put64(e + 16, egdb_hash64(0, b + off, cs));
        size_t r = ZSTD_decompress(raw, rs, b + off, cs);
        if (!ZSTD_isError(r) && r == rs) put64(e + 24, egdb_hash64(0, raw, rs));
    }
    free(raw);
    uint64_t h = egdb_hash64(0, b, 120);
    h = egdb_hash64(h, b + HDR, (size_t)(nb * BENT));
    h = egdb_hash64(h, b + HDR + nb * BENT, (size_t)(nexc * XENT));
    put64(b + 120, h);
    return 1;
}

static void probe(const char *path)
{
    egdb_file_t *f = NULL;
    err_t err;
    if (egdb_open(path, &f, &err)) return;
    const egdb_info_t *in = egdb_file_info(f);
    if (strcmp(egdb_file_path(f), path)) abort();
    uint64_t n = in->n, nb = n / EGDB_BLOCK + (n % EGDB_BLOCK != 0);
    uint8_t *codes = malloc(EGDB_BLOCK);
    egdb_cache_t *c = egdb_cache_new(0);
    if (!codes || !c) abort();
    for (uint64_t b = 0; b <= nb; b++) {
        int rc = egdb_read_block(f, b, codes, &err);
        if (b == nb && rc != GSW_EINPUT) abort();
        if (rc == GSW_OK && in->bits == 2)
            for (uint64_t i = 0; i < EGDB_BLOCK && b * EGDB_BLOCK + i < n; i++)
                if (codes[i] > 3) abort();
        uint8_t code;
        uint64_t first = b * EGDB_BLOCK, last = first + EGDB_BLOCK - 1 < n ? first + EGDB_BLOCK - 1 : n - 1;
        int g1 = egdb_get(c, f, first, &code, &err);
        int g2 = egdb_get(c, f, last, &code, &err);
        /* the cache agrees with a direct read */
        if (b < nb && ((rc == GSW_OK) != (g1 == GSW_OK) || (rc == GSW_OK) != (g2 == GSW_OK))) abort();
        if (b < nb && rc == GSW_OK && code != codes[last - first]) abort();
    }
    uint16_t v;
    const uint64_t look[] = { 0, 1, n / 2, n ? n - 1 : 0, n, UINT64_MAX };
    for (size_t i = 0; i < sizeof look / sizeof *look; i++) egdb_exception(f, look[i], &v);
    egdb_check(f, &err);
    egdb_cache_forget(c, f);
    egdb_cache_free(c);
    free(codes);
    egdb_close(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[512];
    fuzz_path(path, sizeof path, "egdb", ".egdb");
    unlink(path);   /* a new file each time: ext4 flushes one truncated and rewritten */
    if (fuzz_write(path, data, size)) abort();
    probe(path);
    uint8_t *b = malloc(size ? size : 1);
    if (!b) abort();
    if (size) memcpy(b, data, size);
    if (repair(b, size)) {
        unlink(path);
        if (fuzz_write(path, b, size)) abort();
        probe(path);
    }
    free(b);
    unlink(path);
    return 0;
}

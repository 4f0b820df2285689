/* Endgame-database files (see egdb.h): the writer (temporary name, fsync,
 * rename), the checked reader (header, tables, zstd blocks each with its own
 * checksum) and a per-thread cache of decompressed blocks for probes.
 * Nothing read from a file is trusted before it is checked against the
 * file's size and the checksums.
 *
 * On-disk format, version 1 (every integer little-endian):
 *
 *   header, 128 bytes
 *     0   char[7]  "GSWEGDB"
 *     7   u8       format version (1)
 *     8   char[16] game, NUL-padded (must hold a NUL)
 *     24  char[48] slice, NUL-padded (must hold a NUL)
 *     72  u8       metric
 *     73  u8       bits: 2 or 8
 *     74  u16      0
 *     76  u32      positions per block (EGDB_BLOCK)
 *     80  u64      n, positions (0 is allowed: a file with no blocks)
 *     88  u64      nexc, exceptions
 *     96  u64      nblocks = ceil(n / EGDB_BLOCK)
 *     104 u64      data offset = 128 + 32 * nblocks + 10 * nexc
 *     112 u64      0
 *     120 u64      checksum: hash of header bytes 0..119, then the block
 *                  table, then the exception table (chained, see hash64)
 *   block table, nblocks entries of 32 bytes
 *     0   u64      file offset of the block's zstd frame
 *     8   u32      compressed size (1 .. ZSTD_compressBound(raw size))
 *     12  u32      raw size: the block's positions (bits 8) or
 *                  ceil(positions / 4) (bits 2: four codes a byte, position
 *                  i in bits 2*(i%4) of byte i/4, unused high bits zero)
 *     16  u64      hash64 of the compressed bytes (any damaged byte is
 *                  found, even one zstd would decode to the same codes)
 *     24  u64      hash64 of the raw (uncompressed) bytes
 *   exception table, nexc entries of 10 bytes, indices strictly increasing
 *     0   u64      position index (< n)
 *     8   u16      value
 *   data: the blocks' zstd frames (level 3), back to back in block order
 *     from the data offset; the last one ends at the end of the file.
 *
 * A file's identity in the cache is (its egdb_file_t pointer, its header
 * checksum): the checksum covers every block's hash, so two files that meet
 * at one address with the same checksum hold the same codes, and the cache
 * needs no global serial counter. */
#include "db/egdb.h"
#include "core/pfor.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define EGDB_MAGIC "GSWEGDB"
#define EGDB_VERSION 1
#define HDR_SIZE 128
#define BENT_SIZE 32
#define XENT_SIZE 10
#define ZLEVEL 3
#define CACHE_WAYS 4
#define ULL(x) ((unsigned long long)(x))

typedef struct egdb_blk {
    uint64_t off;
    uint32_t csize, raw;
    uint64_t zhash, hash;           /* of the compressed and the raw bytes */
} egdb_blk_t;

struct egdb_file {
    char *path;
    int fd;
    egdb_info_t info;
    uint64_t nblocks;
    uint64_t tag;                   /* the header checksum: the content's identity */
    uint32_t cmax;                  /* the largest compressed block */
    egdb_blk_t *blk;
    uint64_t *xidx;
    uint16_t *xval;
};

/* ---- little-endian fields and the checksum ---- */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t rotl64(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

/* A 64-bit hash of len bytes continuing from h (0 to start). Each 8-byte
 * word (the tail zero-padded) goes through h = rotl(h ^ w * P1, 31) * P2, a
 * bijection of h for a given w and of w for a given h, so a file that
 * differs in one word always hashes differently; the length and a final
 * avalanche are mixed in. */
uint64_t egdb_hash64(uint64_t h, const void *data, size_t len)
{
    const uint8_t *p = data;
    const uint64_t P1 = 0x9e3779b97f4a7c15ull, P2 = 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)len * 0x165667b19e3779f9ull;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        h = rotl64(h ^ w * P1, 31) * P2;
    }
    if (i < len) {
        uint64_t w = 0;
        for (size_t k = 0; i + k < len; k++) w |= (uint64_t)p[i + k] << (8 * k);
        h = rotl64(h ^ w * P1, 31) * P2;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ h >> 33;
}

static uint64_t nblocks_of(uint64_t n)
{
    return n / EGDB_BLOCK + (n % EGDB_BLOCK != 0);
}

/* positions in block b of a file of n positions */
static uint32_t block_count(uint64_t n, uint64_t b)
{
    uint64_t left = n - b * EGDB_BLOCK;
    return left < EGDB_BLOCK ? (uint32_t)left : EGDB_BLOCK;
}

static uint32_t raw_size(unsigned bits, uint32_t count)
{
    return bits == 2 ? (count + 3) / 4 : count;
}

static int pread_all(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { *got = done; return -1; }
        if (r == 0) break;
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pwrite(fd, (const uint8_t *)buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) { errno = ENOSPC; return -1; }
        done += (size_t)r;
    }
    return 0;
}

/* ---- writing ---- */

static int has_nul(const char *s, size_t n)
{
    return memchr(s, 0, n) != NULL;
}

/* fsync the folder holding path (so the rename is durable); EINVAL (a file
 * system that cannot) is not an error */
static int sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    if (!slash) dir = strdup(".");
    else if (slash == path) dir = strdup("/");
    else dir = strndup(path, (size_t)(slash - path));
    if (!dir) { errno = ENOMEM; return -1; }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc && e != EINVAL) { errno = e; return -1; }
    return 0;
}

static int check_write_args(const char *path, const egdb_info_t *info, const uint8_t *codes,
                            const uint64_t *exc_index, const uint16_t *exc_val, err_t *err)
{
    if (!path || !*path) return err_set(err, GSW_EINPUT, "egdb: no path given");
    if (!info) return err_set(err, GSW_EINPUT, "%s: no file information given", path);
    if (info->bits != 2 && info->bits != 8)
        return err_set(err, GSW_EINPUT, "%s: %u bits a code (2 or 8)", path, info->bits);
    if (!has_nul(info->game, sizeof info->game) || !has_nul(info->slice, sizeof info->slice))
        return err_set(err, GSW_EINPUT, "%s: game or slice name too long", path);
    if (info->n && !codes) return err_set(err, GSW_EINPUT, "%s: no codes given", path);
    if (info->nexc && (!exc_index || !exc_val)) return err_set(err, GSW_EINPUT, "%s: no exceptions given", path);
    uint64_t nb = nblocks_of(info->n);
    if (nb > (SIZE_MAX - HDR_SIZE) / BENT_SIZE || info->nexc > (SIZE_MAX - HDR_SIZE - nb * BENT_SIZE) / XENT_SIZE)
        return err_set(err, GSW_EINPUT, "%s: too many positions or exceptions", path);
    for (uint64_t i = 0; i < info->nexc; i++) {
        if (exc_index[i] >= info->n)
            return err_set(err, GSW_EINPUT, "%s: exception %llu at position %llu, past the %llu positions", path,
                           (unsigned long long)i, (unsigned long long)exc_index[i], (unsigned long long)info->n);
        if (i && exc_index[i] <= exc_index[i - 1])
            return err_set(err, GSW_EINPUT, "%s: exceptions not sorted by index (position %llu after %llu)", path,
                           (unsigned long long)exc_index[i], (unsigned long long)exc_index[i - 1]);
    }
    if (info->bits == 2) {
        uint8_t any = 0;
        for (uint64_t i = 0; i < info->n; i++) any |= codes[i];
        if (any & 0xfc)
            for (uint64_t i = 0; i < info->n; i++)
                if (codes[i] > 3)
                    return err_set(err, GSW_EINPUT, "%s: code %u at position %llu does not fit in 2 bits", path,
                                   codes[i], (unsigned long long)i);
    }
    return GSW_OK;
}

/* A write that failed (errno): one line, saying so plainly when the disk
 * is full, and that what was finished stays. */
static int write_failed(err_t *err, const char *path, const char *tmp)
{
    if (errno == ENOSPC || errno == EDQUOT)
        return err_set(err, GSW_EFAIL, "%s: the disk is full: the files finished before it are kept; free some space "
                                       "and build again to resume", path);
    return err_set(err, GSW_EFAIL, "%s: cannot write (%s: %s)", path, tmp, strerror(errno));
}

/* Blocks are compressed a batch at a time on the write's threads (each its
 * own zstd context and buffers) and written in order: the file does not
 * depend on the thread count. */
typedef struct wbatch {
    const egdb_info_t *info;
    const uint8_t *codes;
    uint64_t b0;                /* the batch's first block */
    size_t cap;                 /* each compressed buffer's size */
    uint8_t **cbuf, **raw;      /* by block of the batch; raw by thread */
    size_t *csize;              /* by block: the compressed size, or a zstd error */
    uint32_t *rsize;
    uint64_t *hc, *hr;          /* by block: the hashes of the compressed and raw bytes */
    ZSTD_CCtx **cctx;           /* by thread */
} wbatch_t;

static void compress_blocks(void *ctx, int tid, uint64_t a, uint64_t z)
{
    wbatch_t *w = ctx;
    for (uint64_t j = a; j < z; j++) {
        uint64_t b = w->b0 + j;
        uint32_t count = block_count(w->info->n, b);
        const uint8_t *src = w->codes + b * EGDB_BLOCK;
        uint32_t rs = raw_size(w->info->bits, count);
        if (w->info->bits == 2) {
            uint8_t *raw = w->raw[tid];
            memset(raw, 0, rs);
            for (uint32_t i = 0; i < count; i++) raw[i >> 2] |= (uint8_t)(src[i] << (2 * (i & 3)));
            src = raw;
        }
        size_t cs = ZSTD_compressCCtx(w->cctx[tid], w->cbuf[j], w->cap, src, rs, ZLEVEL);
        w->csize[j] = cs;
        w->rsize[j] = rs;
        if (ZSTD_isError(cs)) continue;
        w->hc[j] = egdb_hash64(0, w->cbuf[j], cs);
        w->hr[j] = egdb_hash64(0, src, rs);
    }
}

int egdb_write(const char *path, const egdb_info_t *info, const uint8_t *codes, const uint64_t *exc_index,
               const uint16_t *exc_val, err_t *err)
{
    return egdb_write_threads(path, info, codes, exc_index, exc_val, 1, err);
}

int egdb_write_threads(const char *path, const egdb_info_t *info, const uint8_t *codes, const uint64_t *exc_index,
                       const uint16_t *exc_val, int threads, err_t *err)
{
    int rc = check_write_args(path, info, codes, exc_index, exc_val, err);
    if (rc) return rc;
    uint64_t n = info->n, nexc = info->nexc, nb = nblocks_of(n);
    size_t tabsize = HDR_SIZE + (size_t)nb * BENT_SIZE + (size_t)nexc * XENT_SIZE;
    size_t plen = strlen(path);
    size_t cap = ZSTD_compressBound(EGDB_BLOCK);
    char *tmp = malloc(plen + 5);
    uint8_t *tab = calloc(1, tabsize);
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    uint64_t batch = (uint64_t)threads * 8;
    if (batch > nb) batch = nb ? nb : 1;
    wbatch_t w = { info, codes, 0, cap, calloc(batch, sizeof(uint8_t *)), calloc((size_t)threads, sizeof(uint8_t *)),
                   calloc(batch, sizeof(size_t)), calloc(batch, sizeof(uint32_t)), calloc(batch, sizeof(uint64_t)),
                   calloc(batch, sizeof(uint64_t)), calloc((size_t)threads, sizeof(ZSTD_CCtx *)) };
    int fd = -1, made = 0, ok = w.cbuf && w.raw && w.csize && w.rsize && w.hc && w.hr && w.cctx;
    for (uint64_t j = 0; ok && j < batch; j++) ok = (w.cbuf[j] = malloc(cap)) != NULL;
    for (int t = 0; ok && t < threads; t++) ok = (w.raw[t] = malloc(EGDB_BLOCK / 4)) && (w.cctx[t] = ZSTD_createCCtx());
    if (!tmp || !tab || !ok) {
        rc = err_set(err, GSW_EFAIL, "%s: out of memory", path);
        goto done;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        rc = write_failed(err, path, tmp);
        goto done;
    }
    made = 1;
    uint64_t off = tabsize;
    for (w.b0 = 0; w.b0 < nb; w.b0 += batch) {
        uint64_t nbat = nb - w.b0 < batch ? nb - w.b0 : batch;
        gsw_pfor(threads, nbat, 1, compress_blocks, &w);
        for (uint64_t j = 0; j < nbat; j++) {
            uint64_t b = w.b0 + j;
            size_t cs = w.csize[j];
            if (ZSTD_isError(cs)) {
                rc = err_set(err, GSW_EFAIL, "%s: cannot compress block %llu (%s)", path, (unsigned long long)b,
                             ZSTD_getErrorName(cs));
                goto done;
            }
            if (pwrite_all(fd, w.cbuf[j], cs, off)) {
                rc = write_failed(err, path, tmp);
                goto done;
            }
            uint8_t *e = tab + HDR_SIZE + b * BENT_SIZE;
            put64(e, off);
            put32(e + 8, (uint32_t)cs);
            put32(e + 12, w.rsize[j]);
            put64(e + 16, w.hc[j]);
            put64(e + 24, w.hr[j]);
            off += cs;
        }
    }
    uint8_t *x = tab + HDR_SIZE + nb * BENT_SIZE;
    for (uint64_t i = 0; i < nexc; i++) {
        put64(x + i * XENT_SIZE, exc_index[i]);
        put16(x + i * XENT_SIZE + 8, exc_val[i]);
    }
    memcpy(tab, EGDB_MAGIC, 7);
    tab[7] = EGDB_VERSION;
    memcpy(tab + 8, info->game, strnlen(info->game, sizeof info->game));
    memcpy(tab + 24, info->slice, strnlen(info->slice, sizeof info->slice));
    tab[72] = info->metric;
    tab[73] = info->bits;
    put32(tab + 76, EGDB_BLOCK);
    put64(tab + 80, n);
    put64(tab + 88, nexc);
    put64(tab + 96, nb);
    put64(tab + 104, tabsize);
    uint64_t h = egdb_hash64(0, tab, 120);
    h = egdb_hash64(h, tab + HDR_SIZE, (size_t)nb * BENT_SIZE);
    h = egdb_hash64(h, x, (size_t)nexc * XENT_SIZE);
    put64(tab + 120, h);
    if (pwrite_all(fd, tab, tabsize, 0) || fsync(fd)) {
        rc = write_failed(err, path, tmp);
        goto done;
    }
    int c = close(fd);
    fd = -1;
    if (c) {
        rc = write_failed(err, path, tmp);
        goto done;
    }
    if (rename(tmp, path)) {
        rc = err_set(err, GSW_EFAIL, "%s: cannot rename %s into place (%s)", path, tmp, strerror(errno));
        goto done;
    }
    if (sync_dir(path)) rc = err_set(err, GSW_EFAIL, "%s: cannot sync its folder (%s)", path, strerror(errno));
    free(tmp);
    tmp = NULL;
done:
    if (fd >= 0) close(fd);
    if (made && tmp && rc) unlink(tmp);
    free(tmp);
    free(tab);
    for (uint64_t j = 0; w.cbuf && j < batch; j++) free(w.cbuf[j]);
    for (int t = 0; w.raw && w.cctx && t < threads; t++) {
        free(w.raw[t]);
        ZSTD_freeCCtx(w.cctx[t]);
    }
    free(w.cbuf);
    free(w.raw);
    free(w.csize);
    free(w.rsize);
    free(w.hc);
    free(w.hr);
    free(w.cctx);
    return rc;
}

/* ---- opening ---- */

/* GSW_EFAIL with "PATH: what is wrong" */
static int __attribute__((format(printf, 3, 4))) bad(err_t *err, const char *path, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return err_set(err, GSW_EFAIL, "%s: %s", path, what);
}

/* read and check the header and tables of f (fd and path set) */
static int load(egdb_file_t *f, err_t *err)
{
    const char *p = f->path;
    struct stat st;
    if (fstat(f->fd, &st)) return err_set(err, GSW_EFAIL, "%s: %s", p, strerror(errno));
    if (!S_ISREG(st.st_mode)) return err_set(err, GSW_EFAIL, "%s: not a regular file", p);
    uint64_t size = (uint64_t)st.st_size;
    uint8_t hdr[HDR_SIZE];
    size_t got;
    if (pread_all(f->fd, hdr, HDR_SIZE, 0, &got)) return err_set(err, GSW_EFAIL, "%s: %s", p, strerror(errno));
    if (got < 8 || memcmp(hdr, EGDB_MAGIC, 7))
        return err_set(err, GSW_EFAIL, "%s: not an endgame-database file (no GSWEGDB magic)", p);
    if (hdr[7] != EGDB_VERSION)
        return err_set(err, GSW_EFAIL, "%s: format version %u (this gsw reads version %d)", p, hdr[7], EGDB_VERSION);
    if (got < HDR_SIZE || size < HDR_SIZE)
        return bad(err, p, "truncated (%zu bytes, shorter than the %d-byte header)", got, HDR_SIZE);
    uint64_t n = get64(hdr + 80), nexc = get64(hdr + 88), nb = get64(hdr + 96);
    /* the sizes the header claims, against the file's size, before any use */
    uint64_t room = size - HDR_SIZE;
    if (nb > room / BENT_SIZE)
        return bad(err, p, "truncated or corrupt (a block table of %llu blocks runs past the end of the file)",
                   ULL(nb));
    room -= nb * BENT_SIZE;
    if (nexc > room / XENT_SIZE)
        return bad(err, p, "truncated or corrupt (an exception table of %llu entries runs past the end of the file)",
                   ULL(nexc));
    size_t tlen = (size_t)(nb * BENT_SIZE + nexc * XENT_SIZE);
    uint8_t *tab = malloc(tlen ? tlen : 1);
    if (!tab) return err_set(err, GSW_EFAIL, "%s: out of memory", p);
    if (pread_all(f->fd, tab, tlen, HDR_SIZE, &got) || got != tlen) {
        free(tab);
        return err_set(err, GSW_EFAIL, "%s: cannot read the tables (%s)", p,
                       got != tlen ? "short read" : strerror(errno));
    }
    uint64_t h = egdb_hash64(0, hdr, 120);
    h = egdb_hash64(h, tab, (size_t)nb * BENT_SIZE);
    h = egdb_hash64(h, tab + nb * BENT_SIZE, (size_t)nexc * XENT_SIZE);
    int rc = GSW_OK;
    if (h != get64(hdr + 120)) {
        rc = bad(err, p, "corrupt (the checksum of the header and tables does not match)");
        goto out;
    }
    f->tag = h;
    /* the checksum matches: now the header's own consistency */
    egdb_info_t *in = &f->info;
    memcpy(in->game, hdr + 8, 16);
    memcpy(in->slice, hdr + 24, 48);
    in->metric = hdr[72];
    in->bits = hdr[73];
    in->n = n;
    in->nexc = nexc;
    f->nblocks = nb;
    if (!has_nul(in->game, 16) || !has_nul(in->slice, 48)) {
        rc = bad(err, p, "corrupt (game or slice name not terminated)");
        goto out;
    }
    if (in->bits != 2 && in->bits != 8) {
        rc = bad(err, p, "corrupt (%u bits a code; 2 or 8)", in->bits);
        goto out;
    }
    if (get32(hdr + 76) != EGDB_BLOCK) {
        rc = bad(err, p, "corrupt (%u positions a block; this gsw uses %d)", get32(hdr + 76), EGDB_BLOCK);
        goto out;
    }
    if (get16(hdr + 74) || get64(hdr + 112)) {
        rc = bad(err, p, "corrupt (reserved header fields not zero)");
        goto out;
    }
    if (nb != nblocks_of(n)) {
        rc = bad(err, p, "corrupt (%llu blocks for %llu positions)", ULL(nb), ULL(n));
        goto out;
    }
    uint64_t data = HDR_SIZE + tlen;
    if (get64(hdr + 104) != data) {
        rc = bad(err, p, "corrupt (data offset %llu; the tables end at %llu)", ULL(get64(hdr + 104)), ULL(data));
        goto out;
    }
    f->blk = malloc((size_t)(nb ? nb : 1) * sizeof *f->blk);
    f->xidx = malloc((size_t)(nexc ? nexc : 1) * sizeof *f->xidx);
    f->xval = malloc((size_t)(nexc ? nexc : 1) * sizeof *f->xval);
    if (!f->blk || !f->xidx || !f->xval) {
        rc = err_set(err, GSW_EFAIL, "%s: out of memory", p);
        goto out;
    }
    uint64_t at = data;
    for (uint64_t b = 0; b < nb; b++) {
        const uint8_t *e = tab + b * BENT_SIZE;
        egdb_blk_t *k = &f->blk[b];
        k->off = get64(e);
        k->csize = get32(e + 8);
        k->raw = get32(e + 12);
        k->zhash = get64(e + 16);
        k->hash = get64(e + 24);
        uint32_t want = raw_size(in->bits, block_count(n, b));
        if (k->raw != want) {
            rc = bad(err, p, "corrupt (block %llu holds %u raw bytes, not %u)", ULL(b), k->raw, want);
            goto out;
        }
        if (k->csize == 0 || k->csize > ZSTD_compressBound(want)) {
            rc = bad(err, p, "corrupt (block %llu has a compressed size of %u bytes)", ULL(b), k->csize);
            goto out;
        }
        if (k->off != at) {
            rc = bad(err, p, "corrupt (block %llu at offset %llu, not where the previous one ends)", ULL(b),
                     ULL(k->off));
            goto out;
        }
        if (k->off > size || k->csize > size - k->off) {
            rc = bad(err, p, "truncated (block %llu runs past the end of the file)", ULL(b));
            goto out;
        }
        at += k->csize;
        if (k->csize > f->cmax) f->cmax = k->csize;
    }
    if (at != size) {
        rc = bad(err, p, "corrupt (%llu bytes after the last block)", ULL(size - at));
        goto out;
    }
    const uint8_t *x = tab + nb * BENT_SIZE;
    for (uint64_t i = 0; i < nexc; i++) {
        f->xidx[i] = get64(x + i * XENT_SIZE);
        f->xval[i] = get16(x + i * XENT_SIZE + 8);
        if (f->xidx[i] >= n || (i && f->xidx[i] <= f->xidx[i - 1])) {
            rc = bad(err, p, "corrupt (exception %llu at position %llu is out of order or out of range)", ULL(i),
                     ULL(f->xidx[i]));
            goto out;
        }
    }
out:
    free(tab);
    return rc;
}

int egdb_open(const char *path, egdb_file_t **out, err_t *err)
{
    *out = NULL;
    if (!path || !*path) return err_set(err, GSW_EINPUT, "egdb: no path given");
    egdb_file_t *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        return err_set(err, GSW_EFAIL, "%s: out of memory", path);
    }
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) {
        int rc = err_set(err, GSW_EFAIL, "%s: %s", path, strerror(errno));
        egdb_close(f);
        return rc;
    }
    int rc = load(f, err);
    if (rc) {
        egdb_close(f);
        return rc;
    }
    *out = f;
    return GSW_OK;
}

void egdb_close(egdb_file_t *f)
{
    if (!f) return;
    if (f->fd >= 0) close(f->fd);
    free(f->path);
    free(f->blk);
    free(f->xidx);
    free(f->xval);
    free(f);
}

const egdb_info_t *egdb_file_info(const egdb_file_t *f)
{
    return &f->info;
}

const char *egdb_file_path(const egdb_file_t *f)
{
    return f->path;
}

/* ---- reading blocks ---- */

/* Block b into codes (block_count positions): cbuf holds f->cmax bytes, raw
 * EGDB_BLOCK / 4 (used for bits 2). */
static int read_block(egdb_file_t *f, uint64_t b, uint8_t *codes, ZSTD_DCtx *dctx, uint8_t *cbuf, uint8_t *raw,
                      err_t *err)
{
    if (b >= f->nblocks)
        return err_set(err, GSW_EINPUT, "%s: block %llu out of range (%llu blocks)", f->path, (unsigned long long)b,
                       (unsigned long long)f->nblocks);
    const egdb_blk_t *k = &f->blk[b];
    size_t got;
    if (pread_all(f->fd, cbuf, k->csize, k->off, &got))
        return err_set(err, GSW_EFAIL, "%s: cannot read block %llu (%s)", f->path, (unsigned long long)b,
                       strerror(errno));
    if (got != k->csize)
        return err_set(err, GSW_EFAIL, "%s: truncated (block %llu runs past the end of the file)", f->path,
                       (unsigned long long)b);
    if (egdb_hash64(0, cbuf, k->csize) != k->zhash)
        return err_set(err, GSW_EFAIL, "%s: corrupt (block %llu: the compressed bytes' checksum does not match)",
                       f->path, (unsigned long long)b);
    uint8_t *dst = f->info.bits == 2 ? raw : codes;
    size_t r = ZSTD_decompressDCtx(dctx, dst, k->raw, cbuf, k->csize);
    if (ZSTD_isError(r))
        return err_set(err, GSW_EFAIL, "%s: corrupt (block %llu: %s)", f->path, (unsigned long long)b,
                       ZSTD_getErrorName(r));
    if (r != k->raw)
        return err_set(err, GSW_EFAIL, "%s: corrupt (block %llu holds %zu bytes, not %u)", f->path,
                       (unsigned long long)b, r, k->raw);
    if (egdb_hash64(0, dst, k->raw) != k->hash)
        return err_set(err, GSW_EFAIL, "%s: corrupt (block %llu: the decompressed codes' checksum does not match)",
                       f->path, (unsigned long long)b);
    if (f->info.bits == 2) {
        uint32_t count = block_count(f->info.n, b), i = 0;
        for (; i + 4 <= count; i += 4) {
            uint8_t v = raw[i >> 2];
            codes[i] = v & 3;
            codes[i + 1] = v >> 2 & 3;
            codes[i + 2] = v >> 4 & 3;
            codes[i + 3] = v >> 6;
        }
        for (; i < count; i++) codes[i] = raw[i >> 2] >> (2 * (i & 3)) & 3;
    }
    return GSW_OK;
}

int egdb_read_block(egdb_file_t *f, uint64_t b, uint8_t *codes, err_t *err)
{
    if (b >= f->nblocks) return read_block(f, b, codes, NULL, NULL, NULL, err);
    uint8_t *cbuf = malloc(f->cmax ? f->cmax : 1);
    uint8_t *raw = f->info.bits == 2 ? malloc(EGDB_BLOCK / 4) : NULL;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    int rc;
    if (!cbuf || !dctx || (f->info.bits == 2 && !raw))
        rc = err_set(err, GSW_EFAIL, "%s: out of memory reading block %llu", f->path, (unsigned long long)b);
    else
        rc = read_block(f, b, codes, dctx, cbuf, raw, err);
    free(cbuf);
    free(raw);
    ZSTD_freeDCtx(dctx);
    return rc;
}

int egdb_exception(const egdb_file_t *f, uint64_t index, uint16_t *val)
{
    uint64_t lo = 0, hi = f->info.nexc;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (f->xidx[mid] < index) lo = mid + 1;
        else hi = mid;
    }
    if (lo < f->info.nexc && f->xidx[lo] == index) {
        if (val) *val = f->xval[lo];
        return 1;
    }
    return 0;
}

int egdb_check(egdb_file_t *f, err_t *err)
{
    if (!f->nblocks) return GSW_OK;
    uint8_t *codes = malloc(EGDB_BLOCK);
    uint8_t *cbuf = malloc(f->cmax);
    uint8_t *raw = malloc(EGDB_BLOCK / 4);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    int rc = GSW_OK;
    if (!codes || !cbuf || !raw || !dctx) rc = err_set(err, GSW_EFAIL, "%s: out of memory checking it", f->path);
    for (uint64_t b = 0; !rc && b < f->nblocks; b++) rc = read_block(f, b, codes, dctx, cbuf, raw, err);
    free(codes);
    free(cbuf);
    free(raw);
    ZSTD_freeDCtx(dctx);
    return rc;
}

/* ---- the per-thread block cache ----
 * Sets of CACHE_WAYS slots, kept most recently used first; a set is chosen
 * by hashing (file tag, block). A hit in the first way is a few compares. */

typedef struct egdb_slot {
    const egdb_file_t *f;           /* NULL: empty */
    uint64_t tag, b;
    uint8_t *data;                  /* EGDB_BLOCK bytes, allocated on first use */
} egdb_slot_t;

struct egdb_cache {
    uint64_t mask;                  /* sets - 1 */
    egdb_slot_t *slot;              /* (mask + 1) * CACHE_WAYS */
    ZSTD_DCtx *dctx;
    uint8_t *cbuf;                  /* ZSTD_compressBound(EGDB_BLOCK) bytes */
    uint8_t raw[EGDB_BLOCK / 4];
};

egdb_cache_t *egdb_cache_new(size_t mb)
{
    size_t blocks = mb > SIZE_MAX / 16 ? SIZE_MAX / 16 : mb * 16;  /* 64 KiB a block */
    size_t sets = 2;
    while (sets * 2 * CACHE_WAYS <= blocks && sets < ((size_t)1 << 40)) sets *= 2;
    egdb_cache_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->mask = sets - 1;
    c->slot = calloc(sets * CACHE_WAYS, sizeof *c->slot);
    c->dctx = ZSTD_createDCtx();
    c->cbuf = malloc(ZSTD_compressBound(EGDB_BLOCK));
    if (!c->slot || !c->dctx || !c->cbuf) {
        egdb_cache_free(c);
        return NULL;
    }
    return c;
}

void egdb_cache_free(egdb_cache_t *c)
{
    if (!c) return;
    if (c->slot)
        for (uint64_t i = 0; i < (c->mask + 1) * CACHE_WAYS; i++) free(c->slot[i].data);
    free(c->slot);
    ZSTD_freeDCtx(c->dctx);
    free(c->cbuf);
    free(c);
}

void egdb_cache_forget(egdb_cache_t *c, const egdb_file_t *f)
{
    for (uint64_t i = 0; i < (c->mask + 1) * CACHE_WAYS; i++)
        if (c->slot[i].f == f) c->slot[i].f = NULL;
}

static egdb_slot_t *cache_set(const egdb_cache_t *c, const egdb_file_t *f, uint64_t b)
{
    uint64_t h = (f->tag ^ b) * 0x9e3779b97f4a7c15ull;
    return &c->slot[((h >> 32) & c->mask) * CACHE_WAYS];
}

/* A miss in the first way: another way, or a block read into the last. */
static __attribute__((noinline)) int cache_fill(egdb_cache_t *c, egdb_file_t *f, uint64_t b, egdb_slot_t *s,
                                                err_t *err)
{
    int w = 1;
    while (w < CACHE_WAYS && !(s[w].f == f && s[w].tag == f->tag && s[w].b == b)) w++;
    if (w == CACHE_WAYS) {
        w = CACHE_WAYS - 1;
        egdb_slot_t *v = &s[w];
        if (!v->data && !(v->data = malloc(EGDB_BLOCK)))
            return err_set(err, GSW_EFAIL, "%s: out of memory caching block %llu", f->path, (unsigned long long)b);
        v->f = NULL;
        int rc = read_block(f, b, v->data, c->dctx, c->cbuf, c->raw, err);
        if (rc) return rc;
        v->f = f;
        v->tag = f->tag;
        v->b = b;
    }
    egdb_slot_t hit = s[w];
    memmove(s + 1, s, (size_t)w * sizeof *s);
    s[0] = hit;
    return GSW_OK;
}

void egdb_prefetch(const egdb_cache_t *c, const egdb_file_t *f, uint64_t index)
{
    if (index >= f->info.n) return;
    uint64_t b = index / EGDB_BLOCK;
    const egdb_slot_t *s = cache_set(c, f, b);
    for (int w = 0; w < CACHE_WAYS; w++)
        if (s[w].f == f && s[w].tag == f->tag && s[w].b == b) {
            __builtin_prefetch(s[w].data + index % EGDB_BLOCK, 0);
            return;
        }
}

int egdb_get(egdb_cache_t *c, egdb_file_t *f, uint64_t index, uint8_t *code, err_t *err)
{
    if (index >= f->info.n)
        return err_set(err, GSW_EINPUT, "%s: position %llu out of range (%llu positions)", f->path,
                       (unsigned long long)index, (unsigned long long)f->info.n);
    uint64_t b = index / EGDB_BLOCK;
    egdb_slot_t *s = cache_set(c, f, b);
    if (!(s->f == f && s->tag == f->tag && s->b == b)) {
        int rc = cache_fill(c, f, b, s, err);
        if (rc) return rc;
    }
    *code = s->data[index % EGDB_BLOCK];
    return GSW_OK;
}

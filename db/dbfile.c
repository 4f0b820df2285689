/* The db's shared file helpers: see dbfile.h. */
#include "db/dbfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "db/bddfile.h"

int db_frame_write(const char *path, const char magic[8], const void *payload, size_t raw, int level,
                   uint64_t *checksum, err_t *err)
{
    size_t cap = ZSTD_compressBound(raw);
    uint8_t *z = malloc(8 + cap + 8);
    if (!z) return err_set(err, GSW_EFAIL, "out of memory writing %s", path);
    memcpy(z, magic, 8);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    size_t zn = cc ? ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1) : 1;
    if (cc && !ZSTD_isError(zn)) zn = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    if (cc && !ZSTD_isError(zn)) zn = ZSTD_compress2(cc, z + 8, cap, payload, raw);
    ZSTD_freeCCtx(cc);
    if (!cc || ZSTD_isError(zn)) {
        free(z);
        return err_set(err, GSW_EFAIL, "cannot compress %s", path);
    }
    size_t total = 8 + zn;
    uint64_t sum = bddf_fnv(z, total, BDDF_FNV_INIT);   /* the trailer: every byte before it */
    for (int i = 0; i < 8; i++) z[total + (size_t)i] = (uint8_t)(sum >> (8 * i));
    total += 8;
    int rc = db_write_atomic(path, z, total, err);
    if (!rc && checksum) *checksum = bddf_fnv(z, total, BDDF_FNV_INIT);
    free(z);
    return rc;
}

void db_put_le(uint8_t *p, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(x >> (8 * i));
}

uint64_t db_get_le(const uint8_t *p, int bytes)
{
    uint64_t x = 0;
    for (int i = 0; i < bytes; i++) x |= (uint64_t)p[i] << (8 * i);
    return x;
}

static const char seek_tag[8] = { 'G', 'S', 'W', 'S', 'E', 'E', 'K', '1' };
#define SEEK_MAGIC 0x184D2A5Eu   /* one of zstd's skippable frames */
#define SEEK_FIXED (8 + 8 + 4 + 8)   /* head, chunk, frame count, tag */

int db_frame_write_seekable(const char *path, const char magic[8], const void *payload, size_t raw, int level,
                            size_t head, size_t chunk, uint64_t *checksum, err_t *err)
{
    if (head > raw || !chunk) return err_set(err, GSW_EFAIL, "cannot write %s: bad framing", path);
    size_t nf = 1 + (raw - head + chunk - 1) / chunk;
    if (nf > UINT32_MAX / 8) return err_set(err, GSW_EFAIL, "cannot write %s: too many frames", path);
    size_t cap = 8 + ZSTD_compressBound(raw) + nf * ZSTD_compressBound(0) + 8 + 4 * nf + SEEK_FIXED + 8;
    uint8_t *z = malloc(cap);
    uint32_t *zs = malloc(sizeof *zs * nf);
    ZSTD_CCtx *cc = z && zs ? ZSTD_createCCtx() : NULL;
    size_t r = cc ? ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1) : 1;
    if (cc && !ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    size_t at = 8;
    for (size_t f = 0; cc && !ZSTD_isError(r) && f < nf; f++) {
        size_t a = f ? head + (f - 1) * chunk : 0, b = f ? (a + chunk < raw ? a + chunk : raw) : head;
        r = ZSTD_compress2(cc, z + at, cap - at, (const uint8_t *)payload + a, b - a);
        if (!ZSTD_isError(r)) zs[f] = (uint32_t)r, at += r;
    }
    ZSTD_freeCCtx(cc);
    if (!cc || ZSTD_isError(r)) {
        free(z);
        free(zs);
        return err_set(err, GSW_EFAIL, "cannot compress %s", path);
    }
    memcpy(z, magic, 8);
    /* the seek table, a skippable frame: each frame's compressed size, then
       the fixed words, last (read from the end, before the trailer) */
    size_t content = 4 * nf + SEEK_FIXED;
    db_put_le(z + at, SEEK_MAGIC, 4);
    db_put_le(z + at + 4, content, 4);
    at += 8;
    for (size_t f = 0; f < nf; f++, at += 4) db_put_le(z + at, zs[f], 4);
    db_put_le(z + at, head, 8);
    db_put_le(z + at + 8, chunk, 8);
    db_put_le(z + at + 16, nf, 4);
    memcpy(z + at + 20, seek_tag, 8);
    at += SEEK_FIXED;
    free(zs);
    uint64_t sum = bddf_fnv(z, at, BDDF_FNV_INIT);   /* the trailer: every byte before it */
    db_put_le(z + at, sum, 8);
    at += 8;
    int rc = db_write_atomic(path, z, at, err);
    if (!rc && checksum) *checksum = bddf_fnv(z, at, BDDF_FNV_INIT);
    free(z);
    return rc;
}

/* n bytes at offset at of fd: 0, or -1 (short or failed) */
static int pread_all(int fd, void *buf, size_t n, uint64_t at)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

int db_seek_table(int fd, uint64_t file_size, db_seek_t *t)
{
    memset(t, 0, sizeof *t);
    uint8_t fx[SEEK_FIXED];
    if (file_size < 8 + 8 + SEEK_FIXED + 8) return 0;
    if (pread_all(fd, fx, sizeof fx, file_size - 8 - SEEK_FIXED)) return -1;
    if (memcmp(fx + 20, seek_tag, 8)) return 0;
    uint64_t head = db_get_le(fx, 8), chunk = db_get_le(fx + 8, 8), nf = db_get_le(fx + 16, 4);
    uint64_t content = 4 * nf + SEEK_FIXED;
    if (!nf || !chunk || nf > (1u << 26) || 8 + 8 + content + 8 > file_size) return -1;
    uint8_t *sk = malloc(8 + content);
    uint64_t *off = malloc(sizeof *off * (nf + 1));
    int ok = sk && off && !pread_all(fd, sk, 8 + content, file_size - 8 - content - 8);
    ok = ok && db_get_le(sk, 4) == SEEK_MAGIC && db_get_le(sk + 4, 4) == content;
    if (ok) {
        off[0] = 8;
        for (uint64_t f = 0; f < nf; f++) off[f + 1] = off[f] + db_get_le(sk + 8 + 4 * f, 4);
        /* the frames, the table and the trailer fill the file exactly */
        ok = off[nf] + 8 + content + 8 == file_size;
    }
    free(sk);
    if (!ok) {
        free(off);
        return -1;
    }
    t->head = head;
    t->chunk = chunk;
    t->nframes = (uint32_t)nf;
    t->off = off;
    return 1;
}

int db_read_at(int fd, void *buf, size_t n, uint64_t at) { return pread_all(fd, buf, n, at); }

int db_write_atomic(const char *path, const void *data, size_t n, err_t *err)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f) ok = (fflush(f) == 0) & ok, ok = (fsync(fileno(f)) == 0) & ok, ok = (fclose(f) == 0) & ok;
    if (ok) ok = rename(tmp, path) == 0;
    int e = errno;
    if (!ok) {
        unlink(tmp);
        return err_set(err, GSW_EFAIL, "cannot write %s: %s", path, strerror(e));
    }
    return GSW_OK;
}

int db_read_whole(const char *path, uint8_t **data, size_t *n, err_t *err)
{
    return db_read_head(path, SIZE_MAX, data, n, err);
}

int db_read_head(const char *path, size_t max, uint8_t **data, size_t *n, err_t *err)
{
    *data = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EFAIL, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) || st.st_size < 0) {
        fclose(f);
        return err_set(err, GSW_EFAIL, "cannot read %s: %s", path, strerror(errno));
    }
    size_t len = (size_t)st.st_size < max ? (size_t)st.st_size : max;
    uint8_t *d = malloc(len ? len : 1);
    if (!d) {
        fclose(f);
        return err_set(err, GSW_EFAIL, "out of memory reading %s", path);
    }
    if (fread(d, 1, len, f) != len) len = 0;   /* shorter than it said: the reader refuses it as truncated */
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(d);
        return err_set(err, GSW_EFAIL, "cannot read %s", path);
    }
    *data = d;
    *n = len;
    return GSW_OK;
}

/* db_frame_read, the trailer's checksum checked or (trailer 0) not */
static int frame_read(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                      size_t min_raw, int trailer, uint8_t **out, size_t *out_n, err_t *err)
{
    const uint8_t *d = data;
    *out = NULL;
    *out_n = 0;
    if (n < 8 || memcmp(d, magic, 8)) return err_set(err, GSW_EFAIL, "%s is not a gsw %s file", name, what);
    if (n < 8 + 8) return err_set(err, GSW_EFAIL, "%s is damaged (truncated)", name);
    uint64_t sum = 0;
    for (int i = 0; i < 8; i++) sum |= (uint64_t)d[n - 8 + (size_t)i] << (8 * i);
    if (trailer && sum != bddf_fnv(d, n - 8, BDDF_FNV_INIT))
        return err_set(err, GSW_EFAIL, "%s is damaged (truncated, or its checksum differs)", name);
    d += 8;
    n -= 8 + 8;
    /* one frame, or (db_frame_write_seekable) several and a skippable one */
    unsigned long long raw = 0;
    for (size_t at = 0; at < n && raw != ZSTD_CONTENTSIZE_ERROR;) {
        size_t fs = ZSTD_findFrameCompressedSize(d + at, n - at);
        unsigned long long c = ZSTD_isError(fs) ? ZSTD_CONTENTSIZE_ERROR
                               : n - at >= 4 && (db_get_le(d + at, 4) & ~0xFu) == 0x184D2A50u ? 0   /* (skippable) */
                                                                          : ZSTD_getFrameContentSize(d + at, n - at);
        if (c == ZSTD_CONTENTSIZE_ERROR || c == ZSTD_CONTENTSIZE_UNKNOWN || raw + c < raw) raw = ZSTD_CONTENTSIZE_ERROR;
        else raw += c, at += fs;
    }
    if (n == 0) raw = ZSTD_CONTENTSIZE_ERROR;
    if (raw == ZSTD_CONTENTSIZE_ERROR || raw < min_raw)
        return err_set(err, GSW_EFAIL, "%s is damaged (truncated or not written by gsw)", name);
    if (raw > ((unsigned long long)1 << 40) || raw > (unsigned long long)n * 4096 + 4096)
        return err_set(err, GSW_EFAIL, "%s is damaged (implausible size)", name);
    uint8_t *buf = malloc(raw ? (size_t)raw : 1);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory reading %s", name);
    size_t got = ZSTD_decompress(buf, (size_t)raw, d, n);
    if (ZSTD_isError(got) || got != raw) {
        free(buf);
        return err_set(err, GSW_EFAIL, "%s is damaged (truncated or corrupt: %s)", name,
                       ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
    }
    *out = buf;
    *out_n = (size_t)raw;
    return GSW_OK;
}

int db_frame_read(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                  size_t min_raw, uint8_t **out, size_t *out_n, err_t *err)
{
    return frame_read(data, n, magic, what, name, min_raw, 1, out, out_n, err);
}

int db_frame_read_known(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                        size_t min_raw, uint8_t **out, size_t *out_n, err_t *err)
{
    return frame_read(data, n, magic, what, name, min_raw, 0, out, out_n, err);
}

int db_frame_peek(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                  uint8_t *out, size_t want, size_t *got, err_t *err)
{
    *got = 0;
    if (n < 8 || memcmp(data, magic, 8)) return err_set(err, GSW_EFAIL, "%s is not a gsw %s file", name, what);
    ZSTD_DStream *ds = ZSTD_createDStream();
    if (!ds) return err_set(err, GSW_EFAIL, "out of memory reading %s", name);
    ZSTD_inBuffer in = { (const uint8_t *)data + 8, n - 8, 0 };
    ZSTD_outBuffer o = { out, want, 0 };
    size_t r = 0;
    /* each call decodes what it can: stop when out is full, the input is
       used up, or the decoder is stuck (no progress) */
    while (o.pos < o.size && in.pos < in.size) {
        size_t before_in = in.pos, before_out = o.pos;
        r = ZSTD_decompressStream(ds, &o, &in);
        if (ZSTD_isError(r) || r == 0 || (in.pos == before_in && o.pos == before_out)) break;
    }
    ZSTD_freeDStream(ds);
    if (ZSTD_isError(r))
        return err_set(err, GSW_EFAIL, "%s is damaged (truncated or corrupt: %s)", name, ZSTD_getErrorName(r));
    *got = o.pos;
    return GSW_OK;
}

/* Opening-book files: see bookfile.h. */
#include "db/bookfile.h"

#include <stdlib.h>
#include <string.h>

#include "core/value.h"
#include "db/bddfile.h"
#include "db/dbfile.h"

static const char bookf_magic[8] = { 'G', 'S', 'W', 'B', 'O', 'O', 'K', '1' };
#define BOOKF_FIXED (4 + 4 + 4 + 8)   /* spec length, key length, deepest ply, count */

/* An exact value: a draw, or a win or loss with a distance. */
static int bookf_value_ok(int v)
{
    int a = v < 0 ? -v : v;
    return v == VAL_DRAW || (a >= VAL_PROVEN && a <= VAL_WIN);
}

int bookf_write(const char *path, const bookf_t *b, uint64_t *checksum, err_t *err)
{
    size_t speclen = strnlen(b->spec, sizeof b->spec - 1);
    if (b->klen < 1 || b->klen > BOOKF_MAX_KEY || b->n > BOOKF_MAX_COUNT || b->max_ply > 255)
        return err_set(err, GSW_EFAIL, "cannot write %s: a book of %llu keys of %u bytes to ply %u is out of range",
                       path, (unsigned long long)b->n, b->klen, b->max_ply);
    size_t n = (size_t)b->n, raw = BOOKF_FIXED + speclen + n * (b->klen + 3);
    uint8_t *buf = malloc(raw);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory writing %s", path);
    uint8_t *p = buf;
    db_put_le(p, speclen, 4);
    memcpy(p + 4, b->spec, speclen);
    p += 4 + speclen;
    db_put_le(p, b->klen, 4);
    db_put_le(p + 4, b->max_ply, 4);
    db_put_le(p + 8, b->n, 8);
    p += 16;
    if (n) {   /* (an empty book may have no arrays at all) */
        memcpy(p, b->keys, n * b->klen);
        p += n * b->klen;
        for (size_t i = 0; i < n; i++, p += 2) db_put_le(p, (uint16_t)b->val[i], 2);
        memcpy(p, b->ply, n);
    }
    int rc = db_frame_write(path, bookf_magic, buf, raw, 19, checksum, err);
    free(buf);
    return rc;
}

/* The payload's header (the first avail bytes of it) into b's spec, klen,
 * max_ply and n; *len gets its length. NULL, or what is wrong with it. */
static const char *bookf_head(const uint8_t *p, size_t avail, bookf_t *b, size_t *len)
{
    if (avail < 4) return "size";
    uint64_t speclen = db_get_le(p, 4);
    if (speclen == 0 || speclen >= sizeof b->spec || BOOKF_FIXED + speclen > avail) return "game name";
    memcpy(b->spec, p + 4, (size_t)speclen);
    for (uint64_t i = 0; i < speclen; i++)
        if (b->spec[i] <= 32 || b->spec[i] > 126) return "game name";
    p += 4 + speclen;
    b->klen = (uint32_t)db_get_le(p, 4);
    b->max_ply = (uint32_t)db_get_le(p + 4, 4);
    b->n = db_get_le(p + 8, 8);
    *len = BOOKF_FIXED + (size_t)speclen;
    if (b->klen < 1 || b->klen > BOOKF_MAX_KEY) return "key length";
    if (b->max_ply > 255) return "deepest ply";
    if (b->n > BOOKF_MAX_COUNT) return "size";
    return NULL;
}

int bookf_read_mem(const void *data, size_t size, const char *name, bookf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *buf;
    size_t raw, head = 0;
    if (db_frame_read(data, size, bookf_magic, "opening-book", name, BOOKF_FIXED, &buf, &raw, err)) return err->code;
    const char *why = bookf_head(buf, raw, b, &head);
    const uint8_t *p = buf + head;
    if (!why && raw != head + b->n * (b->klen + 3ull)) why = "size";
    size_t n = (size_t)b->n;
    if (!why && n) {
        b->keys = malloc(n * b->klen);
        b->val = malloc(n * sizeof *b->val);
        b->ply = malloc(n);
        if (!b->keys || !b->val || !b->ply) {
            free(buf);
            bookf_free(b);
            return err_set(err, GSW_EFAIL, "out of memory reading %s", name);
        }
        memcpy(b->keys, p, n * b->klen);
        p += n * b->klen;
        for (size_t i = 0; i < n && !why; i++, p += 2) {
            b->val[i] = (int16_t)(uint16_t)db_get_le(p, 2);
            if (!bookf_value_ok(b->val[i])) why = "value";
        }
        memcpy(b->ply, p, n);
        for (size_t i = 0; i < n && !why; i++) {
            if (b->ply[i] > b->max_ply) why = "ply";
            else if (i && memcmp(b->keys + (i - 1) * b->klen, b->keys + i * b->klen, b->klen) >= 0) why = "key order";
        }
    }
    free(buf);
    if (why) {
        bookf_free(b);
        return err_set(err, GSW_EFAIL, "%s is damaged (bad %s)", name, why);
    }
    return GSW_OK;
}

int bookf_read(const char *path, bookf_t *b, uint64_t *checksum, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *data;
    size_t n;
    if (db_read_whole(path, &data, &n, err)) return err->code;
    int rc = bookf_read_mem(data, n, path, b, err);
    if (!rc && checksum) *checksum = bddf_fnv(data, n, BDDF_FNV_INIT);
    free(data);
    return rc;
}

int bookf_peek_mem(const void *data, size_t size, const char *name, bookf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t head[BOOKF_FIXED + BOOKF_SPEC_MAX];
    size_t got, len;
    if (db_frame_peek(data, size, bookf_magic, "opening-book", name, head, sizeof head, &got, err)) return err->code;
    const char *why = bookf_head(head, got, b, &len);
    if (!why) return GSW_OK;
    memset(b, 0, sizeof *b);
    return err_set(err, GSW_EFAIL, "%s is damaged (bad %s)", name, why);
}

int bookf_peek(const char *path, bookf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *data;
    size_t n;
    if (db_read_head(path, 256 * 1024, &data, &n, err)) return err->code;
    int rc = bookf_peek_mem(data, n, path, b, err);
    free(data);
    return rc;
}

int64_t bookf_find(const bookf_t *b, const uint8_t *key, size_t klen)
{
    if (klen != b->klen) return -1;
    int64_t lo = 0, hi = (int64_t)b->n - 1;
    while (lo <= hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = memcmp(b->keys + (size_t)mid * b->klen, key, klen);
        if (!c) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

void bookf_free(bookf_t *b)
{
    free(b->keys);
    free(b->val);
    free(b->ply);
    b->keys = NULL;
    b->val = NULL;
    b->ply = NULL;
    b->n = 0;
}

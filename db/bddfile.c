/* BDD files: see bddfile.h. */
#include "db/bddfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/dbfile.h"

static const char bddf_magic[8] = { 'G', 'S', 'W', 'B', 'D', 'D', '1', '\n' };
#define BDDF_HEAD (3 * 4 + 32 + 4)   /* nvars, nnodes, root, count, tag length */

int u256_add(u256_t *a, const u256_t *b)
{
    unsigned carry = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t s = a->w[i] + b->w[i];
        unsigned c1 = s < a->w[i];
        uint64_t t = s + carry;
        unsigned c2 = t < s;
        a->w[i] = t;
        carry = c1 | c2;
    }
    return carry != 0;
}

int u256_shl(u256_t *a, int n)
{
    if (u256_is_zero(a) || n <= 0) return 0;
    if (n >= 256) return 1;
    int words = n / 64, bits = n % 64;
    for (int i = 3; i >= 4 - words; i--)
        if (a->w[i]) return 1;
    if (bits && (a->w[3 - words] >> (64 - bits))) return 1;
    u256_t r = { { 0, 0, 0, 0 } };
    for (int i = 3; i >= words; i--) {
        uint64_t x = a->w[i - words] << bits;
        if (bits && i - words - 1 >= 0) x |= a->w[i - words - 1] >> (64 - bits);
        r.w[i] = x;
    }
    *a = r;
    return 0;
}

int u256_sub(u256_t *a, const u256_t *b)
{
    unsigned borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t d = a->w[i] - b->w[i];
        unsigned b1 = a->w[i] < b->w[i];
        uint64_t t = d - borrow;
        unsigned b2 = d < borrow;
        a->w[i] = t;
        borrow = b1 | b2;
    }
    return borrow != 0;
}

int u256_is_zero(const u256_t *a)
{
    return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]);
}

int u256_cmp(const u256_t *a, const u256_t *b)
{
    for (int i = 3; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* a /= d, returning the remainder (d < 2^32) */
static uint32_t u256_divmod(u256_t *a, uint32_t d)
{
    unsigned __int128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        unsigned __int128 cur = (rem << 64) | a->w[i];
        a->w[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint32_t)rem;
}

void u256_text(const u256_t *a, char *buf, size_t n)
{
    char tmp[96];
    int len = 0;
    u256_t x = *a;
    do tmp[len++] = (char)('0' + u256_divmod(&x, 10));
    while (!u256_is_zero(&x));
    size_t k = 0;
    for (int i = len - 1; i >= 0 && k + 1 < n; i--) buf[k++] = tmp[i];
    if (n) buf[k] = 0;
}

void u256_text_grouped(const u256_t *a, char *buf, size_t n)
{
    char d[96];
    u256_text(a, d, sizeof d);
    size_t len = strlen(d), k = 0;
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0) buf[k++] = ',';
        buf[k++] = d[i];
    }
    if (n) buf[k] = 0;
}

int u256_parse(const char *s, u256_t *out)
{
    u256_t r = { { 0, 0, 0, 0 } };
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        u256_t t8 = r, t2 = r, d = u256_of((uint64_t)(*s - '0'));
        if (u256_shl(&t8, 3) || u256_shl(&t2, 1) || u256_add(&t8, &t2) || u256_add(&t8, &d)) return -1;
        r = t8;
    }
    *out = r;
    return 0;
}

double u256_double(const u256_t *a)
{
    double r = 0;
    for (int i = 3; i >= 0; i--) r = r * 18446744073709551616.0 + (double)a->w[i];
    return r;
}

uint64_t bddf_fnv(const void *data, size_t n, uint64_t h)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint32_t bddf_refvar(const bddf_t *b, uint32_t ref)
{
    return ref < 2 ? b->nvars : b->node[ref - 2].var;
}

int bddf_count(const bddf_t *b, u256_t *out)
{
    if (b->root < 2) {
        *out = u256_of(b->root);
        return b->root ? u256_shl(out, (int)b->nvars) : 0;
    }
    if (b->nvars <= 63) {   /* every count fits 64 bits: the fastest path (half the memory) */
        uint64_t *c = malloc(sizeof *c * b->nnodes);
        if (!c) return 1;
        for (uint32_t i = 0; i < b->nnodes; i++) {
            const bddf_node_t *x = &b->node[i];
            uint64_t lo = x->lo < 2 ? x->lo : c[x->lo - 2], hi = x->hi < 2 ? x->hi : c[x->hi - 2];
            c[i] = (lo << (bddf_refvar(b, x->lo) - x->var - 1)) + (hi << (bddf_refvar(b, x->hi) - x->var - 1));
        }
        *out = u256_of(c[b->root - 2] << b->node[b->root - 2].var);
        free(c);
        return 0;
    }
    if (b->nvars <= 126) {   /* every count fits 127 bits: the fast path */
        unsigned __int128 *c = malloc(sizeof *c * b->nnodes);
        if (!c) return 1;
        for (uint32_t i = 0; i < b->nnodes; i++) {
            const bddf_node_t *x = &b->node[i];
            unsigned __int128 lo = x->lo < 2 ? x->lo : c[x->lo - 2], hi = x->hi < 2 ? x->hi : c[x->hi - 2];
            c[i] = (lo << (bddf_refvar(b, x->lo) - x->var - 1)) + (hi << (bddf_refvar(b, x->hi) - x->var - 1));
        }
        unsigned __int128 r = c[b->root - 2] << b->node[b->root - 2].var;
        free(c);
        *out = (u256_t){ { (uint64_t)r, (uint64_t)(r >> 64), 0, 0 } };
        return 0;
    }
    u256_t *c = malloc(sizeof *c * b->nnodes);
    if (!c) return 1;
    int over = 0;
    for (uint32_t i = 0; i < b->nnodes && !over; i++) {
        const bddf_node_t *x = &b->node[i];
        u256_t lo = x->lo < 2 ? u256_of(x->lo) : c[x->lo - 2];
        u256_t hi = x->hi < 2 ? u256_of(x->hi) : c[x->hi - 2];
        over |= u256_shl(&lo, (int)(bddf_refvar(b, x->lo) - x->var - 1));
        over |= u256_shl(&hi, (int)(bddf_refvar(b, x->hi) - x->var - 1));
        over |= u256_add(&lo, &hi);
        c[i] = lo;
    }
    if (!over) {
        *out = c[b->root - 2];
        over = u256_shl(out, (int)b->node[b->root - 2].var);
    }
    free(c);
    return over;
}

int bddf_prefix(const bddf_t *b, int n, unsigned bits, bddf_t *out)
{
    memset(out, 0, sizeof *out);
    out->nvars = b->nvars;
    memcpy(out->tag, b->tag, sizeof out->tag);
    uint32_t r = b->root;
    while (r >= 2 && b->node[r - 2].var < (uint32_t)n) {   /* down the path: the prefix's cofactor */
        const bddf_node_t *x = &b->node[r - 2];
        r = (bits >> x->var) & 1 ? x->hi : x->lo;
    }
    if (!r) return bddf_count(out, &out->count);   /* none: the empty set */
    uint32_t top = r >= 2 ? r - 2 : 0, *map = NULL, kept = 0;
    if (r >= 2) {
        /* the nodes below the cofactor's root (children come first, so
           none is past it), marked from it down, then numbered in order */
        map = malloc(sizeof *map * ((size_t)top + 1));
        if (!map) return 1;
        for (uint32_t j = 0; j < top; j++) map[j] = 0;
        map[top] = 1;
        for (uint32_t j = top + 1; j-- > 0;) {
            if (!map[j]) continue;
            const bddf_node_t *x = &b->node[j];
            if (x->lo >= 2) map[x->lo - 2] = 1;
            if (x->hi >= 2) map[x->hi - 2] = 1;
        }
        for (uint32_t j = 0; j <= top; j++)
            if (map[j]) map[j] = kept++;
            else map[j] = UINT32_MAX;
    }
    out->node = malloc(sizeof *out->node * ((size_t)kept + (size_t)n + 1));
    if (!out->node) {
        free(map);
        return 1;
    }
    for (uint32_t j = 0; r >= 2 && j <= top; j++) {
        if (map[j] == UINT32_MAX) continue;
        const bddf_node_t *x = &b->node[j];
        out->node[out->nnodes++] = (bddf_node_t){ x->var, x->lo < 2 ? x->lo : 2 + map[x->lo - 2],
                                                  x->hi < 2 ? x->hi : 2 + map[x->hi - 2] };
    }
    uint32_t root = r < 2 ? r : 2 + map[top];
    free(map);
    for (int i = n - 1; i >= 0; i--) {   /* the path, from its last variable up */
        int bit = (bits >> i) & 1;
        out->node[out->nnodes] = (bddf_node_t){ (uint32_t)i, bit ? BDDF_FALSE : root, bit ? root : BDDF_FALSE };
        root = 2 + out->nnodes++;
    }
    out->root = root;
    if (bddf_count(out, &out->count)) {
        bddf_free(out);
        return 1;
    }
    return 0;
}

int bddf_eval(const bddf_t *b, const uint8_t *bits)
{
    uint32_t r = b->root;
    while (r >= 2) {
        const bddf_node_t *x = &b->node[r - 2];
        r = bits[x->var] ? x->hi : x->lo;
    }
    return (int)r;
}

static void put32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(x >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Where the machine is little-endian, a file's node words are laid out as
 * the node array is, and are used as they are read. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BDDF_LE 1
#else
#define BDDF_LE 0
/* n nodes from the file's little-endian words at p into x; p may be x
 * itself (each node is read whole before it is written) */
static void nodes_le(bddf_node_t *x, const uint8_t *p, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++, p += 12) {
        bddf_node_t y = { get32(p), get32(p + 4), get32(p + 8) };
        x[k] = y;
    }
}
#endif

int bddf_write(const char *path, const bddf_t *b, uint64_t *checksum, err_t *err)
{
    size_t taglen = strnlen(b->tag, sizeof b->tag - 1);
    size_t raw = BDDF_HEAD + taglen + (size_t)b->nnodes * 12;
    uint8_t *buf = malloc(raw);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory writing %s", path);
    put32(buf, b->nvars);
    put32(buf + 4, b->nnodes);
    put32(buf + 8, b->root);
    for (int i = 0; i < 4; i++) db_put_le(buf + 12 + 8 * i, b->count.w[i], 8);
    put32(buf + 44, (uint32_t)taglen);
    memcpy(buf + BDDF_HEAD, b->tag, taglen);
    uint8_t *p = buf + BDDF_HEAD + taglen;
    for (uint32_t i = 0; i < b->nnodes; i++, p += 12) {
        put32(p, b->node[i].var);
        put32(p + 4, b->node[i].lo);
        put32(p + 8, b->node[i].hi);
    }
    /* in frames of BDDF_SEEK_NODES nodes after the head, so that a query
       reads the few it walks through (bddf_lazy) */
    int rc = db_frame_write_seekable(path, bddf_magic, buf, raw, ZSTD_CLEVEL_DEFAULT, BDDF_HEAD + taglen,
                                     (size_t)12 * BDDF_SEEK_NODES, checksum, err);
    free(buf);
    return rc;
}

/* Is node x, the i-th of a file of nvars variables, out of shape: its
 * variable out of range, a child not a node before it (or a terminal), or
 * both children the same? */
static inline int bddf_node_bad(const bddf_node_t *x, uint32_t i, uint32_t nvars)
{
    return x->var >= nvars || x->lo >= i + 2 || x->hi >= i + 2 || x->lo == x->hi;
}

/* The head of a BDD file at p, n bytes from it on: its fields, and the tag
 * (checked printable) into tag. NULL, or the field found bad. With whole,
 * the n bytes are the whole payload and hold the nodes after the tag; else
 * they are the head's frame, the head and the tag alone. */
static const char *head_parse(const uint8_t *p, size_t n, int whole, uint32_t *nvars, uint32_t *nnodes, uint32_t *root,
                              u256_t *count, uint32_t *taglen, char tag[BDDF_TAG_MAX])
{
    if (n < BDDF_HEAD) return "size";
    *nvars = get32(p);
    *nnodes = get32(p + 4);
    *root = get32(p + 8);
    for (int i = 0; i < 4; i++) count->w[i] = db_get_le(p + 12 + 8 * i, 8);
    *taglen = get32(p + 44);
    if (*nvars == 0 || *nvars > BDDF_MAX_VARS) return "variable count";
    if (*taglen >= BDDF_TAG_MAX || n != BDDF_HEAD + (unsigned long long)*taglen + (whole ? 12ULL * *nnodes : 0))
        return "size";
    if (*root >= 2ULL + *nnodes || (*nnodes && *root != *nnodes + 1)) return "root";
    memcpy(tag, p + BDDF_HEAD, *taglen);
    tag[*taglen] = 0;
    for (uint32_t i = 0; i < *taglen; i++)
        if (tag[i] < 32 || tag[i] > 126) return "tag";
    return NULL;
}

/* bddf_read_mem, and with quick the checks of bddf_read_known alone. */
static int bddf_parse(const void *data, size_t n, const char *name, int quick, bddf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *buf;
    size_t raw;
    if ((quick ? db_frame_read_known : db_frame_read)(data, n, bddf_magic, "BDD", name, BDDF_HEAD, &buf, &raw, err))
        return err->code;
    uint32_t taglen;
    const char *why = head_parse(buf, raw, 1, &b->nvars, &b->nnodes, &b->root, &b->count, &taglen, b->tag);
    int counted = 0;   /* the count was checked while reading */
    if (!why && b->nnodes && quick) {
        /* the file's own nodes, checked in one pass in their order: each
         * variable in range, each child a node before it (so bddf_eval
         * stays within the array and ends) */
        const uint8_t *p = buf + BDDF_HEAD + taglen;
        bddf_node_t *x;
#if BDDF_LE
        /* the file's layout is the array's: moved to the front of the
         * buffer, which becomes the array (no second copy of it) */
        _Static_assert(sizeof(bddf_node_t) == 12, "a node is three 32-bit words");
        memmove(buf, p, (size_t)12 * b->nnodes);
        x = (bddf_node_t *)(void *)buf;
        buf = NULL;
#else
        x = malloc(sizeof *x * b->nnodes);
        if (!x) {
            free(buf);
            return err_set(err, GSW_EFAIL, "out of memory reading %s", name);
        }
        nodes_le(x, p, b->nnodes);
#endif
        b->node = x;
        for (uint32_t i = 0; i < b->nnodes; i++)
            if (bddf_node_bad(&x[i], i, b->nvars)) {
                why = "node";
                break;
            }
        counted = 1;
    } else if (!why && b->nnodes) {
        b->node = malloc(sizeof *b->node * b->nnodes);
        if (!b->node) {
            free(buf);
            return err_set(err, GSW_EFAIL, "out of memory reading %s", name);
        }
        const uint8_t *p = buf + BDDF_HEAD + taglen;
        /* up to 63 variables the count is made as the nodes are read (64 bits a
           node; a count then fits), while each node's children are in cache */
        uint64_t *c = b->nvars <= 63 ? malloc(sizeof *c * b->nnodes) : NULL;
        for (uint32_t i = 0; i < b->nnodes && !why; i++, p += 12) {
            bddf_node_t *x = &b->node[i];
            x->var = get32(p);
            x->lo = get32(p + 4);
            x->hi = get32(p + 8);
            if (bddf_node_bad(x, i, b->nvars)) {
                why = "node";
                break;
            }
            uint32_t vlo = bddf_refvar(b, x->lo), vhi = bddf_refvar(b, x->hi);   /* (children checked first) */
            if (vlo <= x->var || vhi <= x->var) {
                why = "node";
                break;
            }
            if (c) {
                uint64_t lo = x->lo < 2 ? x->lo : c[x->lo - 2], hi = x->hi < 2 ? x->hi : c[x->hi - 2];
                c[i] = (lo << (vlo - x->var - 1)) + (hi << (vhi - x->var - 1));
            }
        }
        if (c && !why) {
            u256_t k = u256_of(c[b->root - 2] << b->node[b->root - 2].var);
            if (u256_cmp(&k, &b->count)) why = "count";
        }
        if (c || why) counted = 1;
        free(c);
    }
    free(buf);
    if (!why && !counted) {
        u256_t c;
        if (bddf_count(b, &c) || u256_cmp(&c, &b->count)) why = "count";
    }
    if (why) {
        bddf_free(b);
        return err_set(err, GSW_EFAIL, "%s is damaged (bad %s)", name, why);
    }
    return GSW_OK;
}

int bddf_read_mem(const void *data, size_t n, const char *name, bddf_t *b, err_t *err)
{
    return bddf_parse(data, n, name, 0, b, err);
}

int bddf_read_known(const char *path, uint64_t checksum, bddf_t *b, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *data;
    size_t n;
    if (db_read_whole(path, &data, &n, err)) return err->code;
    int rc = bddf_fnv(data, n, BDDF_FNV_INIT) != checksum
               ? err_set(err, GSW_EFAIL, "%s is damaged (its checksum differs from the manifest's)", path)
               : bddf_parse(data, n, path, 1, b, err);
    free(data);
    return rc;
}

int bddf_read(const char *path, bddf_t *b, uint64_t *checksum, err_t *err)
{
    memset(b, 0, sizeof *b);
    uint8_t *data;
    size_t n;
    if (db_read_whole(path, &data, &n, err)) return err->code;
    int rc = bddf_read_mem(data, n, path, b, err);
    if (!rc && checksum) *checksum = bddf_fnv(data, n, BDDF_FNV_INIT);
    free(data);
    return rc;
}

void bddf_free(bddf_t *b)
{
    free(b->node);
    b->node = NULL;
    b->nnodes = 0;
}

/* ---- bddf_lazy: a seekable file's nodes, a frame at a time ---- */

void bddf_lazy_close(bddf_lazy_t *l)
{
    if (l->fd >= 0) close(l->fd);
    for (int i = 0; i < BDDF_LAZY_SLOTS; i++) free(l->slot[i].node);
    free(l->seek.off);
    free(l->z);
    ZSTD_freeDCtx(l->dc);
    memset(l, 0, sizeof *l);
    l->fd = -1;
}

/* frame f (compressed) into l->z, decompressed into out (cap bytes): the
 * bytes it gave, or -1 with err set */
static long lazy_frame(bddf_lazy_t *l, uint32_t f, uint8_t *out, size_t cap, err_t *err)
{
    uint64_t zn = l->seek.off[f + 1] - l->seek.off[f];
    if (zn > l->zcap) {
        uint8_t *z = realloc(l->z, zn);
        if (!z) return err_set(err, GSW_EFAIL, "out of memory reading %s", l->path), -1;
        l->z = z;
        l->zcap = zn;
    }
    if (db_read_at(l->fd, l->z, zn, l->seek.off[f]))
        return err_set(err, GSW_EFAIL, "%s is damaged (truncated, or unreadable)", l->path), -1;
    unsigned long long want = ZSTD_getFrameContentSize(l->z, zn);
    size_t got = want > cap ? 0 : ZSTD_decompressDCtx(l->dc, out, cap, l->z, zn);
    if (want > cap || ZSTD_isError(got) || got != want)
        return err_set(err, GSW_EFAIL, "%s is damaged (a corrupt frame)", l->path), -1;
    return (long)got;
}

int bddf_lazy_open(const char *path, bddf_lazy_t *l, err_t *err)
{
    memset(l, 0, sizeof *l);
    l->fd = -1;
    snprintf(l->path, sizeof l->path, "%s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return err_set(err, GSW_EFAIL, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    uint8_t magic[8];
    if (fstat(fd, &st) || st.st_size < 16 || db_read_at(fd, magic, 8, 0) || memcmp(magic, bddf_magic, 8)) {
        close(fd);
        return st.st_size < 16 ? err_set(err, GSW_EFAIL, "%s is damaged (truncated)", path)
                               : err_set(err, GSW_EFAIL, "%s is not a gsw BDD file", path);
    }
    l->fd = fd;
    int t = db_seek_table(fd, (uint64_t)st.st_size, &l->seek);
    if (t <= 0) {
        bddf_lazy_close(l);
        return t == 0 ? GSW_OK : err_set(err, GSW_EFAIL, "%s is damaged (its seek table)", path);
    }
    uint8_t head[BDDF_HEAD + BDDF_TAG_MAX];
    if (!(l->dc = ZSTD_createDCtx())) {
        bddf_lazy_close(l);
        return err_set(err, GSW_EFAIL, "out of memory reading %s", path);
    }
    long hn = lazy_frame(l, 0, head, sizeof head, err);
    if (hn < 0) {
        bddf_lazy_close(l);
        return err->code;
    }
    uint32_t taglen;
    const char *why = head_parse(head, (size_t)hn, 0, &l->nvars, &l->nnodes, &l->root, &l->count, &taglen, l->tag);
    uint64_t per = l->seek.chunk / 12;
    if (!why && l->seek.head != (uint64_t)hn) why = "head";
    else if (!why && (l->seek.chunk % 12 || per > (1u << 24) || l->seek.nframes != 1 + (l->nnodes + per - 1) / per))
        why = "seek table";
    if (why) {
        bddf_lazy_close(l);
        return err_set(err, GSW_EFAIL, "%s is damaged (bad %s)", path, why);
    }
    l->per = (uint32_t)per;
    return GSW_OK;
}

/* Node i of l (read with its frame, each node of which is checked as
 * bddf_read_known checks them), or NULL with err set. */
static const bddf_node_t *lazy_node(bddf_lazy_t *l, uint32_t i, err_t *err)
{
    uint32_t f = i / l->per;
    struct bddf_lazy_slot *s = &l->slot[f % BDDF_LAZY_SLOTS];
    if (s->frame != f + 1) {
        size_t cap = (size_t)l->per * 12;
        if (!s->node && !(s->node = malloc(cap))) return err_set(err, GSW_EFAIL, "out of memory reading %s", l->path), NULL;
        s->frame = 0;
        uint32_t first = f * l->per, n = l->nnodes - first < l->per ? l->nnodes - first : l->per;
        long got = lazy_frame(l, f + 1, (uint8_t *)s->node, cap, err);
        if (got < 0) return NULL;
        if ((uint64_t)got != (uint64_t)n * 12) return err_set(err, GSW_EFAIL, "%s is damaged (a short frame)", l->path), NULL;
#if !BDDF_LE
        nodes_le(s->node, (const uint8_t *)s->node, n);   /* (in place) */
#endif
        for (uint32_t k = 0; k < n; k++)
            if (bddf_node_bad(&s->node[k], first + k, l->nvars))
                return err_set(err, GSW_EFAIL, "%s is damaged (bad node)", l->path), NULL;
        s->frame = f + 1;
        l->frames_read++;
    }
    return &s->node[i - f * l->per];
}

int bddf_lazy_eval(bddf_lazy_t *l, const uint8_t *bits, err_t *err)
{
    uint32_t r = l->root;
    while (r >= 2) {   /* (each child lies before its node: the walk ends) */
        const bddf_node_t *x = lazy_node(l, r - 2, err);
        if (!x) return -1;
        r = bits[x->var] ? x->hi : x->lo;
    }
    return (int)r;
}

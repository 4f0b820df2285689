/* A binary decision diagram as a file: its nodes in an array, children
 * before parents, so that it can be read back without a BDD package and
 * evaluated on an assignment by walking the array. Used for Connect Four's
 * strong solutions (solve/strong.c), one file per set.
 *
 * On disk: the 8-byte magic "GSWBDD1\n", then one zstd frame (with its
 * content checksum) holding: nvars, nnodes, root (u32 each, little-endian),
 * the number of satisfying assignments over the nvars variables (32 bytes,
 * little-endian), a text tag (u32 length, then the bytes: who made the set
 * and for what), and the nodes (var, lo, hi: u32 each); last, the FNV-1a 64
 * of every byte before it (8 bytes, little-endian). A reference is 0
 * (false), 1 (true) or 2 + the index of an earlier node. Reading checks the
 * order (a child's variable is below its parent's), the references and the
 * count, so a damaged file is refused, never walked. */
#ifndef GSW_BDDFILE_H
#define GSW_BDDFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "db/dbfile.h"

/* Unsigned 256-bit integers: exact counts of positions (of any board that
 * fits 128 cells: at most 3^128 < 2^203). */
typedef struct u256 { uint64_t w[4]; } u256_t;
/* a += b; returns 1 on overflow */
int u256_add(u256_t *a, const u256_t *b);
/* a -= b; returns 1 when b > a (a then wraps round) */
int u256_sub(u256_t *a, const u256_t *b);
/* a <<= n; returns 1 on overflow */
int u256_shl(u256_t *a, int n);
int u256_is_zero(const u256_t *a);
int u256_cmp(const u256_t *a, const u256_t *b);
static inline u256_t u256_of(uint64_t x) { return (u256_t){ { x, 0, 0, 0 } }; }
/* Decimal digits into buf (at least 80 bytes). */
void u256_text(const u256_t *a, char *buf, size_t n);
/* The same with thousands separators ("3,945,711"). */
void u256_text_grouped(const u256_t *a, char *buf, size_t n);
/* Parse decimal digits; 0 on success. */
int u256_parse(const char *s, u256_t *out);
/* The value as a double (rounded), for ratios and progress. */
double u256_double(const u256_t *a);

#define BDDF_FALSE 0u
#define BDDF_TRUE 1u
#define BDDF_MAX_VARS 4096u
#define BDDF_TAG_MAX 256

typedef struct bddf_node { uint32_t var, lo, hi; } bddf_node_t;

typedef struct bddf {
    uint32_t nvars, nnodes, root;
    bddf_node_t *node;      /* nnodes, children first */
    u256_t count;           /* satisfying assignments over nvars variables */
    char tag[BDDF_TAG_MAX];
} bddf_t;

/* The count of b's satisfying assignments over its nvars variables into
 * *out; returns 1 on overflow (more than 2^256). */
int bddf_count(const bddf_t *b, u256_t *out);
/* The members of b whose first n variables read bits (variable i: bit i),
 * as a node array of their own, counted: b's nodes below that path, the
 * path's n nodes above them (b's other nodes left out). 1: out of memory
 * (out then empty). */
int bddf_prefix(const bddf_t *b, int n, unsigned bits, bddf_t *out);
/* Is the assignment bits[0 .. nvars-1] (0 or 1 each) in the set? */
int bddf_eval(const bddf_t *b, const uint8_t *bits);
/* Write b to path (through path.tmp and a rename, so a reader never sees
 * half a file); *checksum (may be NULL) receives the FNV-1a 64 of the
 * file's bytes. b->count must be set (bddf_count). */
int bddf_write(const char *path, const bddf_t *b, uint64_t *checksum, err_t *err);
/* Read and check a file; *checksum (may be NULL) as for bddf_write. On
 * failure, a one-line message naming the file. */
int bddf_read(const char *path, bddf_t *b, uint64_t *checksum, err_t *err);
/* Read a file whose checksum (as bddf_read's) is known from elsewhere (a
 * manifest): refused unless the file's matches, then read with the checks
 * that keep bddf_eval within the nodes, but not the count, nor the order
 * of the variables (the writer's, and bddf_read's, which check them):
 * several times faster on files of millions of nodes. */
int bddf_read_known(const char *path, uint64_t checksum, bddf_t *b, err_t *err);
/* The same from memory (the fuzz target's door); name is for messages. */
int bddf_read_mem(const void *data, size_t n, const char *name, bddf_t *b, err_t *err);
void bddf_free(bddf_t *b);

/* A file's nodes read a frame at a time (files bddf_write cut into frames
 * of BDDF_SEEK_NODES nodes: a query walks a path of a few dozen nodes, and
 * reads their frames alone, not the whole file). Each frame read is checked
 * by zstd's content checksum, and its nodes as bddf_read_known checks them
 * (bddf_lazy_eval stays within the nodes and ends); the file's own
 * checksum and count are not (bddf_read does that). */
#define BDDF_SEEK_NODES 16384
#define BDDF_LAZY_SLOTS 64   /* frames kept, by frame number modulo this */
typedef struct bddf_lazy {
    int fd;                       /* -1: none open */
    char path[1024];
    uint32_t nvars, nnodes, root, per;
    u256_t count;                 /* the file's, unchecked */
    char tag[BDDF_TAG_MAX];
    db_seek_t seek;
    void *dc;                     /* ZSTD_DCtx */
    uint8_t *z;
    size_t zcap;
    struct bddf_lazy_slot { uint32_t frame; bddf_node_t *node; } slot[BDDF_LAZY_SLOTS];   /* frame + 1, 0 none */
    uint64_t frames_read;
} bddf_lazy_t;
/* Open path lazily: GSW_OK with l->fd >= 0, or with l->fd -1 where the
 * file is in one frame (written before files were cut: bddf_read it); on
 * failure a one-line message. Its head (variables, nodes, root, tag) is
 * read and checked. */
int bddf_lazy_open(const char *path, bddf_lazy_t *l, err_t *err);
/* As bddf_eval: 0 or 1; -1 (err set) where a frame is damaged. */
int bddf_lazy_eval(bddf_lazy_t *l, const uint8_t *bits, err_t *err);
void bddf_lazy_close(bddf_lazy_t *l);
/* FNV-1a 64, the files' checksum */
uint64_t bddf_fnv(const void *data, size_t n, uint64_t h);
#define BDDF_FNV_INIT 0xcbf29ce484222325ULL

#endif

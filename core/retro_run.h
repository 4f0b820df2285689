/* The retrograde engine's run of one unit, shared by its two files:
 * core/retro.c (the phases, the whole solve) and core/retro_part.c (what
 * a unit divided between parts adds: the exchanges of a round and the
 * check across parts). Private to core/. */
#ifndef GSW_RETRO_RUN_H
#define GSW_RETRO_RUN_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/retro.h"

#define RETRO_CHUNK 16384      /* nodes a thread takes at a time */
#define RETRO_ROUND (1u << 20)  /* frontier nodes a round (retro_unit_t.round's default) */
#define RETRO_BUCKET_MIN (1u << 25)   /* nodes (200 MB of them) from which an undivided unit's settlements are bucketed */
#define EX_NONE 0u             /* exit codes (uint16): no exit */
#define EX_DRAW 0xffffu        /* ... a drawing exit; else a retro_val_t */

/* One node of a run, its three fields side by side so the propagation
 * touches one cache line per predecessor. */
typedef struct retro_node {
    uint16_t val;              /* a retro_val_t */
    uint16_t ex;               /* best exit (EX_NONE, EX_DRAW or a retro_val_t) */
    uint16_t cnt;              /* moves inside the unit not yet known to lose for the mover */
} retro_node_t;

#define RETRO_GROUP 8          /* nodes whose moves are listed before their targets are read */
#define RETRO_TILE 32          /* low parts a tile of the check (core/retro.c) */
#define RETRO_ROW 4096         /* nodes a unit of the check's work in a span read in index order */

/* A span of the check's order (retro_unit_t.spans): rows of `low` nodes,
 * each cut in `tiles` segments of w; a unit of work is one tile's segment
 * in hb consecutive rows. seg0, unit0: its first segment's and unit's
 * number among the unit's. */
typedef struct retro_span {
    uint64_t at, n, low, w, rows, tiles, hb, nhb, seg0, unit0;
} retro_span_t;

/* Init's place in the spans, to record where each segment's lists begin. */
typedef struct retro_mark {
    const retro_span_t *s;
    uint64_t row, col;
} retro_mark_t;

/* A growing list of words (a part's messages to another part). */
typedef struct retro_words {
    uint64_t *a;
    size_t n, cap;
} retro_words_t;

/* A block of a bucket's settlements (4 KB); every block of a chain is
 * full but its tail, which holds n (kept in the chain, so that adding a
 * word touches the chain and the word's line only). */
#define RETRO_BLOCK 511
typedef struct retro_block {
    struct retro_block *next;
    uint64_t w[RETRO_BLOCK];
} retro_block_t;
typedef struct retro_chain {
    retro_block_t *head, *tail;
    uint64_t n;
} retro_chain_t;

typedef struct retro_run {
    const retro_unit_t *u;
    /* this part's nodes: lo .. lo + nloc - 1 of the unit (0 and n when it is
       not divided); node[], the frontier and the kept lists are indexed from lo */
    uint64_t lo, nloc;
    const retro_comm_t *comm;  /* NULL: not divided */
    int maxex_all;             /* the longest exit distance over every part */
    retro_words_t *obox;       /* divided: per thread and part, the settlements for other parts
                                  (a predecessor's node << 1 | 1 when its move reaches a loss) */
    retro_val_t *all;          /* divided, during a replicated check: every node's value */
    /* A large undivided unit's propagation in two steps a round (phases 2
       and 5): its settlements are first gathered per thread in buckets of
       2^bshift nodes (bw[tid * nbk + bucket], each word pred << 1 | lost),
       then each bucket is settled by one thread, so the writes fall into a
       cache-sized range of the node array, not at random over all of it.
       NULL: settled at once (small units, divided units). A bucket's words
       are a chain of blocks; settled blocks go to the settling thread's
       pool, so the blocks in use are about one round's words. */
    retro_chain_t *bw;
    retro_block_t *pool[256];
    uint64_t nbk;
    uint64_t gathered;         /* atomic: settlements gathered this round */
    uint64_t *bits[256];       /* per thread: a bitmap of one bucket's nodes (zero between uses) */
    int bshift;
    retro_node_t *node;        /* NULL in retro_check */
    const retro_val_t *val;    /* retro_check: the values checked */
    int phase;                 /* 0 init, 2 propagate level d, 3 check (retro_check), 4 check (retro_solve),
                                  5 settle level d's buckets, 6 check (retro_solve) unit by unit of the spans */
    int d;
    uint64_t work;             /* items of this phase: nodes, or the frontier's length */
    const uint32_t *items;     /* the frontier (phase 2) */
    uint64_t next;             /* the next chunk (atomic) */
    uint64_t done;             /* items done in this phase (atomic) */
    int maxex;                 /* the longest exit distance (atomic max) */
    /* phase 2: the nodes each thread resolved for the next level */
    uint32_t *tnext[256];
    uint64_t tn[256], tcap[256];
    uint64_t *scratch[256];    /* per thread: twice RETRO_GROUP lists of RETRO_MAX_MOVES nodes */
    /* the moves inside the unit that init listed, kept for the check while
       u->keep_bytes allows: per chunk of RETRO_CHUNK nodes, each node's
       list as retro_keep_put writes it (NULL: that chunk's are listed again) */
    uint8_t **kept;
    uint64_t kept_bytes;       /* atomic */
    uint64_t edges;            /* atomic: moves inside the unit, in all */
    const uint8_t *cursor[256];   /* per thread: the check's place in its chunk's kept lists */
    /* the check's order (core/retro.c; NULL: index order): the spans
       (nspan and a sentinel), the units of work, and per segment where its
       first node's list begins in its chunk's kept lists */
    retro_span_t *span;
    int nspan;
    uint64_t units;
    uint32_t *segoff;
    double busy[256];          /* per thread, this phase (ms) */
    uint64_t titems[256];      /* per thread, all phases */
    int failed;                /* an error or a stop: everyone leaves */
    pthread_mutex_t lock;      /* err and progress */
    err_t err;
} retro_run_t;

static inline double retro_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The threads a run uses: u->threads, from 1 to 256. */
/* A node's list of moves inside the unit as init keeps it for the check
 * (which takes the best of them, in any order): its count in a byte, then
 * its nodes in ascending order, the first in 4 bytes, each next as its
 * distance from the one before, in 2 bytes below 2^15, else in 4 (the top
 * bit of the first two set). A king's moves in checkers or chess lead to
 * nodes a few thousand apart, so a node takes about half of 4 bytes a move
 * and one for the count. l is sorted in place; o has 1 + 4 n bytes free.
 * The bytes written, or 0 when a distance reaches 2^31 (not kept then). */
static inline size_t retro_keep_put(uint8_t *o, uint64_t *l, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t x = l[i];
        int j = i;
        for (; j > 0 && l[j - 1] > x; j--) l[j] = l[j - 1];
        l[j] = x;
    }
    uint8_t *p = o;
    *p++ = (uint8_t)n;
    if (!n) return 1;
    uint32_t w = (uint32_t)l[0];
    memcpy(p, &w, 4);
    p += 4;
    for (int i = 1; i < n; i++) {
        uint64_t d = l[i] - l[i - 1];
        uint16_t h;
        if (d < 0x8000) {
            h = (uint16_t)d;
            memcpy(p, &h, 2);
            p += 2;
            continue;
        }
        if (d >> 31) return 0;
        h = (uint16_t)(0x8000 | d >> 16);
        memcpy(p, &h, 2);
        h = (uint16_t)d;
        memcpy(p + 2, &h, 2);
        p += 4;
    }
    return (size_t)(p - o);
}

/* The list retro_keep_put wrote at c into l (*n nodes); the bytes after it. */
static inline const uint8_t *retro_keep_get(const uint8_t *c, uint64_t *l, int *n)
{
    int k = *c++;
    *n = k;
    if (!k) return c;
    uint32_t w;
    memcpy(&w, c, 4);
    c += 4;
    uint64_t x = w;
    l[0] = x;
    for (int i = 1; i < k; i++) {
        uint16_t h;
        memcpy(&h, c, 2);
        c += 2;
        uint64_t d = h;
        if (h & 0x8000) {
            uint16_t lo;
            memcpy(&lo, c, 2);
            c += 2;
            d = (uint64_t)(h & 0x7FFF) << 16 | lo;
        }
        l[i] = x += d;
    }
    return c;
}

static inline int retro_clamp_threads(int threads) { return threads > 0 ? (threads > 256 ? 256 : threads) : 1; }
static inline int retro_threads(const retro_unit_t *u) { return retro_clamp_threads(u->threads); }

static inline void retro_fail(retro_run_t *r, const err_t *e)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) r->err = *e;
    __atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
}

static inline int ex_dist(uint16_t x) { return retro_dist((retro_val_t)x); }

/* The best exit as the value it gives (VAL_WIN + 1: none). */
static inline val_t ex_value(uint16_t x)
{
    return x == EX_NONE ? VAL_WIN + 1 : x == EX_DRAW ? VAL_DRAW : retro_to_val((retro_val_t)x);
}

/* p resolved for the next level by thread tid: it joins that frontier. */
static inline int retro_push(retro_run_t *r, int tid, uint32_t p)
{
    if (r->tn[tid] == r->tcap[tid]) {
        uint64_t cap = r->tcap[tid] ? r->tcap[tid] * 2 : 4096;
        uint32_t *a = realloc(r->tnext[tid], cap * sizeof *a);
        if (!a) return -1;
        r->tnext[tid] = a;
        r->tcap[tid] = cap;
    }
    r->tnext[tid][r->tn[tid]++] = p;
    return 0;
}

/* This part's node o (local) at level d, by a move of it to a node just
 * resolved (lost: that node lost): it wins by a move to a lost node, or
 * loses once its last move inside the unit is known to lose and its exits
 * lose no later. The order of a level's settlements does not matter, so
 * the values do not depend on threads or parts. shared: other threads may
 * settle the same node now (atomic updates); 0 when this thread alone
 * settles o's bucket. */
static inline void retro_settle_as(retro_run_t *r, int tid, uint64_t o, int lost, err_t *e, const int shared)
{
    int d = r->d;
    retro_node_t *p = &r->node[o];
    if ((shared ? __atomic_load_n(&p->val, __ATOMIC_RELAXED) : p->val) != RETRO_UNKNOWN) return;
    uint16_t zero = RETRO_UNKNOWN, nv;
    if (lost) nv = retro_win(d + 1);   /* a move to a lost position wins */
    else {
        if (shared ? __atomic_sub_fetch(&p->cnt, 1, __ATOMIC_RELAXED) : --p->cnt) return;
        uint16_t x = p->ex;   /* every move inside loses: the exits decide */
        if (!(x == EX_NONE || (retro_is_loss((retro_val_t)x) && ex_dist(x) <= d + 1))) return;
        /* (a longer losing exit waits for its level; a drawing exit
           draws; a winning one wins at its level) */
        nv = retro_loss(d + 1);
    }
    if (shared && !__atomic_compare_exchange_n(&p->val, &zero, nv, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    if (!shared) p->val = nv;
    if (retro_push(r, tid, (uint32_t)o)) {
        err_set(e, GSW_EFAIL, "retro: out of memory for the frontier");
        retro_fail(r, e);
    }
}

static inline void retro_settle(retro_run_t *r, int tid, uint64_t o, int lost, err_t *e)
{
    retro_settle_as(r, tid, o, lost, e, 1);
}

static inline int retro_words_add(retro_words_t *w, uint64_t x)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 1024;
        uint64_t *a = realloc(w->a, cap * sizeof *a);
        if (!a) return -1;
        w->a = a;
        w->cap = cap;
    }
    w->a[w->n++] = x;
    return 0;
}

/* The part owning global node g (divided units; g is another part's). */
static inline int retro_owner(const retro_run_t *r, uint64_t g)
{
    const uint64_t *lo = r->comm->lo;
    int a = 0, b = r->comm->parts;   /* lo[a] <= g < lo[b] */
    while (b - a > 1) {
        int m = (a + b) / 2;
        if (g >= lo[m]) a = m;
        else b = m;
    }
    return a;
}

/* The check's failure: node (the unit's numbering) holds have, its moves give best. */
static inline void retro_mismatch(retro_run_t *r, uint64_t node, val_t have, val_t best, err_t *e)
{
    char name[300] = "";
    if (r->u->describe) r->u->describe(r->u->ctx, node, name, sizeof name);
    err_set(e, GSW_EFAIL, "retro: node %llu%s%s is solved as %d but its moves give %d", (unsigned long long)node,
            *name ? " " : "", name, (int)have, (int)best);
    retro_fail(r, e);
}

/* --- the passes between phases, on the unit's threads too --- */

enum { RETRO_SORT_CHUNK = 1 << 20 };
typedef struct retro_job {
    retro_run_t *r;
    uint64_t *off;          /* by chunk, then by distance: counts, then where the chunk's first goes */
    uint32_t *bnode;
    int nd;                 /* distances (maxex + 1) */
    retro_val_t *val;
} retro_job_t;

/* j->val[a..b) = the run's values (a gsw_pfor body). */
void retro_copy_vals(void *ctx, int tid, uint64_t a, uint64_t b);
/* One phase over `work` items on the unit's threads; its wall time added
 * to *wall. -1 when the run has failed. */
int retro_phase(retro_run_t *r, int phase, uint64_t work, double *wall);

/* --- a divided unit (core/retro_part.c) --- */

/* Frontier nodes a part propagates between two exchanges. */
uint64_t retro_round(const retro_unit_t *u);
/* Every part's maximum of x[1..k-1], and whether any part has failed so
 * far (x[0]): 1 when one has, and every part stops. */
int retro_meet(retro_run_t *r, int64_t *x, int k);
/* The end of a propagation round (see retro_part.c): 1 when a part has failed. */
int retro_round_swap(retro_run_t *r);
/* retro_solve's check of a divided unit: with every part's values, or
 * asking owners block by block. 0, or -1 when a part failed. */
int retro_check_replicated(retro_run_t *r, double *wall);
int retro_check_parts(retro_run_t *r, double *wall);

#endif

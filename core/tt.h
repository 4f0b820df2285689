/* The transposition table shared by the core's searches: buckets of four
 * 16-byte entries (one cache line), each holding bounds [lo, hi] on a
 * position's value, a best move, the work that went into it and the table's
 * generation when it was written. Entries are written lock-free: the stored
 * check word is key ^ data, so a torn write from another thread reads back
 * as a miss, never as a wrong value.
 *
 * Data word: lo (bits 0-15), hi (16-31), move (32-47), work (48-53),
 * generation (54-59); exact entries hold their search's age in bits 60-62
 * (tt_new_search), heuristic entries set bit 63 and hold their search's
 * generation in bits 60-62 (see tt_store_heur).
 *
 * Clearing is lazy: tt_clear moves the table to its next generation (a
 * 32-bit count), and an entry of another generation reads as a miss: the
 * check word also mixes in the generation it was written in. Its low 6 bits,
 * kept in the data word, tell the replacement which entries are old: they
 * go first (one in 64 old entries looks current there, and goes by its
 * work). Only when the count wraps is the memory zeroed (table_zero). */
#ifndef GSW_TT_H
#define GSW_TT_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"
#include "core/value.h"

typedef struct tt_entry { uint64_t check, data; } tt_entry_t;

typedef struct tt {
    tt_entry_t *e;
    uint64_t mask;          /* the buckets in use - 1 (a power of two; see below) */
    uint64_t full;          /* ... and the table's bucket count - 1 */
    uint64_t evicted;       /* current entries evicted since the last growth */
    size_t bytes;
    char owner[96];         /* the game:variant whose positions it holds: keys
                               of different board sizes collide */
    uint32_t gen;           /* the current generation */
    unsigned age;           /* the current search (tt_new_search), mod 8 */
    uint64_t mix;           /* ... as mixed into the check words */
} tt_t;

typedef struct tt_hit {
    val_t lo, hi;           /* bounds; -VAL_INF / VAL_INF when absent */
    move_t move;            /* MOVE_NONE if none */
    int work;               /* log2 of nodes spent, roughly */
} tt_hit_t;

/* Allocate a table of at most mb megabytes (at least one bucket). */
int tt_init(tt_t *t, size_t mb, err_t *err);
/* Zeroed memory for a big table (huge pages from 4 MB; GSW_HUGEPAGES=0|1
 * overrides), its pages mapped as they are first written; NULL when it
 * cannot be had. Every search's table comes from here. */
void *table_map(size_t bytes);
void table_unmap(void *p, size_t bytes);
/* Zero a table from table_map (lazily: see tt.c). */
void table_zero(void *p, size_t bytes);
/* A table's owner is the "game:variant" (at most n - 1 bytes) whose positions
 * it holds: keys of different variants collide. Make v the owner; returns 1
 * when the table held another variant's positions (the caller clears it). */
int table_claim(char *owner, size_t n, const gv_t *v);
void tt_free(tt_t *t);
void tt_clear(tt_t *t);
/* A new search begins: the entries of earlier ones stay valid but are the
 * first to go when a bucket is full, and only this search's evictions count
 * toward opening the whole table (a batch of small searches keeps to the
 * first buckets). */
static inline void tt_new_search(tt_t *t)
{
    t->age = (t->age + 1) & 7;
    t->evicted = 0;
}
/* Make the table v's: cleared when it held another variant's positions. */
void tt_claim(tt_t *t, const gv_t *v);

#define TT_BUCKET 4
#define TT_NOMOVE 0xffffu

#define TT_WORK_MAX 63
#define TT_GEN_SHIFT 54
#define TT_GENS 64

static inline uint64_t tt_pack(const tt_t *t, val_t lo, val_t hi, move_t m, int work)
{
    if (work > TT_WORK_MAX) work = TT_WORK_MAX;
    return (uint64_t)(uint16_t)(int16_t)lo | (uint64_t)(uint16_t)(int16_t)hi << 16
         | (uint64_t)(m == MOVE_NONE ? TT_NOMOVE : (uint16_t)m) << 32
         | (uint64_t)(work < 0 ? 0 : work) << 48 | (uint64_t)(t->gen & (TT_GENS - 1)) << TT_GEN_SHIFT
         | (uint64_t)(t->age & 7) << 60;
}

/* Does data word d belong to t's current generation? */
static inline int tt_current(const tt_t *t, uint64_t d) { return (unsigned)(d >> TT_GEN_SHIFT & (TT_GENS - 1)) == (t->gen & (TT_GENS - 1)); }
static inline int tt_work(uint64_t d) { return (int)(d >> 48 & TT_WORK_MAX); }

/* key's bucket index among mask + 1 buckets: multiply-shift spreads
 * structured keys (bitboards) over them */
static inline uint64_t tt_index(uint64_t key, uint64_t mask) { return (key * 0x9E3779B97F4A7C15ull >> 20) & mask; }

static inline tt_entry_t *tt_bucket(const tt_t *t, uint64_t key)
{
    return t->e + tt_index(key, __atomic_load_n(&t->mask, __ATOMIC_RELAXED)) * TT_BUCKET;
}

/* A store evicted a current entry: the table grows when the buckets in use
 * are short (tt.c). */
void tt_note_eviction(tt_t *t);

static inline void tt_prefetch(const tt_t *t, uint64_t key)
{
    __builtin_prefetch(tt_bucket(t, key));
}

/* Look key up; returns 1 and fills *h when present. */
static inline int tt_probe(const tt_t *t, uint64_t key, tt_hit_t *h)
{
    tt_entry_t *b = tt_bucket(t, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t c = __atomic_load_n(&b[i].check, __ATOMIC_RELAXED);
        uint64_t d = __atomic_load_n(&b[i].data, __ATOMIC_RELAXED);
        if ((c ^ d) == (key ^ t->mix) && d) {
            h->lo = (int16_t)(d & 0xffff);
            h->hi = (int16_t)(d >> 16 & 0xffff);
            uint16_t m = (uint16_t)(d >> 32);
            h->move = m == TT_NOMOVE ? MOVE_NONE : m;
            h->work = tt_work(d);
            return 1;
        }
    }
    return 0;
}

/* Store bounds for key, replacing the same key, an empty entry or one of
 * another generation, else the entry with least work. The caller merges
 * with what it probed (bounds only tighten). */
static inline void tt_store(tt_t *t, uint64_t key, val_t lo, val_t hi, move_t m, int work)
{
    tt_entry_t *b = tt_bucket(t, key);
    /* Each slot's score, the least goes: a free one (empty, the same key,
     * another generation's) scores below zero, the first lowest; then an
     * earlier search's entry (or a heuristic one) by its work; then this
     * search's. Computed for all four without branching on them: where
     * the buckets are full (a batch of searches sharing the table) the
     * exits from the loop were mispredicted (Test_L1_R1 as one batch without
     * --clear-hash, farm-bench medians of 9: 179 -> 172 ms). */
    int victim = 0, least = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t c = __atomic_load_n(&b[i].check, __ATOMIC_RELAXED);
        uint64_t d = __atomic_load_n(&b[i].data, __ATOMIC_RELAXED);
        int w = tt_work(d) + ((d >> 60) == (t->age & 7) ? 256 : 0);
        if (!d || (c ^ d) == (key ^ t->mix) || !tt_current(t, d)) w = i - TT_BUCKET;
        if (w < least) { least = w; victim = i; }
    }
    if (least >= 256 && t->mask != t->full) tt_note_eviction(t);
    uint64_t d = tt_pack(t, lo, hi, m, work);
    __atomic_store_n(&b[victim].check, key ^ d ^ t->mix, __ATOMIC_RELAXED);
    __atomic_store_n(&b[victim].data, d, __ATOMIC_RELAXED);
}

/* Heuristic entries (ab_think) share the table with the exact searches but
 * must never be seen by them: their bounds are on heuristic scores, not
 * proven values. Their keys are the position's key XOR a salt (an exact
 * search's key meets one only by a 64-bit collision), and their data words
 * carry TT_HEUR_FLAG and the search's generation (0..7) in bits 60-62; the
 * work field is the depth searched (at most 63). Bounds are val_t (node-relative, no re-basing)
 * in [-VAL_WIN, VAL_WIN], which int16 holds. */
#define TT_HEUR_SALT 0x9d3a6b1f52c8e407ull
#define TT_HEUR_FLAG (1ull << 63)
static inline uint64_t tt_heur_key(uint64_t key) { return key ^ TT_HEUR_SALT; }

/* Store a heuristic entry for a salted key: bounds [lo, hi] at depth (0 for
 * quiescence), best move m (MOVE_NONE keeps the entry's move for the same
 * key), generation gen (0..7). Replacement prefers depth: an entry of the
 * same key and generation from a search 3 or more plies deeper stays unless
 * the new one is exact; otherwise the same key, an empty slot, an entry of
 * another generation (another search's: shallowest first), else the
 * shallowest entry goes. */
static inline void tt_store_heur(tt_t *t, uint64_t key, val_t lo, val_t hi, move_t m, int depth, unsigned gen)
{
    tt_entry_t *b = tt_bucket(t, key);
    int victim = 0, least = INT32_MAX;
    if (depth < 0) depth = 0;
    if (depth > TT_WORK_MAX) depth = TT_WORK_MAX;
    gen &= 7;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t c = __atomic_load_n(&b[i].check, __ATOMIC_RELAXED);
        uint64_t d = __atomic_load_n(&b[i].data, __ATOMIC_RELAXED);
        if (!d || !tt_current(t, d)) { victim = i; least = -1; break; }
        int w = tt_work(d);
        int current = !(d & TT_HEUR_FLAG) || (unsigned)(d >> 60 & 7) == gen;
        if ((c ^ d) == (key ^ t->mix)) {
            if (current && w >= depth + 3 && lo != hi) return;   /* a deeper search's result stays */
            if (m == MOVE_NONE && (uint16_t)(d >> 32) != TT_NOMOVE) m = (uint16_t)(d >> 32);
            victim = i;
            least = -1;
            break;
        }
        int score = current ? w + 256 : w;   /* another search's entries go first */
        if (score < least) { least = score; victim = i; }
    }
    /* a current entry goes: the buckets in use may be short */
    if (least >= 256 && t->mask != t->full) tt_note_eviction(t);
    uint64_t d = (tt_pack(t, lo, hi, m, depth) & ~(7ull << 60)) | TT_HEUR_FLAG | (uint64_t)gen << 60;
    __atomic_store_n(&b[victim].check, key ^ d ^ t->mix, __ATOMIC_RELAXED);
    __atomic_store_n(&b[victim].data, d, __ATOMIC_RELAXED);
}

#endif

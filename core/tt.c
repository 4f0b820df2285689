/* Allocation of the transposition table (see tt.h for the entry layout). */
#include "core/tt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *table_map(size_t bytes)
{
    /* Huge pages (2 MB) cut the TLB misses of random probes; the mapping
     * is aligned to them and advised before the first touch. */
    size_t huge = 2u << 20, len = bytes + (bytes >= huge ? huge : 0);
    char *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    char *p = raw;
    if (len > bytes) {   /* trim to a 2 MB boundary */
        uintptr_t u = (uintptr_t)raw, a = (u + huge - 1) & ~(uintptr_t)(huge - 1);
        p = (char *)a;
        if (a > u) munmap(raw, a - u);
        if (a - u < huge) munmap(p + bytes, huge - (a - u));
    }
    int hugepages = bytes >= (4u << 20);
#ifdef MADV_HUGEPAGE
    /* From 4 MB. With the pages faulted in as the search first writes them
     * (below), 4 KB pages cost two faults each (the read maps the zero
     * page, the write copies it): a 64 MB table's 16,384 pages were most of
     * a short batch. 2 MB pages need 32 faults: Test_L2_R1 (1000 lines,
     * --hash 64 --no-cache) 104 -> 44 ms, Test_L3_R1 32 -> 13 ms, Test_L1_R1
     * 387 -> 312 ms (farm-bench medians of 8-10). Getting a 2 MB page can
     * stall on a fragmented machine (Test_L3_R1: 57 ms once in 10 runs).
     * GSW_HUGEPAGES=0|1 overrides. */
    if (getenv("GSW_HUGEPAGES")) hugepages = atoi(getenv("GSW_HUGEPAGES")) != 0;
    if (hugepages) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    /* Nothing is touched here: populating 64 MB before the first search
     * cost 26 ms of a 28 ms start-up (perf stat -r 10, a one-line batch,
     * --hash 64 --no-cache), about what a 1000-position batch of end-game
     * positions (Test_L3_R1) spends in all once the pages come in as the
     * search writes them (30 ms). A thread mapping them in beside the
     * search (MADV_POPULATE_WRITE) made that batch slower, 48 ms: it
     * contends with the search's own faults. */
    return p;
}

void table_zero(void *p, size_t bytes)
{
    /* Lazy clearing: the pages go back to the kernel and read as zero
     * again, each mapped anew on its next write. The cost follows the pages
     * a search used, not the table's size (a memset of 1 GB is 0.2 s, and
     * it made every page resident again). */
    if (!p || !bytes) return;
#ifdef MADV_DONTNEED
    if (!madvise(p, bytes, MADV_DONTNEED)) return;
#endif
    memset(p, 0, bytes);
}

void table_unmap(void *p, size_t bytes)
{
    if (p) munmap(p, bytes);
}

/* A table starts on its first 8 MB (or all of a smaller one) and opens the
 * whole table once stores have evicted as many current entries as an
 * eighth of those first buckets hold (tt_note_eviction). A search of a few
 * thousand nodes then keeps its entries in the cache (and faults in no more
 * pages than it needs), where the same entries spread over 64 MB missed the
 * cache on each first touch; a big search takes the whole table within its
 * first million nodes or so. */
#define TT_START_BUCKETS ((8u << 20) / (TT_BUCKET * sizeof(tt_entry_t)))
static uint64_t tt_start_mask(const tt_t *t) { return TT_START_BUCKETS <= t->full ? TT_START_BUCKETS - 1 : t->full; }

int tt_init(tt_t *t, size_t mb, err_t *err)
{
    t->owner[0] = 0;
    t->gen = 0;
    t->age = 0;
    t->mix = 0;
    size_t want = mb * 1024 * 1024 / (sizeof(tt_entry_t) * TT_BUCKET);
    uint64_t buckets = 1;
    while (buckets * 2 <= want) buckets *= 2;
    t->bytes = buckets * TT_BUCKET * sizeof(tt_entry_t);
    t->e = table_map(t->bytes);
    if (!t->e) return err_set(err, GSW_EFAIL, "cannot allocate a %zu MB transposition table", mb);
    t->full = buckets - 1;
    t->mask = tt_start_mask(t);
    t->evicted = 0;
    return GSW_OK;
}

void tt_note_eviction(tt_t *t)
{
    uint64_t m = __atomic_load_n(&t->mask, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&t->evicted, 1, __ATOMIC_RELAXED) != (m + 1) * TT_BUCKET / 8 || m == t->full) return;
    /* The whole table opens at once (other threads store where the entries
     * belong from now on); then one thread, the one whose count met the
     * threshold, moves every entry of the first buckets to its bucket in
     * the whole table (the check word gives its key back), where a slot is
     * free. Meanwhile an entry not yet moved is missed, and a torn move
     * reads as a miss. */
    const uint64_t full = t->full;
    __atomic_store_n(&t->mask, full, __ATOMIC_RELAXED);
    for (uint64_t i = 0; i <= m; i++) {
        tt_entry_t *b = t->e + i * TT_BUCKET;
        for (int s = 0; s < TT_BUCKET; s++) {
            uint64_t c = __atomic_load_n(&b[s].check, __ATOMIC_RELAXED);
            uint64_t d = __atomic_load_n(&b[s].data, __ATOMIC_RELAXED);
            if (!d || !tt_current(t, d)) continue;
            uint64_t j = tt_index(c ^ d ^ t->mix, full);
            if (j == i) continue;
            tt_entry_t *nb = t->e + j * TT_BUCKET;
            for (int k = 0; k < TT_BUCKET; k++) {
                uint64_t nd = __atomic_load_n(&nb[k].data, __ATOMIC_RELAXED);
                if (nd && tt_current(t, nd)) continue;
                __atomic_store_n(&nb[k].check, c, __ATOMIC_RELAXED);
                __atomic_store_n(&nb[k].data, d, __ATOMIC_RELAXED);
                break;
            }
            __atomic_store_n(&b[s].data, 0, __ATOMIC_RELAXED);
        }
    }
}

void tt_free(tt_t *t)
{
    table_unmap(t->e, t->bytes);
    t->e = NULL;
}

void tt_clear(tt_t *t)
{
    t->gen++;
    /* a new start: back to the first buckets */
    t->mask = tt_start_mask(t);
    t->evicted = 0;
    /* keys must not meet their old entries again: on the count's wrap the
     * memory goes (every 2^32 clears) */
    if (!t->gen) table_zero(t->e, t->bytes);
    t->mix = t->gen * 0x9E3779B97F4A7C15ull;
}

int table_claim(char *owner, size_t n, const gv_t *v)
{
    /* every solve claims its table: compare without formatting the spec */
    size_t g = strlen(v->game->name);
    if (!strncmp(owner, v->game->name, g) && owner[g] == ':' && !strcmp(owner + g + 1, v->name))
        return 0;
    char spec[256];
    game_spec(v, spec, n < sizeof spec ? n : sizeof spec);   /* truncated as the owner was */
    if (!strcmp(spec, owner)) return 0;
    int held = owner[0] != 0;
    memcpy(owner, spec, strlen(spec) + 1);   /* fits: game_spec wrote at most n - 1 */
    return held;
}

void tt_claim(tt_t *t, const gv_t *v)
{
    if (table_claim(t->owner, sizeof t->owner, v)) tt_clear(t);
}

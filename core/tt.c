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
     * is aligned to them and advised before the first touch, which then
     * populates it (anonymous pages read as zero: nothing to clear). */
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
#ifdef MADV_HUGEPAGE
    /* from 256 MB. Smaller tables gain too (64 MB: Test_L1_R1 with
     * --clear-hash 394 -> 372 us per position, start-up usually 30 -> 15 ms),
     * but getting the 2 MB pages sometimes stalls the start (a 1000-line
     * batch: 41 ms usually, 190 ms once in four runs, against a steady 64 ms
     * with 4 KB pages), which a short run cannot win back.
     * GSW_HUGEPAGES=0|1 overrides. */
    if (getenv("GSW_HUGEPAGES") ? atoi(getenv("GSW_HUGEPAGES")) : bytes >= (256u << 20))
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    /* resident now, not page by page inside the first searches */
#ifdef MADV_POPULATE_WRITE
    if (madvise(p, bytes, MADV_POPULATE_WRITE))
#endif
        memset(p, 0, bytes);
    return p;
}

void table_unmap(void *p, size_t bytes)
{
    if (p) munmap(p, bytes);
}

int tt_init(tt_t *t, size_t mb, err_t *err)
{
    t->owner[0] = 0;
    size_t want = mb * 1024 * 1024 / (sizeof(tt_entry_t) * TT_BUCKET);
    uint64_t buckets = 1;
    while (buckets * 2 <= want) buckets *= 2;
    t->bytes = buckets * TT_BUCKET * sizeof(tt_entry_t);
    t->e = table_map(t->bytes);
    if (!t->e) return err_set(err, GSW_EFAIL, "cannot allocate a %zu MB transposition table", mb);
    t->mask = buckets - 1;
    return GSW_OK;
}

void tt_free(tt_t *t)
{
    table_unmap(t->e, t->bytes);
    t->e = NULL;
}

void tt_clear(tt_t *t)
{
    memset(t->e, 0, t->bytes);
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

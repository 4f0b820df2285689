/* Allocation of the transposition table (see tt.h for the entry layout). */
#include "core/tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int tt_init(tt_t *t, size_t mb, err_t *err)
{
    t->owner[0] = 0;
    size_t want = mb * 1024 * 1024 / (sizeof(tt_entry_t) * TT_BUCKET);
    uint64_t buckets = 1;
    while (buckets * 2 <= want) buckets *= 2;
    t->bytes = buckets * TT_BUCKET * sizeof(tt_entry_t);
    /* Huge pages (2 MB) cut the TLB misses of random probes; the mapping
     * is aligned to them and advised before the first touch, which then
     * populates it (anonymous pages read as zero: nothing to clear). */
    size_t huge = 2u << 20, len = t->bytes + (t->bytes >= huge ? huge : 0);
    char *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return err_set(err, GSW_EFAIL, "cannot allocate a %zu MB transposition table", mb);
    char *p = raw;
    if (len > t->bytes) {   /* trim to a 2 MB boundary */
        uintptr_t u = (uintptr_t)raw, a = (u + huge - 1) & ~(uintptr_t)(huge - 1);
        p = (char *)a;
        if (a > u) munmap(raw, a - u);
        if (a - u < huge) munmap(p + t->bytes, huge - (a - u));
    }
#ifdef MADV_HUGEPAGE
    /* only for big tables: on a small one the kernel's compaction at the
     * first touch costs more than the TLB misses it saves (80 MB: 0.3 s) */
    if (getenv("GSW_HUGEPAGES") ? atoi(getenv("GSW_HUGEPAGES")) : t->bytes >= (256u << 20))
        madvise(p, t->bytes, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    if (madvise(p, t->bytes, MADV_POPULATE_WRITE))
#endif
        memset(p, 0, t->bytes);
    t->e = (tt_entry_t *)p;
    t->mask = buckets - 1;
    return GSW_OK;
}

void tt_free(tt_t *t)
{
    if (t->e) munmap(t->e, t->bytes);
    t->e = NULL;
}

void tt_clear(tt_t *t)
{
    memset(t->e, 0, t->bytes);
}

void tt_claim(tt_t *t, const gv_t *v)
{
    char spec[sizeof t->owner];
    game_spec(v, spec, sizeof spec);
    if (strcmp(spec, t->owner)) {
        if (t->owner[0]) tt_clear(t);
        memcpy(t->owner, spec, sizeof spec);
    }
}

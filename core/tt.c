/* Allocation of the transposition table (see tt.h for the entry layout). */
#include "core/tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int tt_init(tt_t *t, size_t mb, err_t *err)
{
    size_t want = mb * 1024 * 1024 / (sizeof(tt_entry_t) * TT_BUCKET);
    uint64_t buckets = 1;
    while (buckets * 2 <= want) buckets *= 2;
    t->bytes = buckets * TT_BUCKET * sizeof(tt_entry_t);
    /* 2 MB alignment lets the kernel back the table with huge pages: random
     * probes then miss the TLB far less often */
    size_t align = t->bytes >= (2u << 20) ? (2u << 20) : 64;
    t->e = aligned_alloc(align, t->bytes);
    if (!t->e)
        return err_set(err, GSW_EFAIL, "cannot allocate a %zu MB transposition table", mb);
#ifdef MADV_HUGEPAGE
    if (align > 64) madvise(t->e, t->bytes, MADV_HUGEPAGE);
#endif
    t->mask = buckets - 1;
    tt_clear(t);
    return GSW_OK;
}

void tt_free(tt_t *t)
{
    free(t->e);
    t->e = NULL;
}

void tt_clear(tt_t *t)
{
    memset(t->e, 0, t->bytes);
}

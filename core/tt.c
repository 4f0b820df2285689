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
    /* fresh anonymous pages read as zero: nothing to clear, and pages a
     * short search never touches cost nothing */
    void *p = mmap(NULL, t->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
        return err_set(err, GSW_EFAIL, "cannot allocate a %zu MB transposition table", mb);
#ifdef MADV_HUGEPAGE
    /* huge pages cut TLB misses of random probes in long searches */
    if (getenv("GSW_HUGEPAGES") ? atoi(getenv("GSW_HUGEPAGES")) : t->bytes >= (256u << 20))
        madvise(p, t->bytes, MADV_HUGEPAGE);
#endif
    t->e = p;
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

/* The state file of a genetic-algorithm run (core/evolve.c, gsw tune's
 * state.txt), read from memory with and without its checksum: what reads
 * writes back as text that reads again (checksum and all) to the same text,
 * and a generation bred from it keeps every value in its range. */
#include "tests/fuzz/fuzz_util.h"

#include "core/evolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evo_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) abort();
    err_t err;
    for (int flags = 0; flags < 2; flags++) {
        err.msg[0] = 0;
        if (evo_state_parse((const char *)data, size, a, flags ? EVO_PARSE_NO_SUM : 0, &err)) {
            if (!err.msg[0] || err.code != GSW_EINPUT) abort();   /* a refusal says why */
            continue;
        }
        size_t need = evo_state_format(a, NULL, 0);
        char *t1 = malloc(need + 1), *t2 = malloc(need + 1);
        if (!t1 || !t2) abort();
        if (evo_state_format(a, t1, need + 1) != need) abort();
        if (evo_state_parse(t1, need, b, 0, &err)) abort();
        if (evo_state_format(b, t2, need + 1) != need || memcmp(t1, t2, need)) abort();
        int order[EVO_MAX_POP];
        for (int i = 0; i < b->cfg.n; i++) order[i] = b->cfg.n - 1 - i;
        evo_breed(b, order);
        for (int i = 0; i < b->cfg.n; i++)
            for (int k = 0; k < b->cfg.alleles; k++)
                if (b->pop[i].v[k] < b->cfg.lo || b->pop[i].v[k] > b->cfg.hi) abort();
        free(t1);
        free(t2);
    }
    free(a);
    free(b);
    return 0;
}

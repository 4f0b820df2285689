/* A parallel loop: see pfor.h. */
#include "core/pfor.h"

#include <pthread.h>

typedef struct pfor {
    uint64_t n, chunk, next;   /* next: atomic */
    void (*fn)(void *ctx, int tid, uint64_t a, uint64_t b);
    void *ctx;
} pfor_t;

typedef struct pfor_arg {
    pfor_t *p;
    int tid;
} pfor_arg_t;

static void *pfor_worker(void *arg)
{
    pfor_arg_t *x = arg;
    pfor_t *p = x->p;
    for (;;) {
        uint64_t a = __atomic_fetch_add(&p->next, p->chunk, __ATOMIC_RELAXED);
        if (a >= p->n) break;
        uint64_t b = p->n - a < p->chunk ? p->n : a + p->chunk;
        p->fn(p->ctx, x->tid, a, b);
    }
    return NULL;
}

int gsw_pfor(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, int tid, uint64_t a, uint64_t b),
             void *ctx)
{
    enum { MAXT = 256 };
    if (chunk < 1) chunk = 1;
    if (threads < 1) threads = 1;
    if (threads > MAXT) threads = MAXT;
    if ((uint64_t)threads > (n + chunk - 1) / chunk) threads = (int)((n + chunk - 1) / chunk);
    if (threads < 1) threads = 1;
    pfor_t p = { n, chunk, 0, fn, ctx };
    pthread_t th[MAXT];
    pfor_arg_t args[MAXT];
    int started = 0, rc = 0;
    for (int i = 1; i < threads; i++) {
        args[i] = (pfor_arg_t){ &p, i };
        if (pthread_create(&th[i], NULL, pfor_worker, &args[i])) {
            rc = started ? 0 : -1;
            break;
        }
        started = i;
    }
    args[0] = (pfor_arg_t){ &p, 0 };
    pfor_worker(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    return rc;
}

/* A parallel loop: [0, n) in chunks handed out by one atomic add to
 * `threads` threads (the caller's among them). For the passes around the
 * retrograde engine's phases (sorting, encoding, compressing) that would
 * otherwise run on one thread while the rest wait. */
#ifndef GSW_PFOR_H
#define GSW_PFOR_H

#include <stdint.h>

/* fn(ctx, tid, a, b) for each chunk [a, b), tid in [0, threads). A chunk
 * is `chunk` items (the last may be short). Returns 0, or -1 when no thread
 * could be started beyond the caller's (the loop then ran on it alone). */
int gsw_pfor(int threads, uint64_t n, uint64_t chunk, void (*fn)(void *ctx, int tid, uint64_t a, uint64_t b),
             void *ctx);

#endif

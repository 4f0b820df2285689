/* The messages between ranks (dist/dist_wire.c): the first byte picks the
 * reader (a unit job, a unit's answer, a manager leaf, a tuning game, a
 * game's result), the rest is the message. What a reader accepts is used a
 * little: a job's slices summed, a leaf's line walked. */
#include "tests/fuzz/fuzz_util.h"

#include "dist/dist_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t *b = data + 1;
    size_t n = size - 1;
    err_t err;
    uint64_t sum = 0;
    switch (data[0] % 5) {
    case 0: {
        egdb_unit_job_t job;
        uint64_t *ids;
        if (dist_job_read(b, n, &job, &ids, &err) == GSW_OK) {
            if (job.ns < 1 || job.nneed < 1 || job.nneed > 2) abort();
            if (job.part < 0 || (job.parts > 1 && job.part >= job.parts)) abort();
            for (int i = 0; i < job.ns; i++) sum += job.slice[i];
            free(ids);
        }
        break;
    }
    case 1: {
        dist_done_t m;
        if (dist_done_read(b, n, &m, &err) == GSW_OK && strlen(m.err.msg) >= sizeof m.err.msg) abort();
        break;
    }
    case 2: {
        mg_leaf_t *leaf = malloc(sizeof *leaf);
        if (!leaf) return 0;
        if (dist_leaf_read(b, n, leaf, &err) == GSW_OK)
            for (int i = 0; i < leaf->nline; i++) sum += leaf->line[i];
        free(leaf);
        break;
    }
    case 3: {
        dist_game_t g;
        if (dist_game_read(b, n, &g, &err) == GSW_OK && g.idx < 0) abort();
        break;
    }
    default: {
        dist_result_t r;
        if (dist_result_read(b, n, &r, &err) == GSW_OK && r.idx < 0) abort();
        break;
    }
    }
    volatile uint64_t keep = sum;   /* (the reads are not optimised away) */
    (void)keep;
    return 0;
}

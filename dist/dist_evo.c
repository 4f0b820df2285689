/* Tuning games on several ranks (see dist.h): rank 0 deals each round's
 * games to the workers one at a time and the next to whichever answers
 * first; each worker plays what it gets and sends back the result. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/dist_wire.h"

int dist_evo_farm(void *ctx, evo_game_t *games, int n)
{
    dist_evo_t *de = ctx;
    dist_t *d = de->d;
    int W = dist_size(d) - 1, next = 0, out = 0, stopped = 0;
    err_t err;
    for (int w = 1; w <= W && next < n; w++, next++, out++) {
        dist_game_t m = { .idx = next, .g = games[next] };
        if (dist_send(d, w, DIST_TAG_JOB, &m, sizeof m, &err)) return -1;
    }
    while (out > 0) {
        int src, tag;
        void *b;
        size_t len;
        if (dist_recv(d, -1, &src, &tag, &b, &len, &err)) return -1;
        dist_result_t r;
        int bad = tag != DIST_TAG_DONE || dist_result_read(b, len, &r, &err);
        free(b);
        if (bad) return -1;
        out--;
        if (r.idx < 0 || r.idx >= n) return -1;
        games[r.idx].result = r.result;
        if (r.result < -1 || r.result > 1) stopped = 1;
        if (de->stop && *de->stop) stopped = 1;
        if (!stopped && next < n) {
            dist_game_t m = { .idx = next, .g = games[next] };
            if (dist_send(d, src, DIST_TAG_JOB, &m, sizeof m, &err)) return -1;
            next++;
            out++;
        }
    }
    return stopped || next < n ? -1 : 0;
}

int dist_evo_serve(dist_t *d, evo_game_fn play, void *ctx, err_t *err)
{
    for (;;) {
        int src, tag;
        void *b;
        size_t len;
        if (dist_recv(d, 0, &src, &tag, &b, &len, err)) return err->code;
        if (tag == DIST_TAG_STOP) { free(b); return GSW_OK; }
        dist_game_t m;
        int rc = tag == DIST_TAG_JOB ? dist_game_read(b, len, &m, err) : err_set(err, GSW_EFAIL, "--mpi: tag %d", tag);
        free(b);
        if (rc) return rc;
        dist_result_t r = { .idx = m.idx, .result = play(ctx, 0, &m.g.white, &m.g.black, m.g.seed) };
        if (dist_send(d, 0, DIST_TAG_DONE, &r, sizeof r, err)) return err->code;
    }
}

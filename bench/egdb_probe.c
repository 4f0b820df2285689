/* Endgame-database probe rate: random positions of the slices present in a
 * directory (each side to move), probed through egdb_probe (locate, file,
 * block cache) once cold and then warm, one thread. Prints one line:
 * "positions N cold_ms C cold_per_s R warm_ms W warm_per_s S".
 *
 *   bench_egdb_probe DIR [PIECES] [N] [CACHE_MB]   (defaults: 5 pieces, 2,000,000, 1024) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "solve/egdb.h"

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: bench_egdb_probe DIR [PIECES] [N]\n"); return 2; }
    int pieces = argc > 2 ? atoi(argv[2]) : 5;
    long n = argc > 3 ? atol(argv[3]) : 2000000;
    gv_t *v;
    err_t err;
    egdb_set_t *set;
    egdb_prober_t pr;
    if (game_open("checkers", &v, &err) || egdb_set_open(v, argv[1], &set, &err) ||
        egdb_prober_init(&pr, set, argc > 4 ? (size_t)atol(argv[4]) : 1024, &err)) {
        fprintf(stderr, "bench_egdb_probe: %s\n", err.msg);
        return 1;
    }
    const retro_game_t *rg = v->ops->retro;
    int k = egdb_list(set, RETRO_WLD, NULL, 0);
    uint64_t *ids = malloc((size_t)k * sizeof *ids), *keep = malloc((size_t)k * sizeof *keep);
    egdb_list(set, RETRO_WLD, ids, k);
    int nk = 0;
    for (int i = 0; i < k; i++)
        if (rg->slice_pieces(v, ids[i]) == pieces) keep[nk++] = ids[i];
    if (!nk) { fprintf(stderr, "bench_egdb_probe: no %d-piece slices in %s\n", pieces, argv[1]); return 1; }
    /* the positions first, so only the probes are timed */
    unsigned char *pos = malloc((size_t)n * v->ops->pos_size);
    uint64_t s = 1;
    for (long i = 0; i < n; i++) {
        uint64_t sl = keep[mix(&s) % (uint64_t)nk];
        void *p = pos + (size_t)i * v->ops->pos_size;
        rg->position(v, sl, mix(&s) % rg->slice_size(v, sl), p);
        if (mix(&s) & 1) rg->mirror(v, p);
    }
    double ms[2];
    long found = 0;
    for (int round = 0; round < 2; round++) {
        double t0 = gsw_now_ms();
        for (long i = 0; i < n; i++) {
            val_t lo, hi;
            int g = egdb_probe(&pr, pos + (size_t)i * v->ops->pos_size, &lo, &hi, NULL, &err);
            if (g < 0) { fprintf(stderr, "bench_egdb_probe: %s\n", err.msg); return 1; }
            found += g;
        }
        ms[round] = gsw_now_ms() - t0;
    }
    printf("positions %ld cold_ms %.0f cold_per_s %.0f warm_ms %.0f warm_per_s %.0f found %ld\n", n, ms[0],
           n / ms[0] * 1000, ms[1], n / ms[1] * 1000, found);
    egdb_prober_free(&pr);
    egdb_set_close(set);
    game_close(v);
    free(pos);
    free(ids);
    free(keep);
    return 0;
}

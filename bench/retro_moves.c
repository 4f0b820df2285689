/* Retrograde move generation benchmark: a game's retro children, parents
 * and parents_inside (core/retro.h) over the first N indices of one slice,
 * in index order as the builder's init and propagation read them. Prints
 * ns per position for each and the moves per position, with a checksum of
 * the lists (two builds that agree on it listed the same moves).
 * Usage: bench_retro_moves GAME SLICE [N [WHICH]] (N: default 20,000,000,
 * at most the slice; 0: all of it; WHICH: children, parents or
 * parents_inside, default all three). Built by CMake, never run by ctest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "core/retro.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

typedef int (*list_fn)(const gv_t *, uint64_t, uint64_t, retro_move_t *);

static const char *which;

static void row(const char *name, const gv_t *v, const retro_game_t *rg, list_fn f, uint64_t slice, uint64_t n)
{
    if (which && strcmp(which, name)) return;
    retro_move_t out[RETRO_MAX_MOVES] = { 0 };   /* (a game that never sets sym leaves it 0) */
    uint64_t moves = 0, sum = 0;
    val_t term;
    double t0 = now_ms();
    for (uint64_t i = 0; i < n; i++) {
        int k = f ? f(v, slice, i, out) : rg->children(v, slice, i, out, &term);
        moves += (uint64_t)k;
        for (int j = 0; j < k; j++) sum = sum * 31 + out[j].slice * 7 + out[j].index + ((uint64_t)out[j].sym << 61 ^ (uint64_t)out[j].move << 32 ^ (uint64_t)out[j].conv << 60);
    }
    double ms = now_ms() - t0;
    printf("%-16s %8.1f ns/position %6.2f moves/position checksum %016llx\n", name, ms * 1e6 / (double)n,
           (double)moves / (double)n, (unsigned long long)sum);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_retro_moves GAME SLICE [N]\n");
        return 2;
    }
    gv_t *v;
    err_t err;
    if (game_open(argv[1], &v, &err)) { fprintf(stderr, "%s\n", err.msg); return 2; }
    const retro_game_t *rg = v->ops->retro;
    uint64_t slice;
    if (!rg) { fprintf(stderr, "%s has no retrograde indexing\n", argv[1]); return 2; }
    if (rg->slice_parse(v, argv[2], &slice, &err)) { fprintf(stderr, "%s\n", err.msg); return 2; }
    uint64_t n = argc > 3 ? strtoull(argv[3], NULL, 10) : 20000000, size = rg->slice_size(v, slice);
    if (!n || n > size) n = size;
    which = argc > 4 ? argv[4] : NULL;
    printf("%s %s: %llu of %llu positions\n", argv[1], argv[2], (unsigned long long)n, (unsigned long long)size);
    row("children", v, rg, NULL, slice, n);
    row("parents", v, rg, rg->parents, slice, n);
    if (rg->parents_inside) row("parents_inside", v, rg, rg->parents_inside, slice, n);
    game_close(v);
    return 0;
}

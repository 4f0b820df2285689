/* Checkers engine benchmark: the heuristic alpha-beta (ab_think) from the
 * opening, for a time budget: nodes per second and the depth it completes.
 * Usage: bench_checkers_engine [MS|dDEPTH] [HASH_MB] [POSITION] (defaults:
 * 1000, 64, the start; dDEPTH: to that depth, no time limit). Prints one line: depth, nodes, wall and CPU ms, nodes per
 * CPU second (steadier than per wall second on a shared machine), score and
 * best move. Built by CMake, never run by ctest. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/ab.h"
#include "core/game.h"

int main(int argc, char **argv)
{
    int depth = argc > 1 && argv[1][0] == 'd' ? atoi(argv[1] + 1) : 0;
    double ms = depth ? 0 : argc > 1 ? atof(argv[1]) : 1000;
    size_t mb = argc > 2 ? (size_t)atol(argv[2]) : 64;
    const char *text = argc > 3 ? argv[3] : "";
    err_t err;
    gv_t *v;
    if ((ms <= 0 && depth <= 0) || !mb) {
        fprintf(stderr, "usage: bench_checkers_engine [MS|dDEPTH] [HASH_MB] [POSITION]\n");
        return 2;
    }
    if (game_open("checkers", &v, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, text, pos, &err)) { fprintf(stderr, "%s\n", err.msg); game_close(v); return 2; }
    tt_t tt;
    if (tt_init(&tt, mb, &err)) { fprintf(stderr, "%s\n", err.msg); game_close(v); return 1; }
    ab_options_t o = { .threads = 1, .time_limit_ms = ms, .depth_limit = depth };
    ab_result_t r;
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    if (ab_think(v, &tt, pos, &o, &r, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double cpu = (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6;
    char mv[64] = "-";
    if (r.best != MOVE_NONE) v->ops->move_format(v, pos, r.best, mv, sizeof mv);
    printf("depth %d nodes %llu wall_ms %.0f cpu_ms %.0f nps %.0f score %d best %s\n", r.depth,
           (unsigned long long)r.nodes, r.time_ms, cpu, r.nodes / ((cpu > 0 ? cpu : 1) / 1000.0), r.score, mv);
    tt_free(&tt);
    game_close(v);
    return 0;
}

/* Chess's static evaluations of positions: for each FEN line on stdin,
 * "NET TERMS", the built-in network's value and the evaluation by terms',
 * in centipawns for the side to move (ch_evaluate, as the search calls it
 * at its frontier), or "error: WHY" for a line that is no position.
 * bench/chess_teacher.sh compares them with a teacher's scores.
 * Usage: bench_chess_static < FENS. Built by CMake, never run by ctest. */
#include <stdio.h>
#include <string.h>

#include "games/chess/ch.h"

int main(void)
{
    ch_params_t pp;
    ch_params_default(&pp);
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        ch_pos_t p;
        err_t err;
        if (ch_parse_fen(line, &p, &err)) {
            printf("error: %s\n", err.msg);
            continue;
        }
        pp.net = 1;
        const int32_t net = ch_evaluate(&pp, &p);
        pp.net = 0;
        const int32_t terms = ch_evaluate(&pp, &p);
        printf("%d %d\n", (int)net, (int)terms);
    }
    return ferror(stdin) ? 1 : 0;
}

/* Random legal checkers positions for the solver tests: 2 to max pieces,
 * men and kings of either colour on distinct squares, no man on its own
 * crowning row (Black's men never on 29-32, White's never on 1-4), either
 * side to move, written as a PDN FEN. rnd gives uniform 64-bit numbers. */
#ifndef GSW_TEST_CHECKERS_POSITIONS_H
#define GSW_TEST_CHECKERS_POSITIONS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline void checkers_random_fen(uint64_t (*rnd)(void), int max, char *buf, size_t n)
{
    int pieces = 2 + (int)(rnd() % (uint64_t)(max - 1));
    int used[33] = { 0 };
    char list[2][96] = { "", "" };
    for (int i = 0; i < pieces; i++) {
        int colour = (int)(rnd() % 2), king = rnd() % 3 == 0, sq;
        do sq = 1 + (int)(rnd() % 32);
        while (used[sq] || (!king && (colour == 0 ? sq >= 29 : sq <= 4)));
        used[sq] = 1;
        size_t len = strlen(list[colour]);
        snprintf(list[colour] + len, sizeof list[colour] - len, "%s%s%d", len ? "," : "", king ? "K" : "", sq);
    }
    /* (the length is checked, so GCC does not warn of truncation: 32 pieces fit in 196 bytes) */
    if (snprintf(buf, n, "%c:W%s:B%s", rnd() % 2 ? 'W' : 'B', list[1], list[0]) >= (int)n) buf[0] = 0;
}

#endif

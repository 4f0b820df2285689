/* The heuristic evaluation of a checkers position, for the side to move. */
#include "games/checkers/ck.h"

int32_t ck_evaluate(const ck_pos_t *p)
{
    int s = p->side;
    int men = __builtin_popcount(p->p[s] & ~p->k) - __builtin_popcount(p->p[!s] & ~p->k);
    int kings = __builtin_popcount(p->p[s] & p->k) - __builtin_popcount(p->p[!s] & p->k);
    return 100 * men + 130 * kings;
}

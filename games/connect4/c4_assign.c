/* Connect Four positions as BDD variable assignments: see c4_assign.h. */
#include "games/connect4/c4_assign.h"

#include <string.h>

const char *c4b_encoding_name(c4b_encoding_t e) { return e == C4B_CELLWISE ? "cellwise" : "compressed"; }
const char *c4b_order_name(c4b_order_t o) { return o == C4B_ROW ? "row" : "column"; }

int c4b_encoding_parse(const char *s, c4b_encoding_t *e)
{
    if (!strcmp(s, "compressed")) *e = C4B_COMPRESSED;
    else if (!strcmp(s, "cellwise") || !strcmp(s, "cell-wise")) *e = C4B_CELLWISE;
    else return -1;
    return 0;
}

int c4b_order_parse(const char *s, c4b_order_t *o)
{
    if (!strcmp(s, "column") || !strcmp(s, "columns")) *o = C4B_COLUMN;
    else if (!strcmp(s, "row") || !strcmp(s, "rows")) *o = C4B_ROW;
    else return -1;
    return 0;
}

int c4b_nvars(const c4b_spec_t *s)
{
    return s->enc == C4B_COMPRESSED ? s->w * (s->h + 1) : 2 * s->w * s->h + 1;
}

/* compressed: the variable of cell (c, r), r in 0 .. h (h: the extra row) */
int c4b_cvar(const c4b_spec_t *s, int c, int r)
{
    return s->order == C4B_COLUMN ? c * (s->h + 1) + r : r * s->w + c;
}

/* cell-wise: the variable of "player p's disc on (c, r)"; the side's is 0 */
int c4b_wvar(const c4b_spec_t *s, int c, int r, int p)
{
    int cell = s->order == C4B_COLUMN ? c * s->h + r : r * s->w + c;
    return 1 + 2 * cell + p;
}

void c4b_assign(const c4b_spec_t *s, const int8_t *cells, int ply, uint8_t *bits)
{
    memset(bits, 0, (size_t)c4b_nvars(s));
    for (int c = 0; c < s->w; c++) {
        int n = 0;
        for (int r = 0; r < s->h; r++) {
            int x = cells[c * s->h + r];
            if (!x) break;
            n++;
            if (s->enc == C4B_COMPRESSED) bits[c4b_cvar(s, c, r)] = x == 1;
            else bits[c4b_wvar(s, c, r, x - 1)] = 1;
        }
        if (s->enc == C4B_COMPRESSED) bits[c4b_cvar(s, c, n)] = 1;
    }
    if (s->enc == C4B_CELLWISE) bits[0] = (uint8_t)(ply & 1);
}

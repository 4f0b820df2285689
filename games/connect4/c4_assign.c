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

int c4b_split_max(const c4b_spec_t *s)
{
    if (s->enc != C4B_COMPRESSED || s->order != C4B_COLUMN) return 0;
    return s->h + 1 < C4B_MAX_SPLIT ? s->h + 1 : C4B_MAX_SPLIT;
}

unsigned c4b_part_of(int split, const uint8_t *bits)
{
    unsigned a = 0;
    for (int i = 0; i < split; i++) a |= (unsigned)(bits[i] & 1) << i;
    return a;
}

int c4b_part_next(int h, int split, int ply, unsigned part)
{
    /* The part's bits are the first column's cells 0 .. split - 1. Its
     * highest 1, at t, may be the marker of a column t high (the bits above
     * it are 0): a drop there writes the mover's colour at t (1: the first
     * player) and the marker at t + 1. With no 1, or a taller column, a
     * drop leaves these bits as they are. */
    if (!part) return -1;
    int t = 31 - __builtin_clz(part);
    if (t >= h) return -1;   /* a full column: no drop */
    unsigned q = part & ~(1u << t);
    if (!(ply & 1)) q |= 1u << t;
    if (t + 1 < split) q |= 1u << (t + 1);
    return q == part ? -1 : (int)q;
}

int c4b_part_needs(int h, int split, int ply, unsigned part, int split2, unsigned q)
{
    int n = split < split2 ? split : split2;
    unsigned m = (1u << n) - 1;
    if ((q & m) == (part & m)) return 1;
    int x = c4b_part_next(h, split, ply, part);
    return x >= 0 && (q & m) == ((unsigned)x & m);
}

/* Connect Four positions as BDD variable assignments: the two encodings
 * of c4_bdd.h (compressed, cellwise) in either order. Free of BuDDy, so
 * the BDD solver (c4_bdd.c), the strong solution's lookups (solve/strong.c)
 * and the separate checker (check/) share one encoding.
 *
 *   compressed: one variable per cell plus one extra row. In each column the
 *               lowest empty cell (or the extra row's cell, when the column
 *               is full) is 1, the cells above it 0, and each cell below it
 *               says whose disc it is (1: the first player's). The side to
 *               move follows from the ply.
 *   cellwise:   two variables per cell (a first player's disc there, a
 *               second player's disc there) and one for the side to move
 *               (1: the second player).
 * Variables are numbered, and ordered, column by column (bottom up) or row
 * by row (left to right); cellwise, the side's variable comes first. */
#ifndef GSW_C4_ASSIGN_H
#define GSW_C4_ASSIGN_H

#include <stdint.h>

typedef enum { C4B_COMPRESSED, C4B_CELLWISE } c4b_encoding_t;
typedef enum { C4B_COLUMN, C4B_ROW } c4b_order_t;

typedef struct c4b_spec {
    int w, h;
    c4b_encoding_t enc;
    c4b_order_t order;
    /* The transitions. 0: the compressed encoding in column order walks
     * each set once a ply for every drop together (c4_bdd.c), other
     * encodings and orders take one drop at a time. 1: one drop at a time
     * everywhere (the cross-check; the environment variable GSW_C4B_MOVES=1
     * asks the same of gsw, for before-and-after benchmarks). */
    int per_move;
    /* The walk's memo: the most entries before it is emptied (0: a fifth
     * of the memory given to c4b_open; tests make it small). */
    long memo_cap;
} c4b_spec_t;

const char *c4b_encoding_name(c4b_encoding_t e);
const char *c4b_order_name(c4b_order_t o);
int c4b_encoding_parse(const char *s, c4b_encoding_t *e);
int c4b_order_parse(const char *s, c4b_order_t *o);

/* The number of variables of the encoding. */
int c4b_nvars(const c4b_spec_t *s);
/* compressed: the variable of cell (c, r), r in 0 .. h (h: the extra row);
 * cellwise: the variable of "player p's disc on (c, r)" (the side's is 0). */
int c4b_cvar(const c4b_spec_t *s, int c, int r);
int c4b_wvar(const c4b_spec_t *s, int c, int r, int p);
/* The assignment of a position: cells[c * h + r] is 0 (empty), 1 (the first
 * player's disc) or 2 (the second's), r = 0 the bottom row; ply is the
 * number of discs. bits gets c4b_nvars(s) entries of 0 or 1. Gravity is
 * assumed (no disc above an empty cell). */
void c4b_assign(const c4b_spec_t *s, const int8_t *cells, int ply, uint8_t *bits);

/* Parts: a ply's value sets made and kept as 2^split cofactors on the first
 * split variables, the lowest cells of the first column (compressed
 * encoding, column order only; split <= h + 1). A position's part is its
 * first split bits, variable i as bit i. A drop in another column, or in
 * the first column above those cells, keeps the part; a drop into them
 * leads to one other part at most. */
#define C4B_MAX_SPLIT 6
/* The largest split the spec allows (0: none, another encoding or order). */
int c4b_split_max(const c4b_spec_t *s);
unsigned c4b_part_of(int split, const uint8_t *bits);
/* The part, other than part itself, that the side to move at ply k reaches
 * from part by a drop (-1: none), on a board h high. */
int c4b_part_next(int h, int split, int ply, unsigned part);
/* Does part q of a split into 2^split2 meet part, or the part it leads to
 * at ply k, of a split into 2^split? (The parts of ply k + 1's sets that
 * part of ply k's needs.) */
int c4b_part_needs(int h, int split, int ply, unsigned part, int split2, unsigned q);

#endif

/* Connect Four on BDDs, inside: the engine's state and what c4_bdd.c and
 * c4_walk.c (the one walk a ply) share. Not for other modules. */
#ifndef GSW_C4_BDD_INT_H
#define GSW_C4_BDD_INT_H

#include <bdd.h>
#include <stddef.h>

#include "games/connect4/c4_bdd.h"

struct c4b {
    c4b_spec_t s;
    int nvars, cells;
    BDD *go, *term;             /* by ply, kept or loaded: the positions with no four, with one */
    char *fwd;                  /* by ply: go and term are there */
    BDD (*val)[3];              /* by ply: won, drawn, lost (0 before made: bddfalse is 0) */
    char *made;                 /* by ply: val made or loaded */
    BDD *pre, *post[2];         /* by move (c * h + r): before / after for player p */
    BDD *vars;                  /* cell-wise: the move's variables (a set) */
    BDD *lines[2];              /* by move: player p holds a line through it, less the cell */
    BDD four[2];                /* player p holds four in a line (somewhere) */
    int walks;                  /* compressed encoding in column order: one walk a ply */
    size_t memo_cap;            /* the walk's memo: the most entries */
    long memo_flushes;          /* times it was full and emptied */
    long peak;                  /* the most live nodes seen: after each garbage collection
                                   and at the end of each ply */
    long table;                 /* the largest node table (live, dead and free nodes) */
    struct lmemo *walk;         /* a walk's memo while one runs (freed on an error) */
    BDD *ffref;                 /* from_file's node references while it runs (freed on an error) */
    bddf_t ffset;               /* a set c4b read for itself while it is taken in */
    int ffset_live;             /* (then ffset is freed on an error) */
    int full;                   /* the last guarded call found the node table full */
};

static inline BDD keep(BDD x) { return bdd_addref(x); }
static inline void drop(BDD *x)
{
    if (*x > 1) bdd_delref(*x);
    *x = bddfalse;
}
/* *x = f(...), dropping the old value (f's operands still held) */
static inline void set(BDD *x, BDD v)
{
    v = keep(v);
    drop(x);
    *x = v;
}

/* BuDDy's error hook: back to the guard (c4_bdd.c) with error e */
void c4b_err_handler(int e);

enum { W_DROP, W_UNDROP };
/* every position one drop of player p from S (move W_DROP), or from which
 * one drop of p reaches S (W_UNDROP), within mask; compressed encoding,
 * column order; held */
BDD c4b_walk_all(c4b_t *b, BDD S, int p, int move, BDD mask);
/* free a walk's memo left by a stop half way (b->walk) */
void c4b_walk_free(c4b_t *b);

#endif

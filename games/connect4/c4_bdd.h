/* Connect Four on binary decision diagrams (BuDDy): every position of a ply
 * as one BDD, layer by layer from the empty board (counting), and backwards
 * from the last ply into won, drawn and lost sets (the strong solution).
 *
 * The encodings of a position are c4_assign.h's.
 *
 * BuDDy is one table per process: one c4b_t at a time. */
#ifndef GSW_C4_BDD_H
#define GSW_C4_BDD_H

#include <stdint.h>

#include "core/err.h"
#include "db/bddfile.h"

#include "games/connect4/c4_assign.h"

/* --- the BDD engine (BuDDy) --- */
typedef struct c4b c4b_t;

typedef struct c4b_ply {
    int ply;
    u256_t positions;      /* distinct positions reachable at this ply (ended ones included) */
    u256_t terminal;       /* ... of which the last move made four */
    long nodes;            /* BDD nodes of the ply's set */
    double ms;             /* time for this ply */
} c4b_ply_t;

/* A node table of memory_gb gigabytes at most (BuDDy grows to it, with
 * garbage collection). GSW_EINPUT for a board the encoding cannot hold. */
int c4b_open(c4b_t **out, const c4b_spec_t *s, double memory_gb, err_t *err);
void c4b_close(c4b_t *b);
/* The forward pass: every ply's reachable positions, from the empty board
 * (or from a ply saved before) to the last ply (a full board). */
typedef struct c4b_fwd {
    /* hold every ply's sets for c4b_solve_ply (else each is dropped once
     * the next is made); only from the empty board */
    int keep;
    /* 0: from the empty board; k > 0: go on after ply k (not reported
     * again) from start, its go-on set as saved */
    int from;
    const bddf_t *start;
    /* called after each ply with its figures and its sets as node arrays,
     * counted: go (the positions with no four: the next ply is made from
     * them) and ended (the last move made four). Its error stops the pass.
     * NULL: none. */
    int (*save)(void *ctx, const c4b_ply_t *p, const bddf_t *go, const bddf_t *ended, err_t *err);
    /* called after each ply (after save); may be NULL */
    void (*progress)(void *ctx, const c4b_ply_t *p);
    void *ctx;
} c4b_fwd_t;
/* stop (may be NULL): set to stop; the stop flag set then. GSW_EFAIL when
 * the node table outgrows memory_gb. */
int c4b_forward_run(c4b_t *b, const c4b_fwd_t *o, gsw_flag_t *stop, err_t *err);
/* The same from the empty board, without saving. */
int c4b_forward(c4b_t *b, int keep, void (*progress)(void *ctx, const c4b_ply_t *p), void *ctx,
                gsw_flag_t *stop, err_t *err);
/* The plies (cells + 1: ply 0 to cells); the most live nodes seen so far
 * (after each garbage collection and at the end of each ply); the largest
 * node table (live, dead and free nodes: what memory holds). */
int c4b_plies(const c4b_t *b);
long c4b_peak_nodes(const c4b_t *b);
long c4b_table_nodes(const c4b_t *b);
/* How often the walk's memo was full and emptied (its results made again). */
long c4b_memo_flushes(const c4b_t *b);

/* The strong solution, one ply at a time from the last back: the ply's
 * won, drawn and lost sets (for the side to move; a position whose last
 * move made four is lost) as BDD files. Each ply needs its forward sets
 * (c4b_forward with keep, or c4b_load_forward; dropped once it is solved),
 * and each after the first solved the one after it: solved just before, or
 * loaded with c4b_load_ply. */
enum { C4B_WON, C4B_DRAWN, C4B_LOST };
int c4b_solve_ply(c4b_t *b, int ply, gsw_flag_t *stop, err_t *err);
/* The same with the least held: every set is read just before it is
 * needed and written and dropped as soon as it is made, nothing is kept
 * between plies (so none of c4b_load_ply, c4b_load_forward, c4b_export).
 * load reads ply's set into *f (C4B_LOST and C4B_DRAWN of the ply after,
 * C4B_GO and C4B_ENDED of the ply itself), part -1 the whole set, else
 * that part of the ply after's value sets (stored in 2^next_split parts);
 * save takes each of ply's value sets, counted, whole (part -1) or, with
 * split > 0, as its 2^split parts (c4_assign.h), each part's three sets in
 * turn; a part for which done says 1 is not made again. Either's error
 * stops it. */
enum { C4B_GO = 3, C4B_ENDED = 4 };
typedef struct c4b_solve_io {
    int (*load)(void *ctx, int ply, int set, int part, bddf_t *f, err_t *err);
    int (*save)(void *ctx, int ply, int value, int part, const bddf_t *f, err_t *err);
    int (*done)(void *ctx, int ply, int part);   /* may be NULL */
    void *ctx;
    int split, next_split;
} c4b_solve_io_t;
int c4b_solve_ply_io(c4b_t *b, int ply, const c4b_solve_io_t *io, gsw_flag_t *stop, err_t *err);
/* Hand ply's set (C4B_WON...) over as a node array, counted exactly. */
int c4b_export(c4b_t *b, int ply, int value, bddf_t *out, err_t *err);
/* Take ply's three sets from files (a resumed build). */
int c4b_load_ply(c4b_t *b, int ply, bddf_t sets[3], err_t *err);
/* Take ply's forward sets (go, ended: as c4b_fwd_t's save had them). */
int c4b_load_forward(c4b_t *b, int ply, const bddf_t sets[2], err_t *err);
/* Did the last call stop on a full node table (--memory)? The table is
 * then best closed and opened again before going on. */
int c4b_was_full(const c4b_t *b);
/* Can the spec's plies be made in 2^split parts (0: whole)? GSW_EINPUT
 * with one line saying why not. */
int c4b_split_check(const c4b_spec_t *s, int split, err_t *err);
/* The nodes of ply's set (C4B_WON...); 0 before it is made. */
long c4b_set_nodes(c4b_t *b, int ply, int value);

#endif

/* Retrograde analysis: endgame databases computed backwards from the end of
 * the game. A game that supports them fills a retro_game_t (its slices, the
 * indexing of each slice, moves forward and backward between indexed
 * positions); core/retro.c solves one build unit (a set of slices that reach
 * each other without a conversion) given the values of the slices it exits
 * into, in one of three metrics. Nothing here knows files: solve/egdb_build.c
 * orders the slices, feeds exits from finished files and writes the result. */
#ifndef GSW_RETRO_H
#define GSW_RETRO_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"
#include "core/value.h"

typedef enum { RETRO_WLD = 0, RETRO_DTC, RETRO_DTW } retro_metric_t;
#define RETRO_METRICS 3
const char *retro_metric_name(retro_metric_t m);   /* "wld", "dtc", "dtw" */
int retro_metric_parse(const char *s, retro_metric_t *m);   /* 0 ok, -1 unknown */
struct retro_game;
/* The same in a game's words: distance to win is "dtm" where the game
 * ends in mate (retro_game_t.mate_metric). */
const char *retro_game_metric_name(const struct retro_game *rg, retro_metric_t m);
int retro_game_metric_parse(const struct retro_game *rg, const char *s, retro_metric_t *m);

/* --- what a game supplies (game_ops_t.retro) -------------------------------
 * A slice is a set of positions with a fixed material and the side to move
 * fixed by the game's convention (checkers: Black to move; a White-to-move
 * position is looked up as its colour-reversed image), indexed 0..size-1
 * without gaps. Slice ids are the game's own 64-bit numbers. */
#define RETRO_MAX_MOVES 128      /* most moves of a slice position, either way (three queens: 89) */
#define RETRO_MAX_COUNTS 12      /* most material counts a slice reports */

/* One move between indexed positions. */
typedef struct retro_move {
    uint64_t slice, index;       /* the position after the move (forward) or before it (backward) */
    move_t move;                 /* forward: the game's move from the position asked about */
    uint8_t conv;                /* a conversion (checkers: a capture or a man's move) */
    /* 1: index is of an image of the position under a symmetry the game
     * folds (chess: the board mirrored or turned), so another move of the
     * same list may lead to the same index; 0: the position itself. */
    uint8_t sym;
} retro_move_t;

typedef struct retro_game {
    int max_pieces;              /* the most pieces the indexing covers */
    /* names of the counts slice_material reports, NULL-terminated
     * ("black_kings", "black_men", "white_kings", "white_men"): the first
     * half the side to move's, the second half the other side's */
    const char *const *material_names;
    /* Every slice with exactly `pieces` pieces (any order): their count;
     * out (may be NULL) receives at most max of them. */
    int (*slices)(const gv_t *v, int pieces, uint64_t *out, int max);
    uint64_t (*slice_size)(const gv_t *v, uint64_t slice);
    /* A file-name-safe name that slice_parse reads back ("2K1C-1K.b3w0"). */
    void (*slice_name)(const gv_t *v, uint64_t slice, char *buf, size_t n);
    int (*slice_parse)(const gv_t *v, const char *text, uint64_t *slice, err_t *err);
    /* The slice's material as counts (material_names' order); the count of
     * counts. Slices with equal counts form one material slice (stats). */
    int (*slice_material)(const gv_t *v, uint64_t slice, int *counts);
    int (*slice_pieces)(const gv_t *v, uint64_t slice);
    /* The slices a position of slice can move into (conversions, other
     * sub-slices), without slice itself: their count, at most max. */
    int (*slice_succ)(const gv_t *v, uint64_t slice, uint64_t *out, int max);
    /* The slice and index of pos: 1, or 0 when no slice holds it (too many
     * pieces). *flipped: 1 when the index is of pos's colour-reversed image
     * (its moves then map through the same reversal). */
    int (*locate)(const gv_t *v, const void *pos, uint64_t *slice, uint64_t *index, int *flipped);
    /* Reverse the colours of pos in place (the image a position with the
     * other side to move is indexed as). Optional: shows examples. */
    void (*mirror)(const gv_t *v, void *pos);
    /* The position at index of slice (index < slice_size). */
    void (*position)(const gv_t *v, uint64_t slice, uint64_t index, void *pos);
    /* Forward: every legal move of the position as the position it leads
     * to (located: any slice); their count (0: the game is over there,
     * with *terminal its value for the side to move). */
    int (*children)(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out, val_t *terminal);
    /* Backward: every position (in any slice) with a legal move that is
     * not a capture leading to this one, once per such move; conv set for
     * a man's move. Their count. Where a list holds an entry with sym
     * set, the builder keeps each index of it once (both ways, so the
     * counts of moves and of predecessors agree: a position with two
     * moves to mirror images of one position has one move to its index,
     * and that index one predecessor in it). */
    int (*parents)(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out);
    /* Optional: parents less those the game knows lie in a slice that can
     * never share a build unit with slice (checkers: a man's crowning move,
     * whose parent has a man more and a king less), which a builder would
     * only throw away. NULL: parents. */
    int (*parents_inside)(const gv_t *v, uint64_t slice, uint64_t index, retro_move_t *out);
    /* Optional: 0 when index holds no legal position (an indexing with
     * gaps: chess's). Such an index has no children and no parents, is
     * stored as a draw, and is left out of counts. NULL: every index is
     * a position. */
    int (*legal)(const gv_t *v, uint64_t slice, uint64_t index);
    /* Optional: how many positions index stands for (0: none, not legal).
     * A game that folds symmetry stores one index for a position and its
     * images: counts of positions weigh each index by this. NULL: 1 for
     * every legal index. */
    uint64_t (*weight)(const gv_t *v, uint64_t slice, uint64_t index);
    /* 1: the game ends in mate (chess), so distance to win is distance to
     * mate: the metric is named "dtm" and is the default, slices are
     * endings named by their material, and an ending asked about that is
     * not built yet is built first. */
    int mate_metric;
    /* Optional: the size of the index's last part in slice, where the
     * moves of positions whose indices agree in it (index % low) land
     * close together in the slices they lead to; 0 when no part does so
     * (retro_unit_t.span_low). */
    uint64_t (*index_low)(const gv_t *v, uint64_t slice);
} retro_game_t;

/* --- the engine --------------------------------------------------------
 * Solves one unit of n nodes. Values are kept as retro_val_t: 0 unknown
 * (a draw once solving ends), else a win or a loss with a distance. */
typedef uint16_t retro_val_t;
#define RETRO_UNKNOWN 0
#define RETRO_LOSS_BIT 0x8000u
#define RETRO_MAX_DIST 0x7ffe
static inline retro_val_t retro_win(int d) { return (retro_val_t)(d + 1); }
static inline retro_val_t retro_loss(int d) { return (retro_val_t)(RETRO_LOSS_BIT | (unsigned)(d + 1)); }
static inline int retro_is_win(retro_val_t r) { return r && !(r & RETRO_LOSS_BIT); }
static inline int retro_is_loss(retro_val_t r) { return (r & RETRO_LOSS_BIT) != 0; }
static inline int retro_dist(retro_val_t r) { return (int)(r & 0x7fff) - 1; }
/* Between retro_val_t and val_t (draw <-> 0). */
val_t retro_to_val(retro_val_t r);
retro_val_t retro_from_val(val_t v);

/* What a run measured (retro_unit_t.stats, optional): the wall time of
 * each phase and, per thread, the items it did, the time it worked and
 * the time it waited for the others at the end of each phase (the only
 * wait: chunks are taken with one atomic add, nothing else is locked but
 * the progress report). */
#define RETRO_STATS_THREADS 64
typedef struct retro_stats {
    double init_ms, propagate_ms, check_ms;
    int levels;                  /* propagation levels (distances) */
    uint64_t edges;              /* moves inside the unit */
    uint64_t kept_bytes;         /* of their lists, kept from init for the check */
    int threads;                 /* threads that ran */
    uint64_t items[RETRO_STATS_THREADS];   /* nodes initialised, propagated and checked */
    double busy_ms[RETRO_STATS_THREADS], wait_ms[RETRO_STATS_THREADS];
} retro_stats_t;

/* A unit divided between processes (dist/ supplies one over Open MPI;
 * tests one over threads). Part p solves nodes lo[p] .. lo[p+1]-1 of the
 * unit (lo[0] = 0, lo[parts] = n); moves and preds still name nodes of the
 * whole unit, and a move or a predecessor owned by another part is settled
 * by messages. Every part makes the same collective calls in the same
 * order, so a part that fails still takes part, with *failed set, and all
 * leave together. */
/* The error of a part that stops because another part failed. */
#define RETRO_ANOTHER_PART "another part of this divided unit failed"
typedef struct retro_comm {
    int parts, me;
    const uint64_t *lo;
    void *ctx;
    /* All to all: send[p] (nsend[p] bytes) to part p. *recv (malloc'd, or
     * NULL when nothing came) receives what every part sent here, part by
     * part, rcount[p] bytes from part p. *failed in: this part failed;
     * out: some part did (nothing is exchanged then). 0, or an error of
     * the transport (err). */
    int (*exchange)(void *ctx, void *const *send, const size_t *nsend, void **recv, size_t *rcount, int *failed,
                    err_t *err);
    /* x[0..k-1] becomes its maximum over the parts. */
    int (*max)(void *ctx, int64_t *x, int k, err_t *err);
    /* The check may hold every part's values (2 bytes a node of the unit,
     * one exchange) when that is at most this many bytes; else it asks
     * other parts for the values it needs, block by block (10 bytes a move
     * to another part's node). */
    uint64_t replicate;
} retro_comm_t;

typedef struct retro_unit {
    uint64_t n;                  /* nodes */
    /* NULL: the whole unit is solved here. Else this part's nodes are
     * solved and checked (moves inside other parts by messages), and
     * retro_solve's val receives them only: val[0 .. lo[me+1]-lo[me]-1]. */
    const retro_comm_t *comm;
    /* Divided units: frontier nodes a part propagates between two
     * exchanges (0: 2^20); the check's blocks are as many, rounded to
     * 16384 and at most 65536. Small values test the rounds. */
    uint64_t round;
    int threads;                 /* >= 1 */
    gsw_flag_t *stop;          /* set: give up (GSW_EFAIL, "stopped") */
    void *ctx;
    /* Node's moves inside the unit, as the nodes they lead to, into inside
     * (at most RETRO_MAX_MOVES; a node twice for two moves): their count
     * (< 256), or -1 with err set. With exit_best not NULL, also the best
     * value the side to move gets by leaving the unit, as val_up of the
     * child's value (VAL_WIN + 1 = no exit; a position with no move at all
     * is an exit to its terminal value). Any thread (tid < threads). */
    int (*moves)(void *ctx, int tid, uint64_t node, uint64_t *inside, val_t *exit_best, err_t *err);
    /* The nodes with a move inside the unit to node, once per move, into
     * out (at most RETRO_MAX_MOVES); their count, or -1 with err set. */
    int (*preds)(void *ctx, int tid, uint64_t node, uint64_t *out, err_t *err);
    /* For retro_check (a unit read back from files): 0 when node's value
     * in val agrees with its moves', else an error naming it. */
    int (*check)(void *ctx, int tid, uint64_t node, const retro_val_t *val, err_t *err);
    /* For retro_solve's own check: the name of a node that fails it. */
    void (*describe)(void *ctx, uint64_t node, char *buf, size_t n);
    /* Optional: called now and then with the phase ("init", "propagate",
     * "check"), work done and work in all (never concurrently). */
    void (*progress)(void *ctx, const char *phase, uint64_t done, uint64_t total);
    retro_stats_t *stats;        /* optional: filled by retro_solve */
    /* The most bytes of init's move lists (a byte a node, 2 to 4 a move) kept
     * for retro_solve's check, which then reads them instead of calling
     * moves again; past it, the check lists the moves again. 0: none. */
    uint64_t keep_bytes;
    /* The propagation's settlements gathered in buckets of 2^bucket_bits
     * nodes, then settled bucket by bucket (see core/retro_run.h): 0
     * chooses (units too large for the cache only), < 0 never, > 0 always
     * (tests). Values never depend on it. Not for divided units. */
    int bucket_bits;
    /* Optional, undivided units: the unit as nspans spans of nodes
     * (span_at[0] = 0 < ... <= span_at[nspans] = n; a slice each), a node
     * of span k being its first + high * span_low[k] + low, where the
     * moves of nodes that share low land close together (checkers: where
     * a move lands is decided by the kings of the side not to move, the
     * index's last part). retro_solve's check then goes through the span
     * tile by tile (core/retro.c), so the values it reads stay in the
     * cache. span_low NULL or span_low[k] 0: index order. Values never
     * depend on it. */
    int nspans;
    const uint64_t *span_at, *span_low;
} retro_unit_t;

/* Ask the kernel for huge pages under an allocation of `bytes` at p (a
 * node or value array of a large unit: fewer page faults and TLB misses
 * in the builder's random reads); nothing for small ones, nothing where
 * the kernel has none. */
void retro_huge(void *p, size_t bytes);

/* Solve the unit: val[0..n-1] receives every node's value (shortest win,
 * longest loss, in the distances the exits carry; unknown = draw). Then
 * every node is checked: its value must be what its moves give (the best
 * of its exits, as the moves callback gave them, and of its moves inside
 * the unit, from the values just solved), in full distance; an error
 * names the first node that fails. So a predecessor the preds callback
 * misses, or any fault of the propagation, cannot reach a file. */
int retro_solve(const retro_unit_t *u, retro_val_t *val, err_t *err);
/* The memory a unit of n nodes takes beyond its arrays for the
 * propagation's buckets (retro_unit_t.bucket_bits; 0 when its settlements
 * are settled at once). */
uint64_t retro_bucket_bytes(uint64_t n, int threads, int bucket_bits);
/* The consistency pass of stored values: u->check on every node, on
 * u->threads threads. */
int retro_check(const retro_unit_t *u, const retro_val_t *val, err_t *err);
/* t += s: times and items summed, the largest levels, threads and kept
 * bytes (a build's units, one after another). */
void retro_stats_add(retro_stats_t *t, const retro_stats_t *s);
/* Keeps each node of list[0..n-1] once, in order: the count left (the
 * lists of retro_game_t.parents' note). image[i]: list[i] is the index of
 * an image (retro_move_t.sym); two entries that are not can never be the
 * same node. */
int retro_unique(uint64_t *list, const uint8_t *image, int n);

#endif

/* Single-agent search for one-player puzzles (peg solitaire and the like):
 * depth-first search with a table of positions known to fail, keys folded
 * over the game's symmetries (tt_key), and the game's pruning hooks
 * (puzzle_prune: position classes, pagoda functions) with the reason a
 * position is out of reach. Also the result type of a game's level sweep
 * (counting positions and solutions, fewest moves). */
#ifndef GSW_PUZZLE_H
#define GSW_PUZZLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"

#define PUZZLE_MAX_MOVES 1024

typedef struct puzzle_options {
    gsw_flag_t *stop;      /* set non-zero to stop (Ctrl-C); may be NULL */
    uint64_t node_limit;     /* 0 = none */
    double time_limit_ms;    /* 0 = none */
    size_t table_mb;         /* failed-position table's largest size; 0 = 256 MB (it starts small) */
    int no_prune;            /* 1: ignore puzzle_prune (for tests and comparisons) */
} puzzle_options_t;

typedef struct puzzle_result {
    int solvable;            /* 1 solved, 0 proven impossible, -1 unknown (stopped or budget spent) */
    int nmoves;              /* the solution's moves (jumps), when solvable */
    move_t moves[PUZZLE_MAX_MOVES];
    uint64_t nodes;
    double time_ms;
    char reason[160];        /* why not: the static argument at the root, or the exhaustive search */
} puzzle_result_t;

/* Search for a sequence of moves from pos to the game's goal (puzzle_goal).
 * GSW_OK with r filled (r->solvable -1 when stopped); GSW_EINPUT when the
 * game is not a puzzle (no puzzle_goal). */
int puzzle_solve(const gv_t *v, const void *pos, const puzzle_options_t *o, puzzle_result_t *r, err_t *err);

/* The static verdict alone: 1 if puzzle_prune proves pos out of reach, with
 * the reason (the TUI's hint uses this before searching). */
int puzzle_hopeless(const gv_t *v, const void *pos, char *reason, size_t n);

/* A level sweep (ops->puzzle_sweep): levels are numbered by moves made
 * from the start (jumps, for peg solitaire). */
enum { SWEEP_POSITIONS = 1, SWEEP_SOLUTIONS = 2, SWEEP_MIN_MOVES = 4 };
#define SWEEP_MAX_LEVELS 129
typedef struct puzzle_sweep {
    int what;                        /* SWEEP_* bits (in) */
    gsw_flag_t *stop;              /* (in) may be NULL */
    int levels;                      /* levels filled */
    uint64_t positions[SWEEP_MAX_LEVELS];   /* reachable positions per level */
    uint64_t folded[SWEEP_MAX_LEVELS];      /* ... one per symmetry class */
    int nsym;                        /* symmetries folded (those fixing start and goal) */
    unsigned __int128 solutions;     /* SWEEP_SOLUTIONS: distinct move sequences reaching the goal */
    int min_moves;                   /* SWEEP_MIN_MOVES: fewest chained moves to the goal; -1 none */
    int npath;                       /* a shortest solution (jumps) */
    move_t path[PUZZLE_MAX_MOVES];
    int aborted;
} puzzle_sweep_t;

/* Decimal text of a 128-bit count. */
void puzzle_u128_text(unsigned __int128 x, char *buf, size_t n);

#endif

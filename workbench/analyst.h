/* The analyst: fills a session's analysis of one position — a quick
 * heuristic score for every move, then each move's proven value (cache
 * first) — and finds a heuristic opponent's move. `gsw shell` calls it
 * directly; the TUI runs it on a worker thread over a copy of the position. */
#ifndef GSW_ANALYST_H
#define GSW_ANALYST_H

#include "workbench/session.h"
#include "solve/solver.h"

typedef struct analyst {
    solver_t solver;
    tt_t heur;             /* the heuristic scores' own table: their entries (deep
                              "work", no bounds) would crowd the exact search's out */
    int ready;
} analyst_t;

/* A solver of hash_mb megabytes and threads threads over cache (may be
 * NULL), stopped by *stop. */
int analyst_open(analyst_t *a, gv_t *v, size_t hash_mb, int threads, cache_t *cache, volatile int *stop, err_t *err);
void analyst_close(analyst_t *a);
/* Switch to another game (the table is cleared when the variant changes). */
void analyst_retarget(analyst_t *a, gv_t *v);
/* List pos's moves into an (state unknown). */
void analyst_list(const gv_t *v, const void *pos, analysis_t *an);
/* Heuristic scores for every move, within about budget_ms. */
int analyst_heuristic(analyst_t *a, const void *pos, analysis_t *an, double budget_ms, err_t *err);
/* Prove move i of an (cache first). Returns 1 when stopped before the
 * proof was complete (the bounds proven so far are kept), 0 when done, -1
 * on error. */
int analyst_prove(analyst_t *a, const void *pos, analysis_t *an, int i, err_t *err);
/* Solve the position itself (cache first): its value and a best move,
 * which alone is all a perfect opponent needs; the best move's entry gets
 * the value. Returns 1 when stopped first, 0 done, -1 on error. */
int analyst_root(analyst_t *a, const void *pos, analysis_t *an, err_t *err);
/* What the moves' proven values say of the position itself (for its side
 * to move): at least the best proven lower bound; once every move is
 * bounded (*all), at most the best upper bound. Returns the move with the
 * best lower bound, MOVE_NONE when no move is proven yet. */
move_t analysis_bounds(const analysis_t *an, val_t *lo, val_t *hi, int *all);
/* Is move value x a better choice than y for its mover? A win that comes
 * in time under the move-count rule beats a late one, which beats
 * anything else; then the value (fastest win, slowest loss). */
int analysis_better(const move_value_t *x, const move_value_t *y);
/* The best exact move of an by analysis_better (-1: none exact). */
int analysis_best(const analysis_t *an);
/* The next move of an to prove: the most promising unproven one; -1 none. */
int analyst_next(const analysis_t *an);
/* A heuristic player's move at level 1..9; line[0..nline-1] are the
 * pos_hash of the game's positions before pos, oldest first (the search
 * scores a return to one as the game's rules say: a draw in checkers),
 * NULL / 0 when unknown. */
int analyst_think(analyst_t *a, const void *pos, const uint64_t *line, int nline, int level, move_t *m, err_t *err);

#endif

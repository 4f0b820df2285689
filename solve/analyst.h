/* The analyst: every move of a position valued through the door — an
 * analysis_t filled with a quick heuristic score for every move, then each
 * move's proven value (cache first), the position's own value and best
 * move — and a heuristic opponent's move. The CLI's `analyze` (puzzles),
 * `gsw shell` and the hint, the perfect opponent and the analysis pane
 * call it; the TUI runs it on a worker thread (workbench/worker.h) over a
 * copy of the position. */
#ifndef GSW_ANALYST_H
#define GSW_ANALYST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/game.h"
#include "solve/solver.h"

/* What is known of one move's value, from the mover's side. */
typedef enum { MV_UNKNOWN = 0, MV_HEURISTIC, MV_PROVEN } mv_state_t;
typedef struct move_value {
    move_t move;
    char text[24];         /* in the game's notation */
    mv_state_t state;
    val_t lo, hi;          /* MV_PROVEN: proven bounds (exact when equal) */
    int32_t score;         /* MV_HEURISTIC (and kept after): a search score */
    int depth;
    int from_cache;
    move_t pv[12];         /* MV_HEURISTIC: the search's line, the move first */
    int npv;
    char rule[24];         /* the move ends the game by a rule of play on this line
                              ("threefold repetition", "40-move rule"): its value is
                              that result (MV_PROVEN); "" when it does not */
    uint8_t line_dep;      /* the value rests on the game's line (a rule, or a
                              repetition of one of its positions): true of this game,
                              not of the position, so never stored as the position's */
    uint8_t late;          /* a win the game's move-count rule (count_rule) may draw
                              first: 1 when neither its distance to win nor its distance
                              to conversion fits in the plies the count leaves, 2 when
                              its distance to win does not and no distance to conversion
                              is known; a win that fits is preferred, then a 2, then a 1
                              (analysis_better) */
    uint8_t final;         /* MV_PROVEN with lo < hi: a win or a loss the databases hold
                              without its distance (win/draw/loss files): settled, as an
                              exact value is, since no search is asked to narrow it */
    uint8_t rule_draw;     /* a draw by the move-count rule that is a win (1) or a loss (2)
                              without it (Syzygy's cursed win, blessed loss); conv then
                              orders them as it orders final values */
    int16_t conv;          /* final: the plies to the next conversion keeping the result
                              (source_conversion_plies; -1 unknown): analysis_better
                              prefers the soonest for a win, the latest for a loss */
} move_value_t;

/* The positions of the game's line that a search from an analysed position
 * must treat as drawn: those already played twice since the last move that
 * cannot be undone (a third time ends the game). */
#define ANALYSIS_MAX_LINE 64

typedef struct analysis {
    int heuristic_done;    /* every move has a heuristic score */
    int proven;            /* every move's value is exact (or final: move_value_t) */
    int active;            /* the move being solved now, -1 none */
    int root_done;         /* the position itself was solved: */
    val_t root_lo, root_hi;   /* its value (exact when equal) */
    int root_searched;     /* ... by the book or a search here, not read from the cache: the moves'
                              searches may start below it (a stale row would spread) */
    move_t root_best;      /* a move that achieves it (fastest win, slowest loss) */
    /* one-player puzzles: the root's value is a win when the goal can still
     * be reached (in the jumps of the solution found: not a proven minimum)
     * and a loss when it cannot, with the reason; every move's value is
     * that of the position it leads to */
    int nsol;              /* the solution found from here (moves), capped */
    move_t sol[128];
    char reason[160];      /* why the goal is out of reach */
    uint64_t nodes;
    double ms;
    int spent;             /* the task's budget ran out: nothing more is started for it */
    int twins;             /* moves valued by a proven mirror image, without a search */
    int nrule;             /* moves that end the game by a rule of play (mv[].rule) */
    int root_late;         /* the position's search named a late win (mv[].late): every
                              move is proven and the best in time chosen */
    int n;
    move_value_t mv[GSW_MAX_MOVES];   /* (last: what comes before it is the analysis's head) */
} analysis_t;

/* The analysis's own values (everything but its moves): the head, copied
 * whole when it changes (analysis_head_copy), each move by itself. */
#define ANALYSIS_HEAD_SIZE offsetof(analysis_t, n)
static inline void analysis_head_copy(analysis_t *to, const analysis_t *from)
{
    memcpy(to, from, ANALYSIS_HEAD_SIZE);
}

/* What one analysis asks of the analyst, beside the position: its budget
 * and the game's line. The session that owns the analysis says it
 * (session_task); every solve of the analysis runs under it. */
typedef struct analyst_task {
    double budget_ms;      /* solver time the analysis may spend (0: no limit; lessons set one) */
    /* the game's line (pos_hash): every search of the analysis meets these
     * positions as repetitions (empty for games whose positions never repeat) */
    uint64_t line[ANALYSIS_MAX_LINE];
    int nline;
    int alone;             /* values of the positions alone, not the game's: the move-count
                              rule is not applied (a lesson's published database values);
                              winning moves the rule may draw first are marked late */
    int no_build;          /* answer from what is built: no ending is built for it (the
                              scores of a finished game's history) */
} analyst_task_t;


typedef struct analyst {
    solver_t solver;
    char egdb_dir[1024];   /* the endgame databases' folder ("": beside the cache) */
    tt_t heur;             /* the heuristic scores' own table: their entries (deep
                              "work", no bounds) would crowd the exact search's out */
    int ready;
} analyst_t;

/* A solver of hash_mb megabytes and threads threads over cache (may be
 * NULL) and the endgame databases in egdb_dir (NULL: egdb/ beside the
 * cache), stopped by *stop. */
int analyst_open(analyst_t *a, gv_t *v, size_t hash_mb, int threads, cache_t *cache, const char *egdb_dir,
                 gsw_flag_t *stop, err_t *err);
void analyst_close(analyst_t *a);
/* Switch to another game (the table is cleared when the variant changes). */
void analyst_retarget(analyst_t *a, gv_t *v);
/* List pos's moves into an (state unknown). */
void analyst_list(const gv_t *v, const void *pos, analysis_t *an);
/* Heuristic scores for every move, within about budget_ms. */
int analyst_heuristic(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, double budget_ms,
                      err_t *err);
/* Search heuristic move i of an again for ms, for a deeper score and
 * line (the workbench's best lines, `lines N`); a search that ends
 * shallower than the first keeps the first's. Proven moves are left. */
int analyst_deepen(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, int i, double ms, err_t *err);
/* Prove move i of an (cache first). Returns 1 when stopped before the
 * proof was complete (the bounds proven so far are kept), 0 when done, -1
 * on error. */
int analyst_prove(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, int i, err_t *err);
/* Bounds [clo, chi] of the position a move leads to as the mover's bounds
 * (two players: the other side's value negated, one ply more; a puzzle:
 * the same player's, one ply more). */
void analyst_mover_bounds(const gv_t *v, val_t clo, val_t chi, val_t *lo, val_t *hi);
/* mv proven within [lo, hi], intersected with what it held proven. */
void move_value_intersect(move_value_t *mv, val_t lo, val_t hi);
/* Read every unsettled move's value again from what the sources know now
 * (the cache, databases built since, a proof tree's values): bounds only
 * tighten; no search. */
int analyst_reread(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, err_t *err);
/* Mark an proven when every move's value is settled (exact or final). */
void analysis_settle(analysis_t *an);
/* Solve the position itself (cache first): its value and a best move,
 * which alone is all a perfect opponent needs; the best move's entry gets
 * the value. Returns 1 when stopped first, 0 done, -1 on error. */
int analyst_root(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, err_t *err);
/* What the moves' proven values say of the position itself (for its side
 * to move): at least the best proven lower bound; once every move is
 * bounded (*all), at most the best upper bound. Returns the move with the
 * best lower bound, MOVE_NONE when no move is proven yet. */
move_t analysis_bounds(const analysis_t *an, val_t *lo, val_t *hi, int *all);
/* The one order of moves, best first for the mover, that every list of
 * moves follows (the pane, lessons, hint, `analyze`, the proof browser):
 * wins first, fastest first (a win the databases hold without its
 * distance: the soonest conversion first); then wins the move-count rule
 * may draw first (mv.late: 2, then 1); then unproven moves whose
 * heuristic search found a mate for the mover, fastest first; then a draw
 * or a win not yet settled under the rule; then draws; then unproven
 * moves by their score (unscored last); then a draw or a loss; then
 * unproven moves the heuristic search found mated; then losses, slowest
 * first.
 * Negative when x goes before y, positive after, 0 when they tie. */
int move_value_cmp(const move_value_t *x, const move_value_t *y);
/* Is move value x a better choice than y for its mover (move_value_cmp)? */
int analysis_better(const move_value_t *x, const move_value_t *y);
/* The moves mv[0..n-1] in that order: order[0] the best; ties keep the
 * game's order. */
void move_values_order(const move_value_t *mv, int n, int *order);
/* The best exact move of an by analysis_better (-1: none exact). */
int analysis_best(const analysis_t *an);
/* The next move of an to prove: the most promising unproven one; -1 none. */
int analyst_next(const analysis_t *an);
/* A heuristic player's move at level 1..9; line[0..nline-1] are the
 * pos_hash of the game's positions before pos, oldest first (the search
 * scores a return to one as the game's rules say: a draw in checkers),
 * NULL / 0 when unknown. It thinks for the level's time, or ms where that
 * is less (a game on a clock; 0: the level's). */
int analyst_think(analyst_t *a, const void *pos, const uint64_t *line, int nline, int level, double ms, move_t *m,
                  err_t *err);

#endif

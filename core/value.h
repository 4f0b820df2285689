/* Game values, one encoding everywhere (search, cache, UI).
 * Search works on val_t, a scalar from the side to move: a proven win in d plies
 * is VAL_WIN - d, a proven loss in d plies is -(VAL_WIN - d), a draw is 0, so a
 * larger value is always better and a faster win beats a slower one. Values are
 * node-relative (distance counted from the position itself), so a stored value
 * never needs re-basing. Heuristic scores live in a separate type, hscore_t,
 * and reach val_t only strictly inside (-VAL_PROVEN, VAL_PROVEN). */
#ifndef GSW_VALUE_H
#define GSW_VALUE_H

#include <stdint.h>

typedef int32_t val_t;

#define VAL_WIN 30000         /* a win in 0 plies (never reached: the game is over) */
#define VAL_MAX_PLIES 10000   /* longest distance a value can carry */
#define VAL_PROVEN (VAL_WIN - VAL_MAX_PLIES) /* |v| >= this: proven win/loss */
#define VAL_DRAW 0
#define VAL_INF (VAL_WIN + 1) /* beyond every value: search window edges */

static inline val_t val_win(int plies) { return VAL_WIN - plies; }
static inline val_t val_loss(int plies) { return -(VAL_WIN - plies); }
static inline int val_is_win(val_t v) { return v >= VAL_PROVEN; }
static inline int val_is_loss(val_t v) { return v <= -VAL_PROVEN; }
static inline int val_is_proven_decisive(val_t v) { return val_is_win(v) || val_is_loss(v); }
/* Plies to the end for a proven win or loss (undefined otherwise). */
static inline int val_plies(val_t v) { return v > 0 ? VAL_WIN - v : VAL_WIN + v; }

/* The parent's value given a child's value (the child is one ply deeper,
 * with the other side to move): negate and add one ply to a decisive value. */
static inline val_t val_up(val_t child)
{
    if (child >= VAL_PROVEN) return -child + 1;   /* child wins in d: we lose in d+1 */
    if (child <= -VAL_PROVEN) return -child - 1;  /* child loses in d: we win in d+1 */
    return -child;
}
/* Inverse of val_up for window bounds: the child value c with val_up(c) == p
 * (monotone decreasing, so a parent window (a,b) maps to (val_down(b), val_down(a))). */
static inline val_t val_down(val_t parent)
{
    if (parent >= VAL_INF) return -VAL_INF;
    if (parent <= -VAL_INF) return VAL_INF;
    if (parent >= VAL_PROVEN - 1) return -parent - 1;
    if (parent <= -(VAL_PROVEN - 1)) return -parent + 1;
    return -parent;
}

/* A value as reported to people and stored in the cache. */
typedef enum { OUTCOME_UNKNOWN = 0, OUTCOME_LOSS, OUTCOME_DRAW, OUTCOME_WIN } outcome_t;
typedef enum { BOUND_EXACT = 0, BOUND_LOWER, BOUND_UPPER } bound_t;

typedef struct gvalue {
    outcome_t outcome; /* for the side to move */
    int plies;         /* distance to the end under perfect play; -1 if unknown */
    bound_t bound;     /* EXACT, or the true value is >= (LOWER) / <= (UPPER) this */
} gvalue_t;

/* A heuristic score: never a proof. Positive favours the side to move. */
typedef struct hscore {
    int32_t score;
    int depth;         /* search depth it came from */
} hscore_t;

const char *outcome_name(outcome_t o);   /* "win", "draw", "loss", "unknown" */
const char *bound_name(bound_t b);       /* "exact", "lower", "upper" */
/* Convert a proven val_t (win/loss/draw) to a gvalue_t with the given bound. */
gvalue_t gvalue_from_val(val_t v, bound_t b);
/* Inverse: a gvalue_t (outcome and plies known) back to a val_t. */
val_t gvalue_to_val(gvalue_t g);

#endif

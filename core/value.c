/* Naming and conversion of game values (see value.h for the encoding). */
#include "core/value.h"

const char *outcome_name(outcome_t o)
{
    switch (o) {
    case OUTCOME_WIN: return "win";
    case OUTCOME_DRAW: return "draw";
    case OUTCOME_LOSS: return "loss";
    default: return "unknown";
    }
}

const char *bound_name(bound_t b)
{
    switch (b) {
    case BOUND_LOWER: return "lower";
    case BOUND_UPPER: return "upper";
    default: return "exact";
    }
}

gvalue_t gvalue_from_val(val_t v, bound_t b)
{
    gvalue_t g = { OUTCOME_DRAW, -1, b };
    if (val_is_win(v)) { g.outcome = OUTCOME_WIN; g.plies = val_plies(v); }
    else if (val_is_loss(v)) { g.outcome = OUTCOME_LOSS; g.plies = val_plies(v); }
    else if (v != VAL_DRAW) g.outcome = OUTCOME_UNKNOWN;
    return g;
}

val_t gvalue_to_val(gvalue_t g)
{
    switch (g.outcome) {
    case OUTCOME_WIN: return val_win(g.plies < 0 ? VAL_MAX_PLIES : g.plies);
    case OUTCOME_LOSS: return val_loss(g.plies < 0 ? VAL_MAX_PLIES : g.plies);
    default: return VAL_DRAW;
    }
}

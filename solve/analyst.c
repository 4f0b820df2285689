/* The analyst (see analyst.h). */
#include "solve/analyst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/puzzle.h"
#include "solve/source.h"

/* The endgame databases' folder (NULL: beside the cache). */
static const char *analyst_egdb_dir(const analyst_t *a)
{
    return a->egdb_dir[0] ? a->egdb_dir : NULL;
}

int analyst_open(analyst_t *a, gv_t *v, size_t hash_mb, int threads, cache_t *cache, const char *egdb_dir,
                 gsw_flag_t *stop, err_t *err)
{
    memset(a, 0, sizeof *a);
    snprintf(a->egdb_dir, sizeof a->egdb_dir, "%s", egdb_dir ? egdb_dir : "");
    if (solver_init(&a->solver, v, hash_mb, cache, err)) return err->code;
    if (tt_init(&a->heur, hash_mb / 8 ? hash_mb / 8 : 1, err)) { solver_free(&a->solver); return err->code; }
    if (solver_open_egdb(&a->solver, analyst_egdb_dir(a), source_cache_file(cache), err)) {
        solver_free(&a->solver);
        tt_free(&a->heur);
        return err->code;
    }
    a->solver.ab.threads = threads > 0 ? threads : 1;
    a->solver.ab.stop = stop;
    a->ready = 1;
    return GSW_OK;
}

void analyst_close(analyst_t *a)
{
    if (a->ready) { solver_free(&a->solver); tt_free(&a->heur); }
    a->ready = 0;
}

void analyst_retarget(analyst_t *a, gv_t *v)
{
    solver_retarget(&a->solver, v, analyst_egdb_dir(a), source_cache_file(a->solver.cache));
}

void analyst_list(const gv_t *v, const void *pos, analysis_t *an)
{
    move_t mv[GSW_MAX_MOVES];
    memset(an, 0, sizeof *an);
    an->n = v->ops->moves(v, pos, mv);
    an->active = -1;
    for (int i = 0; i < an->n; i++) {
        an->mv[i].move = mv[i];
        v->ops->move_format(v, pos, mv[i], an->mv[i].text, sizeof an->mv[i].text);
    }
    an->proven = an->n == 0;
}

/* The mover's value of a move from the value of the position it leads to:
 * in a two-player game the other side moves there (negate); in a puzzle the
 * same player goes on (one ply further). */
static val_t mover_value(const gv_t *v, val_t child)
{
    if (v->game->players == 2) return val_up(child);
    return child >= VAL_PROVEN ? child - 1 : child <= -VAL_PROVEN ? child + 1 : child;
}

void analyst_mover_bounds(const gv_t *v, val_t clo, val_t chi, val_t *lo, val_t *hi)
{
    *lo = mover_value(v, v->game->players == 2 ? chi : clo);
    *hi = mover_value(v, v->game->players == 2 ? clo : chi);
}

void move_value_intersect(move_value_t *mv, val_t lo, val_t hi)
{
    if (mv->state == MV_PROVEN) {   /* keep what was known */
        if (mv->lo > lo) lo = mv->lo;
        if (mv->hi < hi) hi = mv->hi;
    }
    mv->state = MV_PROVEN;
    mv->lo = lo;
    mv->hi = hi;
}

/* The solver's terms for a solve of task t's analysis an: the game's line
 * (its positions played twice already: a solve on a line reads no cache
 * row and stores only what holds whatever the line, solve/solver.h), the
 * rule or not, and what is left of the budget (0: no limit). */
static solver_terms_t analyst_terms(const analyst_task_t *t, const analysis_t *an)
{
    double left = t->budget_ms > 0 ? t->budget_ms - an->ms : 0;
    return (solver_terms_t){ .time_ms = left > 0 ? left : 0, .line = t->line, .nline = t->nline, .alone = t->alone,
                             .no_build = t->no_build };
}

/* Does any move's value rest on the game's line? */
static int analysis_line_dep(const analysis_t *an)
{
    for (int k = 0; k < an->n; k++)
        if (an->mv[k].line_dep) return 1;
    return 0;
}

/* A puzzle position solved: its value (a win when the goal can be reached,
 * then r->moves holds a solution), or 1 when stopped first. */
static int puzzle_value(analyst_t *a, const void *pos, puzzle_result_t *r, val_t *value, err_t *err)
{
    puzzle_options_t o = { .stop = a->solver.ab.stop, .table_mb = 64 };
    if (puzzle_solve(a->solver.v, pos, &o, r, err)) return -1;
    if (r->solvable < 0) return 1;
    *value = r->solvable ? val_win(r->nmoves) : val_loss(0);
    return 0;
}

/* A move value's place in the one order (move_value_cmp): its class,
 * higher first, and its key within the class, higher first. */
enum { CLS_LOSS, CLS_OPEN_MATED, CLS_AT_MOST_DRAW, CLS_OPEN, CLS_DRAW, CLS_AT_LEAST_DRAW, CLS_OPEN_MATE, CLS_WIN_LATE,
       CLS_WIN_PERHAPS_LATE, CLS_WIN };
static int mv_class(const move_value_t *m, int64_t *key)
{
    int open = m->state != MV_PROVEN || (m->lo < VAL_DRAW && m->hi > VAL_DRAW);
    if (open) {   /* unproven: by score, unscored last */
        int scored = m->state == MV_HEURISTIC || m->depth > 0;
        *key = scored ? m->score : INT64_MIN;
        /* a mate the heuristic search found (not proven: its pruning may
           err) still goes before a proven draw, and a mate against the
           mover after a proven draw-or-loss: a list that put a proven
           draw (a stalemate) above "~mate in 7" led into the stalemate */
        if (scored && val_is_proven_decisive((val_t)m->score))
            return val_is_win((val_t)m->score) ? CLS_OPEN_MATE : CLS_OPEN_MATED;
        return CLS_OPEN;
    }
    *key = m->lo;   /* fastest win, slowest loss */
    if (m->lo > VAL_DRAW) return m->late == 1 ? CLS_WIN_LATE : m->late == 2 ? CLS_WIN_PERHAPS_LATE : CLS_WIN;
    if (m->hi < VAL_DRAW) return CLS_LOSS;
    if (m->lo == VAL_DRAW && m->hi == VAL_DRAW) {   /* a win without the move-count rule first, a loss last */
        *key = m->rule_draw == 1 ? 1 : m->rule_draw == 2 ? -1 : 0;
        return CLS_DRAW;
    }
    if (m->lo == VAL_DRAW) { *key = m->hi; return CLS_AT_LEAST_DRAW; }   /* a draw or a win: the win's distance */
    return CLS_AT_MOST_DRAW;   /* a draw or a loss */
}

int move_value_cmp(const move_value_t *x, const move_value_t *y)
{
    int64_t kx, ky;
    int cx = mv_class(x, &kx), cy = mv_class(y, &ky);
    if (cx != cy) return cx > cy ? -1 : 1;
    if (kx != ky) return kx > ky ? -1 : 1;
    /* results held without their distance (a draw by the move-count rule that
       is one without it too): by their distance to conversion */
    if (cx == CLS_OPEN || !(x->final || x->rule_draw) || !(y->final || y->rule_draw) || x->conv == y->conv) return 0;
    if (x->lo > VAL_DRAW || x->rule_draw == 1)   /* a win: the soonest conversion first */
        return x->conv >= 0 && (y->conv < 0 || x->conv < y->conv) ? -1 : 1;
    return x->conv > y->conv ? -1 : 1;   /* a loss: the latest first */
}

int analysis_better(const move_value_t *x, const move_value_t *y)
{
    return move_value_cmp(x, y) < 0;
}

void move_values_order(const move_value_t *mv, int n, int *order)
{
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++)   /* insertion: stable, so ties keep the game's order */
        for (int j = i; j > 0 && move_value_cmp(&mv[order[j]], &mv[order[j - 1]]) < 0; j--) {
            int k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
}

/* Is the move's value settled: exact, or final? */
static int mv_settled(const move_value_t *m)
{
    return m->state == MV_PROVEN && (m->lo == m->hi || m->final);
}

int analysis_best(const analysis_t *an)
{
    int b = -1;
    for (int i = 0; i < an->n; i++)
        if (mv_settled(&an->mv[i]) && (b < 0 || analysis_better(&an->mv[i], &an->mv[b]))) b = i;
    return b;
}

/* Mark mv final when its proven value is a win or a loss that the
 * databases (the search's oracle) hold without a distance, with its plies
 * to the next conversion; child is the position it leads to (not over). */
static void analyst_mark_final(analyst_t *a, const void *child, move_value_t *mv)
{
    const gv_t *v = a->solver.v;
    const gsw_oracle_t *o = a->solver.ab.oracle;
    val_t cl, ch;
    if (!o || mv->lo == mv->hi || !(mv->lo > VAL_DRAW || mv->hi < VAL_DRAW)) return;
    if (!o->probe(o->ctx, v, child, &cl, &ch) || cl == ch) return;
    mv->final = 1;
    mv->conv = (int16_t)source_conversion_plies(v, o, child);   /* at most 1 + RETRO_MAX_DIST */
}

/* Mark move i of an final (above) and late when it is a win the game's
 * move-count rule may draw first: the position it leads to has `left`
 * plies before the count draws, and neither the loser's distance to loss
 * nor (from the databases' distance-to-conversion files) its distance to a
 * conversion, which resets the count, fits in them (late 1); late 2 when
 * the distance to win does not fit and no distance to conversion is known
 * (it may still convert in time). A win whose distance is unknown is not
 * marked. Only values of the positions alone (solver_ignore_line, t->alone)
 * are marked: the door's values are the game's already. */
static void analyst_mark_late_on(analyst_t *a, const void *pos, analysis_t *an, int i)
{
    const gv_t *v = a->solver.v;
    const game_ops_t *O = v->ops;
    move_value_t *mv = &an->mv[i];
    mv->late = 0;
    mv->final = 0;
    mv->rule_draw = 0;
    mv->conv = -1;
    if (mv->state != MV_PROVEN || (!a->solver.ab.oracle && !O->pos_reversible)) return;   /* nothing to mark */
    GSW_POSBUF child[GSW_MAX_POS];
    val_t tv;
    memcpy(child, pos, O->pos_size);
    O->play(v, child, mv->move);
    if (O->terminal(v, child, &tv)) return;
    analyst_mark_final(a, child, mv);
    if (solver_counts(&a->solver)) {   /* values under the rule already: none comes late */
        if (mv->lo == VAL_DRAW && mv->hi == VAL_DRAW && !mv->rule[0])
            mv->rule_draw = (uint8_t)solver_rule_draw(&a->solver, child);
        if (mv->rule_draw && a->solver.ab.oracle)   /* (as a win's: the soonest conversion first) */
            mv->conv = (int16_t)source_conversion_plies(v, a->solver.ab.oracle, child);
        return;
    }
    int left = -1, conv;
    if (O->pos_reversible) O->pos_reversible(v, child, &left);
    if (mv->final) {   /* in time if it converts in time */
        if (mv->lo > VAL_DRAW && mv->conv > 1) mv->late = left >= 0 && mv->conv - 1 > left;
        return;
    }
    if (!O->pos_reversible || mv->lo != mv->hi || !val_is_proven_decisive(mv->lo) || mv->lo < VAL_DRAW || mv->rule[0])
        return;
    if (left < 0 || val_plies(mv->lo) - 1 <= left) return;   /* won before the count runs out */
    if (!solver_conversion(&a->solver, child, &conv)) { mv->late = 2; return; }   /* no distance to conversion to tell */
    if (conv <= left) return;   /* the count starts again in time */
    mv->late = 1;
}

static void analyst_mark_late(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, int i)
{
    solver_terms_t terms = { .alone = t->alone };   /* (the databases' oracle counts unless alone) */
    solver_saved_t saved;
    solver_terms_enter(&a->solver, &terms, &saved);
    analyst_mark_late_on(a, pos, an, i);
    solver_terms_leave(&a->solver, &saved);
}

void analysis_settle(analysis_t *an)
{
    int all = 1;
    for (int k = 0; k < an->n; k++) all &= mv_settled(&an->mv[k]);
    an->proven = all;
}

/* A move's heuristic score and line: the heuristic engine's search of the
 * position child it leads to, for ms. */
static int heuristic_search(analyst_t *a, const analyst_task_t *t, const void *child, move_value_t *mv, double ms,
                            err_t *err)
{
    ab_options_t o = { .threads = 1, .depth_limit = 24, .time_limit_ms = ms,
                       .stop = a->solver.ab.stop, .oracle = a->solver.ab.oracle, .count = a->solver.ab.count && !t->alone,
                       .history = t->nline > 0 ? t->line : NULL, .history_len = t->nline };
    ab_result_t r;
    if (ab_think(a->solver.v, &a->heur, child, &o, &r, err)) return err->code;
    if (mv->state == MV_UNKNOWN) mv->state = MV_HEURISTIC;
    mv->score = val_up(r.score);
    mv->depth = r.depth;
    mv->npv = 0;   /* the line: the move, then the search's from the position it leads to */
    mv->pv[mv->npv++] = mv->move;
    for (int k = 0; k < r.pvlen && mv->npv < (int)(sizeof mv->pv / sizeof mv->pv[0]); k++) mv->pv[mv->npv++] = r.pv[k];
    return GSW_OK;
}

int analyst_deepen(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, int i, double ms, err_t *err)
{
    const gv_t *v = a->solver.v;
    move_value_t *mv = &an->mv[i];
    if (mv->state != MV_HEURISTIC || !v->ops->evaluate) return GSW_OK;
    tt_claim(&a->heur, v);
    GSW_POSBUF child[GSW_MAX_POS];
    memcpy(child, pos, v->ops->pos_size);
    v->ops->play(v, child, mv->move);
    move_value_t found = *mv;   /* (a search stopped early keeps what the first pass found) */
    if (heuristic_search(a, t, child, &found, ms, err)) return err->code;
    if (found.depth >= mv->depth) *mv = found;
    return GSW_OK;
}

int analyst_heuristic(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, double budget_ms,
                      err_t *err)
{
    const gv_t *v = a->solver.v;
    const game_ops_t *O = v->ops;
    if (an->n == 0) { an->heuristic_done = an->proven = 1; return GSW_OK; }
    tt_claim(&a->heur, v);
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 0; i < an->n; i++) {
        move_value_t *mv = &an->mv[i];
        if (mv->rule[0]) continue;   /* it ends the game by a rule of play: valued already */
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv->move);
        val_t tv;
        if (O->terminal(v, child, &tv)) {   /* the move ends the game: its value is known */
            mv->state = MV_PROVEN;
            mv->lo = mv->hi = mover_value(v, tv);
            continue;
        }
        if (v->game->players == 2 && mv->state != MV_PROVEN) {   /* what the cache holds comes first, at once */
            answer_t ans;
            solver_terms_t terms = analyst_terms(t, an);
            terms.time_ms = 0;   /* (a lookup: no search to time, and an ending may be built for it) */
            int c = solver_cached_terms(&a->solver, child, &terms, &ans, err);
            if (c < 0) return err->code;
            if (c) {
                mv->state = MV_PROVEN;
                mv->lo = val_up(ans.r.hi);
                mv->hi = val_up(ans.r.lo);
                mv->from_cache = 1;
                analyst_mark_late(a, t, pos, an, i);
                continue;
            }
        }
        if (!O->evaluate || v->game->players != 2) continue;   /* (puzzles are solved, not scored) */
        if (heuristic_search(a, t, child, mv, budget_ms / an->n, err)) return err->code;
        if (a->solver.ab.stop && *a->solver.ab.stop) return GSW_OK;
    }
    an->heuristic_done = 1;
    analysis_settle(an);
    return GSW_OK;
}

int analyst_reread(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, err_t *err)
{
    const gv_t *v = a->solver.v;
    const game_ops_t *O = v->ops;
    if (v->game->players != 2) return GSW_OK;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 0; i < an->n; i++) {
        move_value_t *mv = &an->mv[i];
        if (mv_settled(mv) || mv->rule[0]) continue;
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv->move);
        val_t tv;
        if (O->terminal(v, child, &tv)) continue;
        answer_t ans;
        solver_terms_t terms = analyst_terms(t, an);
        terms.time_ms = 0;   /* (a lookup) */
        int c = solver_cached_terms(&a->solver, child, &terms, &ans, err);
        if (c < 0) return err->code;
        if (!c) continue;
        val_t lo = val_up(ans.r.hi), hi = val_up(ans.r.lo);
        if (mv->state == MV_PROVEN) {   /* bounds only ever tighten */
            if (mv->lo > lo) lo = mv->lo;
            if (mv->hi < hi) hi = mv->hi;
            if (lo > hi || (lo == mv->lo && hi == mv->hi)) continue;
        }
        mv->state = MV_PROVEN;
        mv->lo = lo;
        mv->hi = hi;
        mv->from_cache = 1;
        analyst_mark_late(a, t, pos, an, i);
    }
    analysis_settle(an);
    return GSW_OK;
}

move_t analysis_bounds(const analysis_t *an, val_t *lo, val_t *hi, int *all)
{
    move_t best = MOVE_NONE;
    *lo = *hi = -VAL_WIN + 1;
    *all = an->n > 0;
    for (int k = 0; k < an->n; k++) {
        const move_value_t *m = &an->mv[k];
        if (m->state != MV_PROVEN) { *all = 0; continue; }
        if (m->lo > *lo || best == MOVE_NONE) { if (m->lo > *lo) *lo = m->lo; best = m->move; }
        if (m->hi > *hi) *hi = m->hi;
    }
    if (!*all) *hi = VAL_WIN - 1;
    return best;
}

/* What the moves prove of the position, stored with them (the best move
 * too when the value is exact). */
static int analysis_store_root(analyst_t *a, const void *pos, const analysis_t *an, err_t *err)
{
    val_t lo, hi;
    int all;
    move_t best = analysis_bounds(an, &lo, &hi, &all);
    if (best == MOVE_NONE || analysis_line_dep(an)) return GSW_OK;   /* (values of this game's line) */
    return solver_store(&a->solver, pos, lo, hi, lo == hi ? best : MOVE_NONE, err);
}

/* Run the cached solver within what is left of the analysis's budget; a
 * budget that runs out marks the analysis spent. */
static int analyst_solve(analyst_t *a, const analyst_task_t *t, analysis_t *an, const void *pos, val_t lo, val_t hi,
                         int want_best, answer_t *ans, err_t *err)
{
    solver_terms_t terms = analyst_terms(t, an);
    terms.want_best = want_best;
    if (t->budget_ms > 0 && terms.time_ms <= 0) {   /* nothing started: nothing proven */
        an->spent = 1;
        memset(ans, 0, sizeof *ans);
        ans->r.lo = -VAL_WIN + 1;
        ans->r.hi = VAL_WIN - 1;
        ans->r.best = MOVE_NONE;
        ans->r.aborted = 1;
        return GSW_OK;
    }
    int rc = solver_run_terms(&a->solver, pos, lo, hi, &terms, ans, err);
    if (!rc && ans->r.aborted && t->budget_ms > 0 && !(a->solver.ab.stop && *a->solver.ab.stop)) an->spent = 1;
    return rc;
}

/* A move of an, other than i, already proven exact whose position is the
 * same as child's up to the game's symmetries (equal keys): -1 none. */
static int analysis_twin(const gv_t *v, const void *pos, const analysis_t *an, int i, const void *child)
{
    const game_ops_t *O = v->ops;
    uint8_t key[GSW_MAX_KEY], other[GSW_MAX_KEY];
    size_t klen = O->pos_key(v, child, key, NULL);
    GSW_POSBUF c2[GSW_MAX_POS];
    for (int k = 0; k < an->n; k++) {
        const move_value_t *m = &an->mv[k];
        if (k == i || m->state != MV_PROVEN || m->lo != m->hi) continue;
        memcpy(c2, pos, O->pos_size);
        O->play(v, c2, m->move);
        if (O->pos_key(v, c2, other, NULL) == klen && !memcmp(key, other, klen)) return k;
    }
    return -1;
}

int analyst_prove(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, int i, err_t *err)
{
    const gv_t *v = a->solver.v;
    const game_ops_t *O = v->ops;
    move_value_t *mv = &an->mv[i];
    GSW_POSBUF child[GSW_MAX_POS];
    memcpy(child, pos, O->pos_size);
    O->play(v, child, mv->move);
    /* (on a line that matters, mirror images may differ: each is searched) */
    int twin = t->nline > 0 || an->nrule > 0 ? -1 : analysis_twin(v, pos, an, i, child);
    if (twin >= 0) {   /* its mirror image is proven: the same value, no search */
        mv->state = MV_PROVEN;
        mv->lo = an->mv[twin].lo;
        mv->hi = an->mv[twin].hi;
        mv->from_cache = an->mv[twin].from_cache;
        mv->late = an->mv[twin].late;
        mv->final = an->mv[twin].final;
        mv->rule_draw = an->mv[twin].rule_draw;
        mv->conv = an->mv[twin].conv;
        an->twins++;
        analysis_settle(an);
        return v->game->players == 2 && analysis_store_root(a, pos, an, err) ? -1 : 0;
    }
    if (v->game->players == 1) {   /* a puzzle: can the goal still be reached after the move? */
        static _Thread_local puzzle_result_t r;
        val_t cv;
        if (!O->terminal(v, child, &cv)) {
            an->active = i;
            int rc = puzzle_value(a, child, &r, &cv, err);
            an->active = -1;
            if (rc) return rc;
            an->nodes += r.nodes;
            an->ms += r.time_ms;
        }
        mv->state = MV_PROVEN;
        mv->lo = mv->hi = mover_value(v, cv);
        analysis_settle(an);
        return 0;
    }
    /* what is known of the move already: no move is worth more than the
       position, and a move's bounds proven before (both the mover's view) */
    val_t klo = -VAL_WIN + 1, khi = VAL_WIN - 1;   /* the child's side */
    if (an->root_searched && val_down(an->root_hi) > klo) klo = val_down(an->root_hi);
    if (mv->state == MV_PROVEN) {
        if (val_down(mv->hi) > klo) klo = val_down(mv->hi);
        if (val_down(mv->lo) < khi) khi = val_down(mv->lo);
    }
    answer_t ans;
    an->active = i;
    int rc = analyst_solve(a, t, an, child, klo, khi, 0, &ans, err);
    an->active = -1;
    if (rc) return -1;
    an->nodes += ans.r.nodes;
    an->ms += ans.r.time_ms;
    if (ans.r.aborted && ans.r.lo <= -VAL_WIN + 1 && ans.r.hi >= VAL_WIN - 1) return 1;   /* stopped knowing nothing */
    move_value_intersect(mv, val_up(ans.r.hi), val_up(ans.r.lo));   /* the mover's side */
    mv->from_cache = answer_from(&ans, "cache");
    mv->line_dep |= ans.r.history_dependent && t->nline > 0;
    analyst_mark_late(a, t, pos, an, i);
    analysis_settle(an);
    if (analysis_store_root(a, pos, an, err)) return -1;
    return ans.r.aborted ? 1 : 0;
}

/* Games won by checkmate: where the heuristic scores saw a mate of the
 * side to move within ANALYST_MATE_MOVES, the mate prover proves it (in
 * milliseconds, where the value's search may take long): the position's
 * value and its mating move, stored. 1 when proven, 0 not, -1 error. */
#define ANALYST_MATE_MOVES 4
#define ANALYST_MATE_NODES 2000000
static int analyst_mate(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, err_t *err)
{
    const gv_t *v = a->solver.v;
    if (!v->ops->pos_in_check || v->game->players != 2 || t->nline > 0) return 0;
    int32_t top = -VAL_INF;
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].state == MV_HEURISTIC && an->mv[i].score > top) top = an->mv[i].score;
    /* no scores yet: a short try at a mate in 3 (a tenth of the budget) */
    int moves = an->heuristic_done ? (val_plies(top) + 1) / 2 : 3;
    uint64_t nodes = an->heuristic_done ? ANALYST_MATE_NODES : ANALYST_MATE_NODES / 10;
    if (an->heuristic_done && (!val_is_win(top) || moves > ANALYST_MATE_MOVES)) return 0;
    double left = t->budget_ms > 0 ? t->budget_ms - an->ms : 0;
    if (t->budget_ms > 0 && left <= 0) return 0;
    dfpn_options_t o = { .hash_mb = 16, .node_limit = nodes, .time_limit_ms = left > 0 ? left : 0,
                         .stop = a->solver.ab.stop, .count = a->solver.ab.count && !t->alone };
    proof_tree_t tree;
    memset(&tree, 0, sizeof tree);
    int mate = 0;
    dfpn_result_t r = { 0 };
    err_t e;
    int rc = solver_mate(v, pos, moves, &o, &tree, &mate, &r, &e);
    move_t best = !rc && mate > 0 && tree.n > 1 ? tree.node[1].move : MOVE_NONE;
    proof_tree_free(&tree);
    an->nodes += r.nodes;
    an->ms += r.time_ms;
    if (best == MOVE_NONE) return 0;   /* (not within its budget: the value's search goes on) */
    val_t value = val_win(2 * mate - 1);
    an->root_done = 1;
    an->root_searched = 1;
    an->root_lo = an->root_hi = value;
    an->root_best = best;
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].move == best) {
            an->mv[i].state = MV_PROVEN;
            an->mv[i].lo = an->mv[i].hi = value;
        }
    analysis_settle(an);
    return solver_store(&a->solver, pos, value, value, best, err) ? -1 : 1;
}

int analyst_root(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, err_t *err)
{
    if (an->root_done || an->n == 0) { an->root_done = 1; return 0; }
    /* A move ends the game by a rule of play here (a move-count rule the
     * searches do not count, a repetition), or the position's search named
     * a win that may come too late (root_late): the position's value in
     * this game is the best of its moves', each proven on the line. */
    for (int i; (an->nrule > 0 || an->root_late) && !an->proven && (i = analyst_next(an)) >= 0;) {
        int r = analyst_prove(a, t, pos, an, i, err);
        if (r) return r;
    }
    const gv_t *v = a->solver.v;
    if (v->game->players == 1) {   /* a puzzle: a solution from here, or why there is none */
        static _Thread_local puzzle_result_t r;
        val_t value;
        int rc = puzzle_value(a, pos, &r, &value, err);
        if (rc) return rc;
        an->nodes += r.nodes;
        an->ms += r.time_ms;
        an->root_done = 1;
        an->root_lo = an->root_hi = value;
        an->root_best = r.solvable && r.nmoves > 0 ? r.moves[0] : MOVE_NONE;
        an->nsol = r.solvable ? (r.nmoves < (int)(sizeof an->sol / sizeof an->sol[0]) ? r.nmoves : (int)(sizeof an->sol / sizeof an->sol[0])) : 0;
        memcpy(an->sol, r.moves, (size_t)an->nsol * sizeof an->sol[0]);
        snprintf(an->reason, sizeof an->reason, "%s", r.solvable ? "" : r.reason);
        for (int i = 0; i < an->n; i++) {
            move_value_t *mv = &an->mv[i];
            if (!r.solvable) {   /* out of reach here: after every move too */
                mv->state = MV_PROVEN;
                mv->lo = mv->hi = mover_value(v, val_loss(0));
            } else if (mv->move == an->root_best) {
                mv->state = MV_PROVEN;
                mv->lo = mv->hi = value;
            }
        }
        analysis_settle(an);
        return 0;
    }
    if (an->proven) {   /* every move is settled: the position is worth the best of them */
        int b = analysis_best(an), all;
        an->root_done = 1;
        analysis_bounds(an, &an->root_lo, &an->root_hi, &all);
        an->root_best = an->mv[b].move;
        return 0;
    }
    int mated = analyst_mate(a, t, pos, an, err);
    if (mated) return mated < 0 ? -1 : 0;
    answer_t ans;
    int rc = analyst_solve(a, t, an, pos, -VAL_WIN + 1, VAL_WIN - 1, 1, &ans, err);
    if (rc) return -1;
    an->nodes += ans.r.nodes;
    an->ms += ans.r.time_ms;
    if (ans.r.aborted) return 1;
    an->root_done = 1;
    an->root_searched = !answer_from(&ans, "cache");
    an->root_lo = ans.r.lo;
    an->root_hi = ans.r.hi;
    an->root_best = ans.r.best;
    for (int i = 0; i < an->n && ans.r.lo == ans.r.hi; i++)   /* the best move is worth the position's value */
        if (an->mv[i].move == ans.r.best) {
            an->mv[i].state = MV_PROVEN;
            an->mv[i].lo = an->mv[i].hi = ans.r.lo;
            an->mv[i].line_dep |= ans.r.history_dependent && t->nline > 0;
            analyst_mark_late(a, t, pos, an, i);
            if (an->mv[i].late) an->root_late = 1;
        }
    analysis_settle(an);
    if (an->root_late) {   /* the fastest win may come too late: every move's value, then the best in time */
        an->root_done = 0;
        return analyst_root(a, t, pos, an, err);
    }
    return 0;
}

int analyst_next(const analysis_t *an)
{
    int best = -1;
    for (int i = 0; i < an->n; i++) {
        const move_value_t *m = &an->mv[i];
        if (mv_settled(m)) continue;
        if (best < 0 || (m->state == MV_HEURISTIC && an->mv[best].state == MV_HEURISTIC
                         && m->score > an->mv[best].score))
            best = i;
    }
    return best;
}

int analyst_think(analyst_t *a, const void *pos, const uint64_t *line, int nline, int level, double ms, move_t *m,
                  err_t *err)
{
    const gv_t *v = a->solver.v;
    if (level < 1) level = 1;
    if (level > 9) level = 9;
    ab_options_t o = { .threads = 1, .depth_limit = 2 * level, .time_limit_ms = ms > 0 && ms < 200.0 * level ? ms : 200.0 * level,
                       .stop = a->solver.ab.stop, .history = line, .history_len = line ? nline : 0,
                       .oracle = a->solver.ab.oracle,   /* database positions are proven for the engine too */
                       .count = a->solver.ab.count };
    ab_result_t r;
    tt_claim(&a->heur, v);   /* the heuristic player's own table, as the heuristic scores': its
                                entries would crowd out the exact search's */
    if (ab_think(v, &a->heur, pos, &o, &r, err)) return err->code;
    *m = r.best;
    return GSW_OK;
}

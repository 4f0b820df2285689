/* Annotation of a played game (see annotate.h). */
#include "solve/annotate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void annotate_line_fill(const gv_t *v, const void *const *line, int ply, analysis_t *an, analyst_task_t *t)
{
    const game_ops_t *O = v->ops;
    if (!O->repetition || v->game->players != 2) return;
    int back = O->pos_reversible ? O->pos_reversible(v, line[ply], NULL) : -1;
    int from = back < 0 || back > ply ? 0 : ply - back, n = ply - from + 1;
    uint64_t *h = malloc((size_t)n * sizeof *h);
    if (!h) return;
    for (int i = 0; i < n; i++) h[i] = O->pos_hash(v, line[from + i]);
    for (int i = 0; i < n; i++) {
        int count = 0, first = 1;
        for (int j = 0; j < n; j++)
            if (h[j] == h[i]) {
                count++;
                if (j < i) first = 0;
            }
        if (count >= 2 && first && t->nline < ANALYSIS_MAX_LINE) t->line[t->nline++] = h[i];
    }
    free(h);
    if (!O->line_over) return;
    const void **ln = malloc((size_t)(ply + 2) * sizeof *ln);
    if (!ln) return;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 0; i <= ply; i++) ln[i] = line[i];
    ln[ply + 1] = child;
    for (int k = 0; k < an->n; k++) {
        move_value_t *mv = &an->mv[k];
        val_t tv;
        char why[64] = "";
        memcpy(child, line[ply], O->pos_size);
        O->play(v, child, mv->move);
        if (O->terminal(v, child, &tv) || !O->line_over(v, ln, ply + 2, &tv, why, sizeof why)) continue;
        mv->state = MV_PROVEN;
        mv->lo = mv->hi = val_up(tv);
        mv->line_dep = 1;
        snprintf(mv->rule, sizeof mv->rule, "%s", why[0] ? why : "a rule of play");
        an->nrule++;
    }
    free(ln);
}

static int annotate_stopped(const analyst_t *a)
{
    return a->solver.ab.stop && *a->solver.ab.stop;
}

/* The class of proven bounds: 3 win, 2 draw, 1 loss, 0 open. */
static int annotate_class(val_t lo, val_t hi)
{
    if (lo > VAL_DRAW) return 3;
    if (hi < VAL_DRAW) return 1;
    if (lo >= VAL_DRAW && hi <= VAL_DRAW) return 2;
    return 0;
}

/* Is move value m's engine score searched? */
static int annotate_has_score(const move_value_t *m)
{
    return m->state == MV_HEURISTIC || m->depth > 0;
}

/* The best engine score of an's moves (the position's, for its mover): 0 none. */
static int annotate_best_score(const analysis_t *an, int32_t *score)
{
    int any = 0;
    for (int k = 0; k < an->n; k++)
        if (annotate_has_score(&an->mv[k]) && (!any || an->mv[k].score > *score)) { *score = an->mv[k].score; any = 1; }
    return any;
}

/* What an proves of its position (for its mover): 1 with bounds that say
 * something, 0 none. */
static int annotate_root(const analysis_t *an, val_t *lo, val_t *hi)
{
    if (an->root_done) { *lo = an->root_lo; *hi = an->root_hi; return 1; }
    int all;
    if (analysis_bounds(an, lo, hi, &all) == MOVE_NONE) return 0;
    return *lo > -VAL_WIN + 1 || *hi < VAL_WIN - 1;
}

int annotate_position(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, double ms, err_t *err)
{
    const gv_t *v = a->solver.v;
    if (an->n == 0) {   /* the game is over: its result */
        val_t tv;
        if (v->ops->terminal(v, pos, &tv)) { an->root_done = 1; an->root_lo = an->root_hi = tv; }
        return 0;
    }
    analyst_task_t tk = *t;
    tk.budget_ms = an->ms + ms;
    if (!an->root_done) {
        int r = analyst_root(a, &tk, pos, an, err);
        if (r < 0) return -1;
        if (annotate_stopped(a)) return 1;
    }
    if (!an->root_done && !an->heuristic_done && analyst_heuristic(a, &tk, pos, an, ms / 2, err)) return -1;
    return annotate_stopped(a) ? 1 : 0;
}

/* The index of move m in an; -1 none. */
static int annotate_find(const analysis_t *an, move_t m)
{
    for (int k = 0; k < an->n; k++)
        if (an->mv[k].move == m) return k;
    return -1;
}

void annotate_link(const gv_t *v, analysis_t *an, move_t played, const analysis_t *next)
{
    int gi = annotate_find(an, played);
    if (gi < 0) return;
    move_value_t *mv = &an->mv[gi];
    if (mv->state == MV_PROVEN && (mv->lo == mv->hi || mv->rule[0])) return;
    val_t clo, chi;
    if (annotate_root(next, &clo, &chi)) {
        val_t lo, hi;
        analyst_mover_bounds(v, clo, chi, &lo, &hi);
        move_value_intersect(mv, lo, hi);
        return;
    }
    int32_t sc = 0;
    if (!annotate_has_score(mv) && annotate_best_score(next, &sc)) {   /* the reply's score, turned */
        if (mv->state == MV_UNKNOWN) mv->state = MV_HEURISTIC;
        mv->score = v->game->players == 2 ? -sc : sc;
        mv->depth = 1;
    }
}

/* The mover's value of an's position. */
static void annotate_before(const analysis_t *an, annot_value_t *x)
{
    memset(x, 0, sizeof *x);
    if (annotate_root(an, &x->lo, &x->hi)) x->cls = annotate_class(x->lo, x->hi);
    x->scored = annotate_best_score(an, &x->score);
}

/* Move value m as an annot_value_t. */
static void annotate_move_value(const move_value_t *m, annot_value_t *x)
{
    memset(x, 0, sizeof *x);
    if (m->state == MV_PROVEN) {
        x->lo = m->lo;
        x->hi = m->hi;
        x->cls = annotate_class(m->lo, m->hi);
    }
    x->scored = annotate_has_score(m);
    x->score = m->score;
}

int annotate_only(analyst_t *a, const analyst_task_t *t, const void *pos, analysis_t *an, move_t played, double ms,
                  err_t *err)
{
    int gi = annotate_find(an, played);
    if (gi < 0 || an->n < 2) return 0;
    annot_value_t b, g;
    annotate_before(an, &b);
    annotate_move_value(&an->mv[gi], &g);
    if (!b.cls || g.cls != b.cls) return 0;
    analyst_task_t tk = *t;
    tk.budget_ms = an->ms + ms;
    for (int k = 0; k < an->n; k++) {
        move_value_t *m = &an->mv[k];
        if (k == gi || (m->state == MV_PROVEN && annotate_class(m->lo, m->hi))) {
            if (k != gi && annotate_class(m->lo, m->hi) >= b.cls) return 0;   /* another keeps it */
            continue;
        }
        int r = analyst_prove(a, &tk, pos, an, k, err);
        if (r < 0) return -1;
        if (annotate_stopped(a)) return 1;
        if (an->spent || (m->state == MV_PROVEN && annotate_class(m->lo, m->hi) >= b.cls)) return 0;
    }
    return 0;
}

void annotate_read(const gv_t *v, const void *pos, const analysis_t *an, move_t played, annot_ply_t *out)
{
    memset(out, 0, sizeof *out);
    out->move = played;
    out->nmoves = an->n;
    out->mover = v->ops->pos_turn(v, pos);
    out->mark = "";
    v->ops->move_format(v, pos, played, out->text, sizeof out->text);
    annotate_before(an, &out->before);
    int gi = annotate_find(an, played);
    if (gi >= 0) annotate_move_value(&an->mv[gi], &out->after);
    /* a best move: the best exact one, else the position's solved best,
       else the engine's */
    int bi = analysis_best(an);
    if (bi < 0 && an->root_done && an->root_best != MOVE_NONE) bi = annotate_find(an, an->root_best);
    if (bi < 0)
        for (int k = 0; k < an->n; k++)
            if (annotate_has_score(&an->mv[k]) && (bi < 0 || an->mv[k].score > an->mv[bi].score)) bi = k;
    out->best = bi >= 0 ? an->mv[bi].move : MOVE_NONE;
    if (bi >= 0) {
        snprintf(out->best_text, sizeof out->best_text, "%s", an->mv[bi].text);
        annotate_move_value(&an->mv[bi], &out->best_value);
        if (!out->best_value.cls && out->before.cls && an->mv[bi].move == an->root_best) {
            out->best_value.cls = out->before.cls;   /* the position's best keeps its value */
            out->best_value.lo = out->before.lo;
            out->best_value.hi = out->before.hi;
        }
    }
    int b = out->before.cls, g = out->after.cls;
    if (b && g && g < b) out->mark = b - g == 1 ? "?" : "??";
    else if (b && g == b && an->n > 1) {
        int only = 1;
        for (int k = 0; k < an->n && only; k++) {
            const move_value_t *m = &an->mv[k];
            if (k != gi) only = m->state == MV_PROVEN && annotate_class(m->lo, m->hi) && annotate_class(m->lo, m->hi) < b;
        }
        if (only) out->mark = "!";
    }
}

const char *annotate_class_name(int cls)
{
    static const char *const names[] = { "unknown", "loss", "draw", "win" };
    return names[cls >= 0 && cls <= 3 ? cls : 0];
}

int annotate_mate_game(const gv_t *v)
{
    return v->game->players == 2 && v->ops->pos_in_check != NULL;
}

void annotate_value_text(const gv_t *v, const annot_value_t *x, char *buf, size_t n)
{
    if (x->cls && x->lo == x->hi && x->cls != 2 && val_is_proven_decisive(x->lo)) {
        int plies = val_plies(x->lo);
        if (v->game->players == 1) snprintf(buf, n, "%s", x->cls == 3 ? "solvable" : "dead end");
        else if (!annotate_mate_game(v)) snprintf(buf, n, "%s in %d pl%s", x->cls == 3 ? "win" : "loss", plies, plies == 1 ? "y" : "ies");
        else if (x->cls == 3) snprintf(buf, n, "mate in %d", (plies + 1) / 2);   /* the mover's moves */
        else snprintf(buf, n, "mated in %d", plies / 2 > 0 ? plies / 2 : 1);
    } else if (x->cls) {
        snprintf(buf, n, "%s", annotate_class_name(x->cls));
    } else if (x->scored) {
        int32_t s = x->score, m = s < 0 ? -s : s;
        if (val_is_proven_decisive(s) && annotate_mate_game(v))   /* the engine saw a mate it has not proven */
            snprintf(buf, n, "~%s in %d (engine, not proven)", s > 0 ? "mate" : "mated",
                     s > 0 ? (val_plies(s) + 1) / 2 : (val_plies(s) / 2 > 0 ? val_plies(s) / 2 : 1));
        else if (val_is_proven_decisive(s))   /* ... a result it has not proven */
            snprintf(buf, n, "~%s in %d plies (engine, not proven)", s > 0 ? "win" : "loss", val_plies(s));
        else if (v->game->eval_unit) snprintf(buf, n, "~%c%d.%02d (engine, not proven)", s < 0 ? '-' : '+', m / 100, m % 100);
        else snprintf(buf, n, "~%+d (engine, not proven)", (int)s);
    } else {
        snprintf(buf, n, "unknown");
    }
}

void annotate_summary(const gv_t *v, const annot_ply_t *p, int n, const char (*label)[16], int plies,
                      const char *const names[2], char *buf, size_t len)
{
    size_t used = 0;
    int thrown = 0, proven = 0;
    buf[0] = 0;
#define PUT(...) do { int w_ = snprintf(buf + used, len - used, __VA_ARGS__); \
                      if (w_ > 0) used = used + (size_t)w_ < len ? used + (size_t)w_ : len - 1; } while (0)
    for (int i = 0; i < n; i++) {
        proven += p[i].before.cls && p[i].after.cls;
        if (p[i].mark[0] != '?') continue;
        char num[24], got[64], best[64];
        snprintf(num, sizeof num, "%s", label[i]);
        size_t k = strlen(num);
        while (k && num[k - 1] == '.') num[--k] = 0;   /* "23..." -> "23" */
        annotate_value_text(v, &p[i].after, got, sizeof got);
        PUT("%s%s threw the %s away at %s %s (%s %s%s %s", thrown ? "; " : "", names[p[i].mover & 1],
            annotate_class_name(p[i].before.cls), plies ? "ply" : "move", num, label[i], p[i].text, p[i].mark, got);
        if (p[i].best != MOVE_NONE && p[i].best_value.cls >= p[i].before.cls) {
            annotate_value_text(v, &p[i].best_value, best, sizeof best);
            const char *verb = p[i].best_value.cls == 3 ? "wins" : "draws";
            const char *dist = strstr(best, " in ");   /* "win in 9 plies": "wins in 9 plies" */
            if (!strcmp(best, annotate_class_name(p[i].best_value.cls))) PUT("; %s %s %s)", label[i], p[i].best_text, verb);
            else if (!annotate_mate_game(v) && dist) PUT("; %s %s %s%s)", label[i], p[i].best_text, verb, dist);
            else PUT("; %s %s %s, %s)", label[i], p[i].best_text, verb, best);
        } else {
            PUT(")");
        }
        thrown++;
    }
    if (!thrown) {
        if (n > 0 && p[0].before.cls) {
            char val[64];
            annotate_value_text(v, &p[0].before, val, sizeof val);
            static const char *const how[] = { "", "lost", "drawn", "won" };
            PUT("No move threw a proven value away: the game began %s for %s (%s)", how[p[0].before.cls],
                names[p[0].mover & 1], val);
        } else {
            PUT("No move threw a proven value away");
        }
    }
    PUT(". %d of %d move%s proven before and after%s.", proven, n, n == 1 ? "" : "s",
        proven < n ? "; the others valued by the engine, not proven" : "");
#undef PUT
}

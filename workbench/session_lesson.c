/* A lesson in the session: its steps and the learner's moves judged (see
 * session_lesson.h). */
#include "workbench/session_lesson.h"

#include <stdio.h>
#include <string.h>

static int mv_exact(const move_value_t *m) { return m->state == MV_PROVEN && m->lo == m->hi; }
/* 3 win, 2 draw, 1 loss (as session.c classes values) */
static int outcome_class(val_t v) { return v > VAL_DRAW ? 3 : v == VAL_DRAW ? 2 : 1; }

int session_lesson_goto(session_t *s, int step, err_t *err)
{
    lesson_t *l = s->lesson;
    if (!l || step < 0 || step >= l->nsteps) return err_set(err, GSW_EINPUT, "no such lesson step");
    int rc = session_new(s, lesson_step_game(l, step), l->steps[step].position, err);
    if (rc) return rc;
    s->lesson_step = step;
    s->lesson_tried = 0;
    return GSW_OK;
}

int session_lesson_start(session_t *s, lesson_t *l, err_t *err)
{
    lesson_free(s->lesson);
    s->lesson = l;
    int rc = session_lesson_goto(s, 0, err);
    if (rc) { lesson_free(s->lesson); s->lesson = NULL; }
    return rc;
}

/* Does an analysed value agree with a published one? */
static int lesson_agrees(const lesson_value_t *lv, const move_value_t *mv)
{
    if (!mv_exact(mv)) return -1;   /* not known yet */
    gvalue_t g = gvalue_from_val(mv->lo, BOUND_EXACT);
    return g.outcome == lv->outcome && (lv->plies < 0 || lv->outcome == OUTCOME_DRAW || lv->plies == g.plies);
}

int session_lesson_check(session_t *s, out_t *out)
{
    if (!s->lesson) return 0;
    const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
    if (!st->nvalues) return 0;
    int start_ply = 0;   /* the step's position is ply 0 of the session */
    analysis_t *an = s->an[start_ply];
    int checked = 0, bad = 0;
    for (int i = 0; i < st->nvalues; i++) {
        const lesson_value_t *lv = &st->values[i];
        for (int k = 0; an && k < an->n; k++) {
            if (strcmp(an->mv[k].text, lv->move)) continue;
            int a = lesson_agrees(lv, &an->mv[k]);
            if (a < 0) break;
            checked++;
            if (!a) {
                char t[48];
                session_value_text(s, start_ply, &an->mv[k], t, sizeof t);
                out_printf(out, "DISAGREES: %s is published as %s%.0d, the solver says %s\n", lv->move,
                           lv->outcome == OUTCOME_WIN ? "W" : lv->outcome == OUTCOME_DRAW ? "D" : "L",
                           lv->plies > 0 ? lv->plies : 0, t);
                bad++;
            }
        }
    }
    if (!bad) {
        if (checked == st->nvalues) out_printf(out, "The published values agree with the solver (%d checked).\n", checked);
        else out_printf(out, "Published values; %d of %d checked by the solver so far.\n", checked, st->nvalues);
    }
    return bad;
}

/* What the learner's move at the step was worth: by the published values,
 * else by the analysis. */
void session_lesson_judge(session_t *s, out_t *out)
{
    if (!s->lesson || s->ply != 1 || !s->lesson_tried) return;
    const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
    char played[24];
    s->v->ops->move_format(s->v, s->pos[0].b, s->moves[0], played, sizeof played);
    int expected = 0;
    for (int i = 0; i < st->nexpect; i++) expected |= !strcmp(st->expect[i], played);
    const lesson_value_t *lv = lesson_value(st, played);
    outcome_t best = OUTCOME_UNKNOWN;
    for (int i = 0; i < st->nvalues; i++)
        if (st->values[i].outcome > best) best = st->values[i].outcome;
    val_t end;
    if (session_over(s, &end) && end < VAL_DRAW && s->v->game->players == 2)   /* it ends the game, won: a mate in 1 */
        out_printf(out, "%s %s: the game is over, won.\n", played, session_mate_game(s) ? "is checkmate" : "wins at once");
    else if (s->an[0] && s->an[0]->proven) {   /* proven here: the solver (published values are checked against it) */
        analysis_t *an = s->an[0];
        int b = analysis_best(an), g = -1;
        for (int i = 0; i < an->n; i++)
            if (an->mv[i].move == s->moves[0]) g = i;
        if (g >= 0) {
            char tg[48], tb[48];
            int cg = session_value_words(s, 0, &an->mv[g], tg, sizeof tg);
            session_value_words(s, 0, &an->mv[b], tb, sizeof tb);
            if (cg == outcome_class(an->mv[b].lo)) out_printf(out, "%s keeps the value: %s (solver).\n", played, tg);
            else out_printf(out, "%s gives the value away: %s, where %s gives %s (solver).\n", played, tg,
                            an->mv[b].text, tb);
        }
    } else if (lv && best != OUTCOME_UNKNOWN) {   /* not proven here yet: the published values */
        if (s->v->game->players == 1)   /* a puzzle: solvable or not */
            out_printf(out, "%s %s.\n", played, lv->outcome == best ? "keeps the value: solvable"
                                                                     : "gives the value away: dead end");
        else if (lv->outcome == best) {   /* in the game's words: "mate in 2", "win in 253 plies" */
            move_value_t pv = { .move = s->moves[0], .state = MV_PROVEN, .conv = -1 };
            pv.lo = pv.hi = lv->outcome == OUTCOME_DRAW || lv->plies < 0 ? VAL_DRAW
                          : lv->outcome == OUTCOME_WIN ? val_win(lv->plies) : val_loss(lv->plies);
            char t[64];
            if (lv->outcome == OUTCOME_DRAW || lv->plies < 0) snprintf(t, sizeof t, "%s", outcome_name(lv->outcome));
            else session_value_words(s, 0, &pv, t, sizeof t);
            out_printf(out, "%s keeps the value: %s.\n", played, t);
        }
        else out_printf(out, "%s gives the value away: it %s, where the best move %ss.\n", played,
                        lv->outcome == OUTCOME_DRAW ? "only draws" : "loses", outcome_name(best));
    } else if (st->nexpect) {
        out_printf(out, "%s %s.\n", played, expected ? "is the move the lesson asks for" : "is not the move the lesson asks for");
    }
    if (expected && st->right) out_printf(out, "%s\n", st->right);
    if (st->nexpect && !expected) {
        out_printf(out, "The lesson's move: %s.", st->expect[0]);
        out_printf(out, " Take yours back (u, or undo) and try again, or go on (n, or next).\n");
    }
}

int session_lesson_next(session_t *s, out_t *out, err_t *err)
{
    if (!s->lesson) return err_set(err, GSW_EINPUT, "no lesson in progress (lesson NAME)");
    if (s->lesson_step + 1 >= s->lesson->nsteps) {
        out_printf(out, "Lesson complete: \"%s\". The board is yours to explore%s.\n", s->lesson->title,
                   s->v->game->players == 2 ? " (both sides)" : "");
        lesson_free(s->lesson);
        s->lesson = NULL;
        s->human[0] = s->human[1] = 1;
        return GSW_OK;
    }
    /* the story follows the lesson's line: say so when the learner left it */
    const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
    char played[24] = "";
    int off = 0;
    if (st->nexpect && s->top > 0) {
        s->v->ops->move_format(s->v, s->pos[0].b, s->moves[0], played, sizeof played);
        off = 1;
        for (int i = 0; i < st->nexpect; i++) off &= strcmp(st->expect[i], played) != 0;
    }
    char expect[24];
    snprintf(expect, sizeof expect, "%s", st->nexpect ? st->expect[0] : "");
    if (session_lesson_goto(s, s->lesson_step + 1, err)) return err->code;
    if (off) out_printf(out, "Back to the lesson's line: you played %s, the lesson goes on after %s.\n", played, expect);
    if (s->sync) session_show(s, out);
    session_lesson_say(s, out);
    return GSW_OK;
}

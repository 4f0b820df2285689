/* The workbench's model (see session.h): the game, its history, what is
 * known of every move's value, the opponent's choice of move. Board clicks
 * are in session_board.c, lessons in session_lesson.c, commands in
 * commands.c. */
#include "workbench/session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ab.h"
#include "core/board_nav.h"
#include "workbench/session_clock.h"
#include "solve/solver.h"
#include "solve/prover.h"
#include "solve/analyst.h"
#include "solve/annotate.h"

/* ---- text for the person ---- */

void out_printf(out_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
    if (o->len + len + 1 > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        while (cap < o->len + len + 1) cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b) return;
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, tmp, len);
    o->len += len;
    o->buf[o->len] = 0;
}

void out_clear(out_t *o)
{
    o->len = 0;
    if (o->buf) o->buf[0] = 0;
}

void out_free(out_t *o)
{
    free(o->buf);
    memset(o, 0, sizeof *o);
}

/* ---- the game and its history ---- */

static void session_forget(session_t *s, int from)
{
    for (int i = from; i <= SESSION_MAX_PLY; i++) {
        s->stale[i] = 0;
        free(s->an[i]);
        free(s->task[i]);
        s->an[i] = NULL;
        s->task[i] = NULL;
    }
}

int session_new(session_t *s, const char *spec, const char *position, err_t *err)
{
    gv_t *v;
    if (game_open(spec, &v, err)) return err->code;
    posbuf_t start;
    if (game_pos_parse(v, position ? position : "", start.b, err)) {
        game_close(v);
        return err->code;
    }
    if (s->v) game_close(s->v);
    session_browse_close(s);
    s->v = v;
    snprintf(s->start_text, sizeof s->start_text, "%s", position && strcmp(position, "startpos") ? position : "");
    memcpy(s->pos[0].b, start.b, v->ops->pos_size);
    s->pos_id[0] = ++s->next_pos_id;
    s->game_id = s->pos_id[0];
    s->ply = s->top = 0;
    session_forget(s, 0);
    s->selected = -1;
    s->npath = s->nchoice = 0;
    s->cursor = 0;
    s->hint_wanted = 0;
    s->think_ply = -1;
    session_clock_restart(s);   /* (a clock on stays on, both times full) */
    if (v->game->players == 1) s->human[0] = s->human[1] = 1;
    if (!s->opp_chosen) {   /* the game's own first opponent (perfect, unless that is out of reach) */
        err_t e;
        opponent_t perfect = { .kind = OPP_PERFECT };
        s->opp = perfect;
        if (v->game->play_opponent && opponent_parse(v->game->play_opponent, &s->opp, &e)) s->opp = perfect;
    }
    if (v->ops->view) {   /* the cursor starts on the first board cell */
        static board_view_t view;
        v->ops->view(v, s->pos[0].b, &view);
        s->cursor = board_nav_first(&view);
    }
    return GSW_OK;
}

int session_init(session_t *s, const char *spec, const char *position, err_t *err)
{
    memset(s, 0, sizeof *s);
    s->pos = calloc(SESSION_MAX_PLY + 1, sizeof *s->pos);
    if (!s->pos) return err_set(err, GSW_EFAIL, "out of memory");
    s->human[0] = s->human[1] = 1;
    s->opp.kind = OPP_PERFECT;
    const char *seed = getenv("GSW_SEED");
    s->rng = seed ? strtoull(seed, NULL, 10) * 2654435761u + 1 : (uint64_t)time(NULL) * 2654435761u + 1;
    s->hash_mb = GSW_HASH_MB_DEFAULT;
    s->threads = 1;
    s->selected = -1;
    int rc = session_new(s, spec, position, err);
    if (rc) { free(s->pos); s->pos = NULL; }
    return rc;
}

void session_free(session_t *s)
{
    session_browse_close(s);
    session_forget(s, 0);
    if (s->v) game_close(s->v);
    lesson_free(s->lesson);
    free(s->pos);
    memset(s, 0, sizeof *s);
}

const void *session_pos(const session_t *s) { return s->pos[s->ply].b; }
int session_turn(const session_t *s) { return s->v->ops->pos_turn(s->v, session_pos(s)); }

session_count_t session_plies(int players, int n)
{
    session_count_t c;
    snprintf(c.text, sizeof c.text, "%d %s", n, players == 2 ? (n == 1 ? "ply" : "plies") : (n == 1 ? "move" : "moves"));
    return c;
}

/* Is the game over at ply, by the position or by the line to it? */
static int session_over_at(const session_t *s, int ply, val_t *value, char *why, size_t n)
{
    const game_ops_t *O = s->v->ops;
    val_t tv = VAL_DRAW;
    if (why && n) why[0] = 0;
    int over = O->terminal(s->v, s->pos[ply].b, &tv);
    if (over && why && n && O->terminal_why) O->terminal_why(s->v, s->pos[ply].b, why, n);   /* the game's words */
    if (!over && ply == s->ply && session_clock_over(s, value, why, n)) return 1;   /* a flag fell */
    if (!over && O->line_over) {
        const void *line[SESSION_MAX_PLY + 1];
        char w[64] = "";
        for (int i = 0; i <= ply; i++) line[i] = s->pos[i].b;
        over = O->line_over(s->v, line, ply + 1, &tv, w, sizeof w);
        if (over && why && n) snprintf(why, n, "%s", w);
    }
    if (value) *value = tv;
    return over;
}

int session_over_why(const session_t *s, val_t *value, char *why, size_t n)
{
    return session_over_at(s, s->ply, value, why, n);
}

int session_over(const session_t *s, val_t *value)
{
    return session_over_at(s, s->ply, value, NULL, 0);
}

/* A lesson step that asks for no move (its summary: "play on against the
 * perfect opponent"): the perfect opponent answers the learner there. */
static int session_lesson_plays_on(const session_t *s)
{
    return s->lesson && s->v->game->players == 2 && s->lesson->steps[s->lesson_step].nexpect == 0;
}

opp_kind_t session_opp_kind(const session_t *s)
{
    if (s->lesson) return session_lesson_plays_on(s) ? OPP_PERFECT : OPP_HUMAN;
    return s->opp.kind;
}

/* Does the computer play the side to move (over or not)? In a lesson the
 * learner plays the side that begins the step. */
static int session_computer_turn(const session_t *s)
{
    if (s->lesson) return session_lesson_plays_on(s) && session_turn(s) != s->v->ops->pos_turn(s->v, s->pos[0].b);
    return !s->human[session_turn(s)] && s->opp.kind != OPP_HUMAN;
}

int session_computer_to_move(const session_t *s)
{
    return !session_over(s, NULL) && session_computer_turn(s);
}

int session_play(session_t *s, move_t m, err_t *err)
{
    const game_ops_t *O = s->v->ops;
    if (s->ply >= SESSION_MAX_PLY) return err_set(err, GSW_EINPUT, "the game is too long (%d plies)", SESSION_MAX_PLY);
    move_t legal[GSW_MAX_MOVES];
    int n = O->moves(s->v, session_pos(s), legal), ok = 0;
    for (int i = 0; i < n; i++) ok |= legal[i] == m;
    if (!ok) return err_set(err, GSW_EINPUT, n ? "that move is not legal here" : "the game is over");
    char why[64];
    if (s->clock.running) session_clock_tick(s, gsw_now_ms(), s->clock.held);   /* (its time may be out) */
    if (session_over_why(s, NULL, why, sizeof why))   /* ended by the line: a draw by repetition, say */
        return err_set(err, GSW_EINPUT, "the game is over (%s)", why);
    s->by[s->ply] = (opponent_t){ .kind = OPP_HUMAN };   /* a person's, unless session_played_by says */
    s->by_auto[s->ply] = 0;
    if (s->ply < s->top && s->moves[s->ply] == m) {   /* the redo line's move: keep the line */
        s->ply++;
    } else {
        s->moves[s->ply] = m;
        memcpy(s->pos[s->ply + 1].b, s->pos[s->ply].b, O->pos_size);
        O->play(s->v, s->pos[s->ply + 1].b, m);
        s->pos_id[s->ply + 1] = ++s->next_pos_id;
        s->ply++;
        s->top = s->ply;
        session_forget(s, s->ply);
    }
    s->selected = -1;
    s->npath = s->nchoice = 0;
    s->hint_wanted = 0;
    if (s->lesson) s->lesson_tried = 1;
    session_clock_moved(s, gsw_now_ms());
    return GSW_OK;
}

int session_play_text(session_t *s, const char *text, err_t *err)
{
    move_t m;
    if (s->v->ops->move_parse(s->v, session_pos(s), text, &m, err)) return err->code;
    return session_play(s, m, err);
}

int session_undo(session_t *s)
{
    if (s->ply == 0) return 0;
    s->ply--;
    /* against a computer, go back to the person's last turn */
    while (s->ply > 0 && session_computer_turn(s)) s->ply--;
    s->selected = -1;
    s->nchoice = 0;
    s->hint_wanted = 0;
    s->think_ply = -1;
    s->stale[s->ply] = 1;   /* (what was proven further on reaches this ply's moves) */
    session_clock_goto(s, gsw_now_ms());   /* (the times as they stood here) */
    return 1;
}

int session_redo(session_t *s)
{
    if (s->ply >= s->top) return 0;
    s->ply++;
    /* against a computer, on to the person's next turn (the computer's moves are redone too) */
    while (s->ply < s->top && session_computer_turn(s)) s->ply++;
    s->selected = -1;
    s->nchoice = 0;
    s->stale[s->ply] = 1;
    session_clock_goto(s, gsw_now_ms());
    return 1;
}

/* ---- analyses ---- */

analysis_t *session_analysis(session_t *s, int ply)
{
    return ply >= 0 && ply <= s->top ? s->an[ply] : NULL;
}


/* A lesson never starts a search it cannot finish in a second or two: past
 * this, its moves show the values the lesson publishes. */
#define LESSON_BUDGET_MS 1500

/* What the game's line means for the analysis of ply: the positions a
 * search must meet as repetitions (each played twice already since the
 * last move that cannot be undone: a third time is a draw; a position
 * played once is met as one by the search's own path when it comes round
 * again), and the moves that end the game by a rule of play there
 * (threefold repetition, a move-count rule), valued as that result. */
static void session_line_fill(const session_t *s, int ply, analysis_t *an, analyst_task_t *t)
{
    if (ply >= SESSION_MAX_PLY + 1) return;
    const void *line[SESSION_MAX_PLY + 1];
    for (int i = 0; i <= ply; i++) line[i] = s->pos[i].b;
    annotate_line_fill(s->v, line, ply, an, t);
}

analysis_t *session_analysis_open(session_t *s, int ply)
{
    if (!s->an[ply]) {
        s->an[ply] = malloc(sizeof *s->an[ply]);
        s->task[ply] = calloc(1, sizeof *s->task[ply]);
        if (!s->an[ply] || !s->task[ply]) {
            free(s->an[ply]);
            free(s->task[ply]);
            s->an[ply] = NULL;
            s->task[ply] = NULL;
            return NULL;
        }
        analyst_task_t *t = s->task[ply];
        analyst_list(s->v, s->pos[ply].b, s->an[ply]);
        session_line_fill(s, ply, s->an[ply], t);
        const game_ops_t *O = s->v->ops;
        /* the computer's move (or the solver's for the person: autoplay) */
        int computer = s->v->game->players == 2
                       && (s->autoplay || (session_needs_proof(s) && !s->human[O->pos_turn(s->v, s->pos[ply].b)]));
        /* a lesson teaches the databases' published values: the positions' own */
        if (s->lesson || s->no_line) t->alone = 1;
        int mine = s->autoplay && ply == s->ply && s->human[O->pos_turn(s->v, s->pos[ply].b)];
        if (s->lesson) t->budget_ms = LESSON_BUDGET_MS;
        else if (mine && s->v->game->play_opponent) t->budget_ms = session_autoplay_ms(s);   /* autoplay's pace */
        else if (computer) t->budget_ms = session_opp_ms(s);   /* the opponent's time, then its engine */
        else if (s->sync && s->sync_budget_ms > 0) t->budget_ms = s->sync_budget_ms;
        else if (s->sync && s->sync_budget_ms < 0 && s->v->game->play_opponent)   /* perfect play out of reach */
            t->budget_ms = SESSION_SYNC_BUDGET_MS;
        else if (!s->sync && s->v->game->play_opponent)   /* the workbench: proofs stop, the CPU rests */
            t->budget_ms = SESSION_TUI_BUDGET_MS;
        if (computer && ply == s->ply && s->clock.on && (t->budget_ms <= 0 || session_clock_budget(s) < t->budget_ms))
            t->budget_ms = session_clock_budget(s);   /* on a clock: its share of its time, if less */
    }
    return s->an[ply];
}

const analyst_task_t *session_task(const session_t *s, int ply)
{
    return ply >= 0 && ply <= SESSION_MAX_PLY ? s->task[ply] : NULL;
}

const char *session_egdb_dir(const session_t *s)
{
    return s->egdb_dir[0] ? s->egdb_dir : NULL;
}

int session_analysis_done(const analysis_t *an)
{
    return an && (an->proven || an->spent);
}

move_t session_best(session_t *s, int ply, int *exact)
{
    analysis_t *an = s->an[ply];
    if (exact) *exact = 0;
    if (!an || !an->n) return MOVE_NONE;
    if (an->proven) {
        if (exact) *exact = 1;
        return an->mv[analysis_best(an)].move;
    }
    if (an->root_done && an->root_lo == an->root_hi && an->root_best != MOVE_NONE) {
        if (exact) *exact = 1;   /* the position's own proof names a best move */
        return an->root_best;
    }
    /* not all proven: the first of the order the lists show (a proven win,
       then a draw, then the heuristic's best) */
    int order[GSW_MAX_MOVES];
    session_order(s, ply, order);
    const move_value_t *m = &an->mv[order[0]];
    return m->state == MV_PROVEN || m->state == MV_HEURISTIC ? m->move : MOVE_NONE;
}

/* A value the lesson publishes for move mv at ply, as a proven value for
 * the order (what session_value_text shows where nothing is proven). */
static int session_published(const session_t *s, int ply, const move_value_t *mv, move_value_t *out)
{
    /* (as session_value_text shows it: where nothing proven is said of the move) */
    int said = mv->state == MV_PROVEN && (mv->rule[0] || mv->lo >= VAL_DRAW || mv->hi <= VAL_DRAW);
    if (said || !s->lesson || ply != 0) return 0;
    const lesson_value_t *lv = lesson_value(&s->lesson->steps[s->lesson_step], mv->text);
    if (!lv) return 0;
    *out = *mv;
    out->state = MV_PROVEN;
    if (lv->outcome == OUTCOME_DRAW) out->lo = out->hi = VAL_DRAW;
    else if (lv->outcome == OUTCOME_WIN) { out->lo = lv->plies >= 0 ? val_win(lv->plies) : VAL_PROVEN; out->hi = lv->plies >= 0 ? out->lo : VAL_WIN - 1; }
    else if (lv->outcome == OUTCOME_LOSS) { out->hi = lv->plies >= 0 ? val_loss(lv->plies) : -VAL_PROVEN; out->lo = lv->plies >= 0 ? out->hi : -VAL_WIN + 1; }
    else return 0;
    return 1;
}

void session_order(const session_t *s, int ply, int *order)
{
    const analysis_t *an = s->an[ply];
    if (!an) return;
    move_value_t mv[GSW_MAX_MOVES];
    for (int i = 0; i < an->n; i++)
        if (!session_published(s, ply, &an->mv[i], &mv[i])) mv[i] = an->mv[i];
    move_values_order(mv, an->n, order);
}

int session_needs_proof(const session_t *s)
{
    opp_kind_t k = session_opp_kind(s);
    return k == OPP_PERFECT || k == OPP_IMPERFECT || k == OPP_GIVEBACK;
}

static uint32_t session_rand(session_t *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return (uint32_t)(s->rng >> 16);
}

static int outcome_class(val_t v) { return v > VAL_DRAW ? 3 : v == VAL_DRAW ? 2 : 1; }

double session_opp_ms(const session_t *s)
{
    return s->opp.ms > 0 ? s->opp.ms : s->opp_ms > 0 ? s->opp_ms : SESSION_OPP_MS;
}

/* No proof within the analysis's budget: the engine's move (the best by
 * what is known: a proven win, else the heuristic scores), said in
 * s->opp_note; MOVE_NONE while the budget lasts or nothing is scored. */
static move_t session_engine_move(session_t *s, const analysis_t *an, move_t best, const char *who)
{
    if (!an || !an->spent || an->proven || best == MOVE_NONE || s->v->game->players != 2) return MOVE_NONE;
    const analyst_task_t *t = session_task(s, s->ply);
    snprintf(s->opp_note, sizeof s->opp_note, "%sengine move: no proof within %g s", who, t ? t->budget_ms / 1000 : 0);
    return best;
}

move_t session_computer_move(session_t *s)
{
    if (!session_computer_to_move(s)) return MOVE_NONE;
    opp_kind_t kind = session_opp_kind(s);
    s->opp_note[0] = 0;   /* (not the last autoplay move's) */
    if (kind == OPP_HEURISTIC)
        return s->think_ply == s->ply ? s->think_move : MOVE_NONE;
    analysis_t *an = s->an[s->ply];
    int exact;
    move_t best = session_best(s, s->ply, &exact);
    if (!an) return MOVE_NONE;
    const char *who = kind == OPP_PERFECT ? "perfect where proven; " : "";
    if (!exact) return session_engine_move(s, an, best, who);
    if (kind == OPP_PERFECT) return best;   /* the position's proof is enough */
    if (!an->proven) return session_engine_move(s, an, best, who);   /* the others choose among every move's value */
    if (kind == OPP_IMPERFECT && (int)(session_rand(s) % 100) >= s->opp.percent)
        return an->mv[session_rand(s) % (unsigned)an->n].move;
    if (kind == OPP_GIVEBACK && s->opp.givebacks > 0) {
        val_t top = VAL_DRAW;
        for (int i = 0; i < an->n; i++)
            if (an->mv[i].move == best) top = an->mv[i].lo;
        int g = -1;   /* the best of the moves that give the outcome away */
        for (int i = 0; i < an->n; i++)
            if (outcome_class(an->mv[i].lo) < outcome_class(top) && (g < 0 || an->mv[i].lo > an->mv[g].lo)) g = i;
        if (g >= 0) {
            s->opp.givebacks--;
            return an->mv[g].move;
        }
    }
    return best;
}

move_t session_autoplay_move(session_t *s)
{
    int exact;
    move_t m = session_best(s, s->ply, &exact);
    s->opp_note[0] = 0;
    if (!exact) return session_engine_move(s, s->an[s->ply], m, "");
    if (m == MOVE_NONE) return MOVE_NONE;
    if (s->v->game->players == 1 && s->an[s->ply]->root_lo < VAL_DRAW) return MOVE_NONE;   /* no solution to play */
    return m;
}

double session_autoplay_ms(const session_t *s)
{
    return s->autoplay_ms > 0 ? s->autoplay_ms : SESSION_AUTOPLAY_MS;
}

move_t session_autoplay_now(session_t *s)
{
    int exact;
    move_t m = session_best(s, s->ply, &exact);
    s->opp_note[0] = 0;
    if (exact || m == MOVE_NONE || s->v->game->players != 2) return session_autoplay_move(s);
    snprintf(s->opp_note, sizeof s->opp_note, "engine move: no proof within %g s", session_autoplay_ms(s) / 1000);
    return m;
}

void session_played_by(session_t *s, int autoplay)
{
    if (s->ply < 1) return;
    s->by[s->ply - 1] = autoplay ? (opponent_t){ .kind = OPP_HUMAN } : s->opp;
    if (!autoplay && s->lesson) s->by[s->ply - 1] = (opponent_t){ .kind = OPP_PERFECT };   /* (session_opp_kind) */
    if (!autoplay && s->by[s->ply - 1].kind == OPP_PERFECT) s->by[s->ply - 1].ms = session_opp_ms(s);   /* with its time,
                                                                                                 as `opponent` says it */
    s->by_auto[s->ply - 1] = (unsigned char)(autoplay != 0);
}

void session_mover_text(const session_t *s, int i, char *buf, size_t n)
{
    if (s->by[i].kind != OPP_HUMAN) opponent_text(&s->by[i], buf, n);
    else snprintf(buf, n, "%s", s->by_auto[i] ? "you (autoplay)" : "you");
}

int session_saved(const session_t *s)
{
    return s->saved_id && s->saved_id == s->pos_id[s->top];
}

/* ---- values as text ---- */

/* The move-count rule's mark on a value it may turn into a draw first:
 * " (40-move rule first)" (no win fits in the count), " (40-move rule?)"
 * (none known to fit). */
static void late_note(const gv_t *v, const move_value_t *mv, char *buf, size_t n)
{
    if (mv->late)
        snprintf(buf + strlen(buf), n - strlen(buf), mv->late == 2 ? " (%s?)" : " (%s first)",
                 v->ops->count_rule ? v->ops->count_rule : "move count");
}

/* A draw, and what the move-count rule changed: "draw (a win without the
 * 50-move rule)". */
static void rule_draw_text(const gv_t *v, const move_value_t *mv, char *buf, size_t n)
{
    char w[64];
    if (!mv->rule_draw) {
        snprintf(buf, n, "draw");
        return;
    }
    rule_draw_words(v, mv->rule_draw, w, sizeof w);
    snprintf(buf, n, "draw (%s)", w);
}

int session_value_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n)
{
    const gv_t *v = s->v;
    if (mv->state == MV_PROVEN && v->game->players == 1 && mv->lo == mv->hi) {   /* a puzzle */
        snprintf(buf, n, "%s", mv->lo > VAL_DRAW ? "solvable" : "dead end");
        return outcome_class(mv->lo);
    }
    if (mv->state == MV_PROVEN && mv->rule[0]) {   /* the move ends the game by a rule of play */
        snprintf(buf, n, "%s: %s", mv->lo > VAL_DRAW ? "win" : mv->lo < VAL_DRAW ? "loss" : "draw", mv->rule);
        return outcome_class(mv->lo);
    }
    if (mv->state == MV_PROVEN) {
        val_t lo = mv->lo, hi = mv->hi;
        int score;
        if (lo == hi) {
            gvalue_t g = gvalue_from_val(lo, BOUND_EXACT);
            /* the game's own score is that of the position the mover left */
            int has = 0;
            if (v->ops->value_score) {
                GSW_POSBUF child[GSW_MAX_POS];
                memcpy(child, s->pos[ply].b, v->ops->pos_size);
                v->ops->play(v, child, mv->move);
                has = v->ops->value_score(v, child, val_down(lo), &score);
                score = -score;
            }
            if (g.outcome == OUTCOME_DRAW) rule_draw_text(v, mv, buf, n);
            else if (session_mate_game(s)) session_score_text(s, lo, buf, n);
            else snprintf(buf, n, "%s %d", outcome_name(g.outcome), g.plies);
            if (has && g.outcome != OUTCOME_DRAW) snprintf(buf + strlen(buf), n - strlen(buf), " (%+d)", score);
            late_note(v, mv, buf, n);
            return outcome_class(lo);
        }
        if (mv->final && mv->conv > 0) {   /* the databases' result, with the plies to its next conversion */
            snprintf(buf, n, "%s, converts in %d%s", lo > VAL_DRAW ? "win" : "loss", mv->conv,
                     mv->late ? " (late)" : "");
            return lo > VAL_DRAW ? 3 : 1;
        }
        if (lo > VAL_DRAW) {   /* a win whose distance is not known (a proof tree's, a win/draw/loss file's) */
            snprintf(buf, n, "win");
            late_note(v, mv, buf, n);
            return 3;
        }
        if (hi < VAL_DRAW) {
            snprintf(buf, n, "loss");
            late_note(v, mv, buf, n);
            return 1;
        }
        if (lo >= VAL_DRAW && hi <= VAL_DRAW) { rule_draw_text(v, mv, buf, n); return 2; }
        /* a win too long for the move-count rule, undecided: either, in words */
        if (lo == VAL_DRAW && val_is_win(hi)) {
            if (hi >= val_win(1)) snprintf(buf, n, "draw or win");   /* (no distance known) */
            else snprintf(buf, n, "draw or win %d+", val_plies(hi));
            return 0;
        }
        if (hi == VAL_DRAW && val_is_loss(lo)) {
            if (lo <= val_loss(1)) snprintf(buf, n, "draw or loss");
            else snprintf(buf, n, "draw or loss %d+", val_plies(lo));
            return 0;
        }
        if (lo >= VAL_DRAW) { snprintf(buf, n, ">= draw"); return 0; }
        if (hi <= VAL_DRAW) { snprintf(buf, n, "<= draw"); return 0; }
    }
    const lesson_value_t *lv = s->lesson && ply == 0 ? lesson_value(&s->lesson->steps[s->lesson_step], mv->text) : NULL;
    if (lv) {   /* not proven here: the value the lesson publishes, said to be that */
        if (lv->outcome == OUTCOME_DRAW || lv->plies < 0) snprintf(buf, n, "%s (published)", outcome_name(lv->outcome));
        else if (session_mate_game(s)) {   /* chess counts moves: "mate in 2" */
            session_score_text(s, lv->outcome == OUTCOME_WIN ? val_win(lv->plies) : val_loss(lv->plies), buf, n);
            snprintf(buf + strlen(buf), n - strlen(buf), " (published)");
        } else snprintf(buf, n, "%s %d (published)", outcome_name(lv->outcome), lv->plies);
        return lv->outcome == OUTCOME_WIN ? 3 : lv->outcome == OUTCOME_DRAW ? 2 : 1;
    }
    if (mv->state == MV_HEURISTIC || mv->depth > 0) {
        char t[48];
        session_score_text(s, mv->score, t, sizeof t);
        snprintf(buf, n, "~%s", t);
        return 0;
    }
    snprintf(buf, n, "?");
    return 0;
}

int session_value_words(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n)
{
    int cls = session_value_text(s, ply, mv, buf, n);
    if (session_mate_game(s) || s->v->game->players != 2) return cls;
    const char *w = !strncmp(buf, "win ", 4) ? "win" : !strncmp(buf, "loss ", 5) ? "loss" : NULL;
    int plies, used;
    if (w && sscanf(buf + strlen(w), " %d%n", &plies, &used) == 1) {   /* "win 49 ..." -> "win in 49 plies ..." */
        char rest[128];
        snprintf(rest, sizeof rest, "%s", buf + strlen(w) + used);
        snprintf(buf, n, "%s in %d pl%s%s", w, plies, plies == 1 ? "y" : "ies", rest);
    }
    return cls;
}

int session_mate_game(const session_t *s)
{
    return s->v->game->players == 2 && s->v->ops->pos_in_check != NULL;
}

void session_score_text(const session_t *s, int32_t score, char *buf, size_t n)
{
    int mate = session_mate_game(s);
    if (val_is_proven_decisive(score)) {
        int plies = val_plies(score);
        if (!mate) snprintf(buf, n, "%s", val_is_win(score) ? "win" : "loss");
        else if (val_is_win(score)) snprintf(buf, n, "mate in %d", (plies + 1) / 2);   /* the mover's moves */
        else snprintf(buf, n, "mated in %d", plies / 2 > 0 ? plies / 2 : 1);
    } else if (s->v->game->eval_unit) {   /* hundredths of a pawn or a man, as pawns or men */
        int a = score < 0 ? -score : score;
        snprintf(buf, n, "%c%d.%02d", score < 0 ? '-' : '+', a / 100, a % 100);
    } else {
        snprintf(buf, n, "%+d", (int)score);
    }
}

int session_line_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n)
{
    const game_ops_t *O = s->v->ops;
    size_t used = 0;
    if (n) buf[0] = 0;
    if (mv->npv < 2 || mv->pv[0] != mv->move) return 0;
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, s->pos[ply].b, O->pos_size);
    int k = 0;
    for (; k < mv->npv && used + 1 < n; k++) {
        move_t legal[GSW_MAX_MOVES];
        int nl = O->moves(s->v, cur, legal), ok = 0;
        for (int i = 0; i < nl; i++) ok |= legal[i] == mv->pv[k];
        if (!ok) break;   /* (a line from a table is checked, never trusted) */
        char mt[32];
        O->move_format(s->v, cur, mv->pv[k], mt, sizeof mt);
        int w = snprintf(buf + used, n - used, "%s%s", k ? " " : "", mt);
        if (w < 0 || (size_t)w >= n - used) { buf[used] = 0; break; }
        used += (size_t)w;
        O->play(s->v, cur, mv->pv[k]);
    }
    return k >= 2;
}

int session_engine_lines(const session_t *s, int ply, int max, int *which, int *rank)
{
    const analysis_t *an = s->an[ply];
    if (!an) return 0;
    int order[GSW_MAX_MOVES], k = 0;
    session_order(s, ply, order);
    for (int r = 0; r < an->n && k < max; r++) {
        const move_value_t *mv = &an->mv[order[r]];
        if (mv->state == MV_HEURISTIC && mv->npv >= 2 && mv->pv[0] == mv->move) { rank[k] = r; which[k++] = order[r]; }
    }
    return k;
}

/* The best move of an analysis not every move of which is proven: the
 * first of the one order (move_value_cmp), -1 when nothing is known. */
static int history_best(const session_t *s, int ply)
{
    int order[GSW_MAX_MOVES];
    session_order(s, ply, order);
    const analysis_t *an = s->an[ply];
    return an->n && an->mv[order[0]].state != MV_UNKNOWN ? order[0] : -1;
}

int session_history_entry(session_t *s, int i, char *got, size_t ng, char *best, size_t nb, int *cls_got,
                          int *cls_best)
{
    analysis_t *an = s->an[i];
    if (!an || !(an->proven || an->heuristic_done) || i >= s->top) return 0;
    int bi = an->proven ? analysis_best(an) : history_best(s, i), gi = -1;
    for (int k = 0; k < an->n; k++)
        if (an->mv[k].move == s->moves[i]) gi = k;
    if (gi < 0 || bi < 0) return 0;
    *cls_got = session_value_text(s, i, &an->mv[gi], got, ng);
    *cls_best = session_value_text(s, i, &an->mv[bi], best, nb);
    return 1;
}

/* ---- opponents ---- */

int opponent_parse(const char *text, opponent_t *o, err_t *err)
{
    opponent_t r = { 0 };
    const char *arg = strchr(text, ':');
    size_t klen = arg ? (size_t)(arg - text) : strlen(text);
    long x = -1;
    if (arg) {
        char *end;
        x = strtol(arg + 1, &end, 10);
        if (end == arg + 1 || (*end && strcmp(end, "%"))) x = -2;
    }
#define IS(w) (klen == strlen(w) && !strncmp(text, w, klen))
    if (IS("human") && !arg) r.kind = OPP_HUMAN;
    else if (IS("perfect") && !arg) r.kind = OPP_PERFECT;
    else if (IS("perfect") && x >= 1) { r.kind = OPP_PERFECT; r.ms = (double)x; }
    else if (IS("imperfect") && x >= 0 && x <= 100) { r.kind = OPP_IMPERFECT; r.percent = (int)x; }
    else if (IS("imperfect") && !arg) { r.kind = OPP_IMPERFECT; r.percent = 75; }
    else if (IS("giveback") && x >= 0 && x <= 1000) { r.kind = OPP_GIVEBACK; r.givebacks = (int)x; }
    else if (IS("giveback") && !arg) { r.kind = OPP_GIVEBACK; r.givebacks = 1; }
    else if (IS("heuristic") && x >= 1 && x <= 9) { r.kind = OPP_HEURISTIC; r.level = (int)x; }
    else if (IS("heuristic") && !arg) { r.kind = OPP_HEURISTIC; r.level = 3; }
    else
        return err_set(err, GSW_EINPUT, "unknown opponent \"%s\" (perfect[:MS], imperfect:PERCENT, giveback:N, "
                       "heuristic:1-9, human)", text);
#undef IS
    *o = r;
    return GSW_OK;
}

void opponent_text(const opponent_t *o, char *buf, size_t n)
{
    switch (o->kind) {
    case OPP_HUMAN: snprintf(buf, n, "human"); break;
    case OPP_PERFECT:
        if (o->ms > 0 && o->ms != SESSION_OPP_MS) snprintf(buf, n, "perfect:%.0f", o->ms);
        else snprintf(buf, n, "perfect");
        break;
    case OPP_IMPERFECT: snprintf(buf, n, "imperfect:%d%%", o->percent); break;
    case OPP_GIVEBACK: snprintf(buf, n, "giveback:%d", o->givebacks); break;
    case OPP_HEURISTIC: snprintf(buf, n, "heuristic:%d", o->level); break;
    }
}

/* ---- the record ---- */

void session_record(const session_t *s, out_t *out)
{
    const game_ops_t *O = s->v->ops;
    char spec[96], date[32];
    game_spec(s->v, spec, sizeof spec);
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y.%m.%d", gmtime_r(&now, &tm));
    out_printf(out, "[Game \"%s\"]\n[Date \"%s\"]\n[Start \"%s\"]\n", spec, date,
               s->start_text[0] ? s->start_text : "startpos");
    val_t tv;
    if (session_over_at(s, s->top, &tv, NULL, 0)) {
        int loser = O->pos_turn(s->v, s->pos[s->top].b);
        if (s->v->game->players == 1) out_printf(out, "[Result \"%s\"]\n", tv > VAL_DRAW ? "solved" : "stuck");
        else if (tv == VAL_DRAW) out_printf(out, "[Result \"1/2-1/2\"]\n");
        else out_printf(out, "[Result \"%s\"]\n", (tv < VAL_DRAW) == (loser == 1) ? "1-0" : "0-1");
    } else {
        out_printf(out, "[Result \"*\"]\n");
    }
    char final[4096];
    O->pos_format(s->v, s->pos[s->top].b, final, sizeof final);
    out_printf(out, "[Position \"%s\"]\n\n", final);
    for (int i = 0; i < s->top; i++) {
        char mt[64];
        O->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
        if (s->v->game->players == 2 && O->pos_turn(s->v, s->pos[i].b) == 0) out_printf(out, "%d. ", i / 2 + 1);
        out_printf(out, "%s%s", mt, i + 1 < s->top ? " " : "\n");
    }
}

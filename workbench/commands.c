/* The workbench's commands, the same in the TUI's command line and in
 * `gsw shell`: one table entry per command. In sync mode (the shell) the
 * commands that need the solver run it at once; in the TUI they start the
 * worker and the answer arrives through session_poll. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/saved.h"
#include "solve/analyst.h"
#include "solve/prover.h"
#include "workbench/record.h"
#include "workbench/session.h"
#include "db/tunelog.h"
#include "workbench/session_annotate.h"
#include "workbench/session_board.h"
#include "workbench/commands_view.h"
#include "workbench/session_lesson.h"
#include "workbench/session_paste.h"

typedef struct command {
    const char *name;
    const char *args;
    const char *summary;
    int (*run)(session_t *s, char *args, out_t *out, err_t *err);
} command_t;

static const command_t commands[];

const char *const session_commands[] = {
    "new", "move", "undo", "redo", "hint", "analyze", "autoplay", "solve", "show", "numbers", "flip", "lines", "clock", "history", "annotate", "opponent",
    "side",
    "paste", "fen", "save", "load", "export", "lesson", "next", "back", "proof", "follow", "certificate", "tune", "help", "quit", NULL,
};

/* ---- the shell's solver ---- */

/* A long proof in the shell: the move being proved and its bounds so far,
 * for the player making it, once a second on stderr. */
static void sync_progress(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms)
{
    session_t *s = ctx;
    if (ms < s->progress_ms) s->progress_ms = 0;   /* another proof began */
    if (ms < 1000 || ms - s->progress_ms < 1000) return;
    s->progress_ms = ms;
    const analysis_t *an = s->an[s->ply];
    char b[96];
    value_open_text(val_up(hi), val_up(lo), b, sizeof b);   /* the child's bounds, turned to the mover's */
    fprintf(stderr, "  %s: %.1f s, %s; %.0f M nodes\n",
            an && an->active >= 0 ? an->mv[an->active].text : "the position", ms / 1000, b, nodes / 1e6);
}

static analyst_t *sync_analyst(session_t *s, err_t *err)
{
    if (!s->an_sync) {
        analyst_t *a = calloc(1, sizeof *a);
        if (!a) { err_set(err, GSW_EFAIL, "out of memory"); return NULL; }
        if (analyst_open(a, s->v, s->hash_mb, s->threads, s->cache, session_egdb_dir(s), s->stop, err)) { free(a); return NULL; }
        if (s->progress) {
            a->solver.ab.progress = sync_progress;
            a->solver.ab.progress_ctx = s;
        }
        s->an_sync = a;
    }
    analyst_retarget(s->an_sync, s->v);
    return s->an_sync;
}

void session_sync_close(session_t *s)
{
    if (s->an_sync) { analyst_close(s->an_sync); free(s->an_sync); s->an_sync = NULL; }
}

/* The heuristic scores of ply, if not there yet: where perfect play is out
 * of reach they are what the person gets (a second for them), and the
 * engine's move when a proof's budget runs out. */
static int sync_scores(session_t *s, analyst_t *a, int ply, analysis_t *an, err_t *err)
{
    const analyst_task_t *t = session_task(s, ply);
    double hb = s->v->game->play_opponent && !s->lesson ? 1000 : 50;
    if (t->budget_ms > 0 && t->budget_ms < hb) hb = t->budget_ms;   /* (a short opponent's time) */
    return !an->heuristic_done && analyst_heuristic(a, t, s->pos[ply].b, an, hb, err) ? -1 : 0;
}

/* Analyse ply to the end (or a stop): 1 when complete. */
static int sync_analyze(session_t *s, int ply, err_t *err)
{
    analyst_t *a = sync_analyst(s, err);
    if (!a) return -1;
    analysis_t *an = session_analysis_open(s, ply);
    if (!an) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    session_look(s);               /* databases built since (here or in another gsw) */
    session_merge_known(s, ply);   /* what a proof tree or the sources learned since, first */
    if (s->stale[ply] && an->heuristic_done && analyst_reread(a, session_task(s, ply), s->pos[ply].b, an, err)) return -1;
    s->stale[ply] = 0;
    if (sync_scores(s, a, ply, an, err)) return -1;
    if (s->v->game->players == 1 && !an->root_done) {   /* a puzzle: the solution (or why none) first */
        int r = analyst_root(a, session_task(s, ply), s->pos[ply].b, an, err);
        if (r) return r < 0 ? -1 : 0;
    }
    int i;
    while ((i = analyst_next(an)) >= 0) {
        int r = analyst_prove(a, session_task(s, ply), s->pos[ply].b, an, i, err);
        if (r < 0) return -1;
        if (r > 0) return 0;
    }
    return 1;
}

/* The computer's moves while it is its turn (sync mode). */
static int sync_autoplay(session_t *s, out_t *out, err_t *err)
{
    while (session_computer_to_move(s) && !(s->stop && *s->stop)) {
        opp_kind_t kind = session_opp_kind(s);   /* (a lesson's: the perfect opponent) */
        if (kind == OPP_HEURISTIC) {
            analyst_t *a = sync_analyst(s, err);
            move_t m;
            uint64_t line[SESSION_MAX_PLY];   /* the game so far: a search meets repetitions of it */
            for (int i = 0; i < s->ply; i++) line[i] = s->v->ops->pos_hash(s->v, s->pos[i].b);
            if (!a || analyst_think(a, session_pos(s), line, s->ply, s->opp.level, 0, &m, err)) return GSW_EFAIL;
            s->think_ply = s->ply;
            s->think_move = m;
        } else if (kind == OPP_PERFECT) {   /* the position's own proof is enough */
            analyst_t *a = sync_analyst(s, err);
            if (!a) return err->code;
            analysis_t *an = session_analysis_open(s, s->ply);
            if (!an) return err_set(err, GSW_EFAIL, "out of memory");
            int r = analyst_root(a, session_task(s, s->ply), session_pos(s), an, err);
            if (r < 0 || (r > 0 && an->spent && sync_scores(s, a, s->ply, an, err))) return err->code;
            if (r > 0 && !an->spent) { out_printf(out, "stopped: the computer has not moved\n"); return GSW_OK; }
        } else {   /* (out of time: the engine's move, session_computer_move) */
            int r = sync_analyze(s, s->ply, err);
            if (r < 0) return err->code;
            if (r == 0 && !s->an[s->ply]->spent) { out_printf(out, "stopped: the computer has not moved\n"); return GSW_OK; }
        }
        move_t m = session_computer_move(s);
        if (m == MOVE_NONE) break;
        char mt[64];
        s->v->ops->move_format(s->v, session_pos(s), m, mt, sizeof mt);
        if (session_play(s, m, err)) return err->code;
        session_played_by(s, 0);
        char who[48];   /* the mover named, as the workbench's messages do */
        session_mover_text(s, s->ply - 1, who, sizeof who);
        out_printf(out, "%s: %s%s%s%s\n", who, mt, s->opp_note[0] ? " (" : "", s->opp_note, s->opp_note[0] ? ")" : "");
    }
    return GSW_OK;
}

/* ---- text ---- */

static void show_result(session_t *s, out_t *out)
{
    val_t tv;
    char why[64];
    if (!session_over_why(s, &tv, why, sizeof why)) return;
    if (s->v->game->players == 1) { out_printf(out, "Game over: %s.\n", tv > VAL_DRAW ? "solved" : "no moves left"); return; }
    if (tv == VAL_DRAW) { out_printf(out, "Game over: a draw%s%s%s.\n", why[0] ? " (" : "", why, why[0] ? ")" : ""); return; }
    board_view_t *view = NULL;
    static board_view_t vb;
    int loser = session_turn(s);
    if (s->v->ops->view) { s->v->ops->view(s->v, session_pos(s), &vb); view = &vb; }
    const char *winner = view ? view->side[tv < VAL_DRAW ? 1 - loser : loser] : tv < VAL_DRAW ? (loser ? "first player" : "second player") : "?";
    out_printf(out, "Game over: %s wins%s%s%s.\n", winner, why[0] ? " (" : "", why, why[0] ? ")" : "");
}

void session_show(session_t *s, out_t *out)
{
    const game_ops_t *O = s->v->ops;
    const void *pos = session_pos(s);
    char spec[96], text[4096];
    game_spec(s->v, spec, sizeof spec);
    O->pos_format(s->v, pos, text, sizeof text);
    if (O->view) {
        static board_view_t view;
        O->view(s->v, pos, &view);
        int lastc = -1, from, to;
        if (s->ply > 0 && O->move_cells) {
            O->move_cells(s->v, s->pos[s->ply - 1].b, s->moves[s->ply - 1], &from, &to);
            lastc = to;
        }
        int names = 0;   /* the squares' names on request: each cell one column wider */
        for (int i = 0; s->numbers && i < view.rows * view.cols; i++)
            if ((int)strlen(view.cell[i].name) > names) names = (int)strlen(view.cell[i].name);
        for (int r = 0; r < view.rows; r++) {   /* (turned round when flipped: session_shown_cell) */
            out_printf(out, "%3s ", view.row_label[session_shown_cell(s, &view, r, 0) / view.cols]);
            for (int c = 0; c < view.cols; c++) {
                int i = session_shown_cell(s, &view, r, c);
                const view_cell_t *cl = &view.cell[i];
                char ch = cl->kind == VIEW_OFF ? ' ' : cl->ascii ? cl->ascii : '.';
                if (names) out_printf(out, "%*s", names, cl->kind == VIEW_OFF ? "" : cl->name);
                out_printf(out, i == lastc ? "[%c]" : " %c ", ch);
            }
            out_printf(out, "\n");
        }
        out_printf(out, "    ");
        for (int c = 0; c < view.cols; c++)
            out_printf(out, "%*s%2s ", names, "", view.col_label[session_shown_cell(s, &view, 0, c) % view.cols]);
        out_printf(out, "\n");
        char note[64];
        if (!session_over(s, NULL))
            out_printf(out, "%s: %s to move, ply %d; position \"%s\"%s%s\n", spec,
                       s->v->game->players == 2 ? view.side[session_turn(s)] : "you", O->pos_ply(s->v, pos), text,
                       session_note(s, note, sizeof note) ? "; " : "", note);
    } else {
        out_printf(out, "%s: position \"%s\"\n", spec, text);
    }
    show_result(s, out);
}

/* The heuristic search's line for the best move by heuristic scores
 * (when nothing better is known): "Nf3 d5 d4 Nf6" into buf, the move's
 * index returned; -1 when there is none. */
static int heuristic_line(session_t *s, char *buf, size_t n)
{
    analysis_t *an = s->an[s->ply];
    int exact;
    move_t m = session_best(s, s->ply, &exact);
    if (!an || m == MOVE_NONE || exact) return -1;
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].move == m && an->mv[i].state == MV_HEURISTIC)
            return session_line_text(s, s->ply, &an->mv[i], buf, n) ? i : -1;
    return -1;
}

static void show_analysis(session_t *s, out_t *out)
{
    analysis_t *an = s->an[s->ply];
    if (!an) return;
    int w = 6;
    for (int i = 0; i < an->n; i++)
        if ((int)strlen(an->mv[i].text) > w) w = (int)strlen(an->mv[i].text);
    int order[GSW_MAX_MOVES];
    session_order(s, s->ply, order);   /* best first, as every list */
    for (int r = 0; r < an->n; r++) {
        int i = order[r];
        char t[64];
        session_value_text(s, s->ply, &an->mv[i], t, sizeof t);
        out_printf(out, "%-*s %s\n", w, an->mv[i].text, t);
    }
    char line[400];
    if (session_lines_say(s, out)) return;   /* (lines N: the engine's best N) */
    if (heuristic_line(s, line, sizeof line) >= 0) out_printf(out, "line: %s (heuristic)\n", line);
}

/* Why a sync analysis ended before every move was proven. */
static void sync_stopped(session_t *s, out_t *out)
{
    const analysis_t *an = s->an[s->ply];
    int heur = 0;   /* (the legend only for marks shown) */
    char t[64];
    for (int i = 0; an && i < an->n; i++) heur |= (session_value_text(s, s->ply, &an->mv[i], t, sizeof t), t[0] == '~');
    if (an && an->spent)
        out_printf(out, "not proven within %g s (the shell's budget here; --time MS sets it)%s\n",
                   session_task(s, s->ply)->budget_ms / 1000, heur ? "; ~ values are heuristic" : "");
    else out_printf(out, "stopped before the proof was complete\n");
}

/* A puzzle's verdict at the current position: "" when the goal can be
 * reached, else "no finish with one peg on d4 is possible from here:
 * REASON". */
static void puzzle_verdict(const session_t *s, const analysis_t *an, char *buf, size_t n)
{
    buf[0] = 0;
    if (an->root_lo > VAL_DRAW) return;
    char goal[64] = "the goal";
    if (s->v->ops->puzzle_goal_text) s->v->ops->puzzle_goal_text(s->v, goal, sizeof goal);
    snprintf(buf, n, "no finish with %s is possible from here: %s", goal, an->reason);
}

/* The hint in a puzzle: the solution's next move, or why there is none. */
static int show_puzzle_hint(session_t *s, out_t *out)
{
    analysis_t *an = s->an[s->ply];
    if (s->v->game->players != 1 || !an || !an->root_done) return 0;
    char why[320];
    puzzle_verdict(s, an, why, sizeof why);
    if (why[0]) out_printf(out, "hint: %s\n", why);
    else if (an->root_best == MOVE_NONE) out_printf(out, "hint: the goal is met\n");
    else return 0;
    return 1;
}

static void show_hint(session_t *s, out_t *out)
{
    if (show_puzzle_hint(s, out)) return;
    int exact;
    move_t m = session_best(s, s->ply, &exact);
    analysis_t *an = s->an[s->ply];
    if (m == MOVE_NONE || !an) { out_printf(out, "no hint yet\n"); return; }
    for (int i = 0; i < an->n; i++) {
        if (an->mv[i].move != m) continue;
        char t[64];
        session_value_words(s, s->ply, &an->mv[i], t, sizeof t);
        char late[160] = "";
        const char *rule = s->v->ops->count_rule ? s->v->ops->count_rule : "move count";
        if (an->mv[i].late == 1)   /* the best there is: no win fits in the count */
            snprintf(late, sizeof late, "; no move wins or converts before the %s: a draw if the defence holds", rule);
        else if (an->mv[i].late == 2)   /* no distance to conversion to tell */
            snprintf(late, sizeof late, "; longer than the %s allows, so it needs a capture or a man's or pawn's "
                     "move on the way (no distance-to-conversion file to confirm one)", rule);
        const char *why = an->mv[i].state == MV_PROVEN && an->mv[i].lo < VAL_DRAW && exact
                              ? " (every move loses; this one loses slowest)" : late;
        if (s->v->game->players == 1 && exact)
            out_printf(out, "hint: %s (the goal can still be reached: %d more jumps in the solution found)\n",
                       an->mv[i].text, val_plies(an->mv[i].lo));
        else {
            char line[400];
            int has = !exact && an->mv[i].state == MV_HEURISTIC && session_line_text(s, s->ply, &an->mv[i], line, sizeof line);
            out_printf(out, "hint: %s, %s%s%s%s%s\n", an->mv[i].text, t, exact ? "" : " (not proven yet)", why,
                       has ? "; line " : "", has ? line : "");
        }
        s->cursor = -1;
        if (s->v->ops->move_cells) {
            int from, to;
            s->v->ops->move_cells(s->v, session_pos(s), m, &from, &to);
            s->cursor = from >= 0 ? from : to;
            if (from >= 0) s->selected = from;
        }
    }
}

static void show_value(session_t *s, out_t *out)
{
    analysis_t *an = s->an[s->ply];
    if (s->v->game->players == 1 && an && an->root_done) {   /* a puzzle: the solution, or why none */
        char why[320];
        puzzle_verdict(s, an, why, sizeof why);
        if (why[0]) { out_printf(out, "%s\n", why); return; }
        out_printf(out, "solvable: a solution of %d jumps from here:", an->nsol);
        GSW_POSBUF cur[GSW_MAX_POS];
        memcpy(cur, session_pos(s), s->v->ops->pos_size);
        for (int i = 0; i < an->nsol; i++) {
            char mt[32];
            s->v->ops->move_format(s->v, cur, an->sol[i], mt, sizeof mt);
            s->v->ops->play(s->v, cur, an->sol[i]);
            out_printf(out, " %s", mt);
        }
        out_printf(out, "\n");
        return;
    }
    int exact;
    move_t m = session_best(s, s->ply, &exact);
    if (!an || !exact || m == MOVE_NONE) {   /* what the moves proven so far say of the position */
        val_t lo = -VAL_WIN + 1, hi = VAL_WIN - 1;
        int all = 0, any = an && analysis_bounds(an, &lo, &hi, &all) != MOVE_NONE;
        char t[128];
        if (all) value_text(lo, hi, t, sizeof t);
        else if (lo > VAL_DRAW) snprintf(t, sizeof t, "win");
        else if (lo == VAL_DRAW) snprintf(t, sizeof t, "at least a draw");
        else {
            char b[24];
            value_bound_text(lo, b, sizeof b);
            snprintf(t, sizeof t, "no worse than a %s", b);
        }
        if (any) out_printf(out, "proven so far: %s for the side to move\n", t);
        else out_printf(out, "not proven yet\n");
        char line[400], score[48];
        int h = heuristic_line(s, line, sizeof line);
        if (h >= 0) {
            session_score_text(s, an->mv[h].score, score, sizeof score);
            out_printf(out, "heuristic: %s %s, line %s\n", an->mv[h].text, score, line);
        }
        return;
    }
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].move == m) {
            char t[64];
            session_value_words(s, s->ply, &an->mv[i], t, sizeof t);
            out_printf(out, "value: %s for the side to move, best move %s\n", t, an->mv[i].text);
        }
}

int session_poll(session_t *s, out_t *out)
{
    int said = 0;
    analysis_t *an = s->an[s->ply];
    int known = an && (an->proven || (an->root_done && an->root_lo == an->root_hi
                                      && (an->root_best != MOVE_NONE || s->v->game->players == 1)));
    if (s->hint_wanted && an && (known || (s->hint_wanted == 2 && an->heuristic_done))) {
        show_hint(s, out);
        s->hint_wanted = 0;
        said = 1;
    }
    if (s->solve_wanted && known) {
        show_value(s, out);
        s->solve_wanted = 0;
        said = 1;
    }
    return said;
}

void session_lesson_say(session_t *s, out_t *out)
{
    if (!s->lesson) return;
    const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
    out_printf(out, "Lesson \"%s\", step %d of %d: %s\n", s->lesson->title, s->lesson_step + 1, s->lesson->nsteps,
               st->title);
    if (st->say) out_printf(out, "%s\n", st->say);
    if (st->nexpect) out_printf(out, "Your move.\n");
}

/* ---- the commands ---- */

static char *next_word(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) { *p = s; return NULL; }
    char *w = s;
    while (*s && *s != ' ' && *s != '\t') s++;
    if (*s) *s++ = 0;
    *p = s;
    return w;
}

static char *rest(char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r')) p[--n] = 0;
    return p;
}

static int cmd_new(session_t *s, char *args, out_t *out, err_t *err)
{
    char spec[96];
    char *game = next_word(&args), *pos = rest(args);
    if (!game) game_spec(s->v, spec, sizeof spec), game = spec;
    if (session_new(s, game, pos, err)) return err->code;   /* a bad game or position changes nothing */
    lesson_free(s->lesson);
    s->lesson = NULL;
    if (s->sync) session_show(s, out);
    return GSW_OK;
}

static int cmd_move(session_t *s, char *args, out_t *out, err_t *err)
{
    char *m = rest(args);
    if (!*m) return err_set(err, GSW_EINPUT, "move what? (move M)");
    if (session_play_text(s, m, err)) return err->code;
    if (s->lesson) session_lesson_judge(s, out);
    return GSW_OK;
}

/* undo / redo N plies (against a computer: to the person's turns). */
static int cmd_step(session_t *s, char *args, err_t *err, const char *name, int (*step)(session_t *))
{
    char *n = next_word(&args);
    long k = 1;
    if (n) {
        char *end;
        errno = 0;
        k = strtol(n, &end, 10);
        if (*end || end == n || errno || k < 1)
            return err_set(err, GSW_EINPUT, "%s how many? (%s [N], N a whole number from 1)", name, name);
    }
    int done = 0;
    while (k-- > 0) {   /* stops where the game's line ends: N may be huge */
        int d = step(s);
        if (!d) break;
        done += d;
    }
    if (!done) return err_set(err, GSW_EINPUT, "nothing to %s", name);
    return GSW_OK;
}

static int cmd_undo(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)out;
    return cmd_step(s, args, err, "undo", session_undo);
}

static int cmd_redo(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)out;
    return cmd_step(s, args, err, "redo", session_redo);
}

static int cmd_needs_analysis(session_t *s, out_t *out, err_t *err, int *flag, int value, void (*say)(session_t *, out_t *))
{
    if (session_over(s, NULL)) return err_set(err, GSW_EINPUT, "the game is over");
    if (s->sync) {
        int r = sync_analyze(s, s->ply, err);
        if (r < 0) return err->code;
        if (r == 0) sync_stopped(s, out);
        say(s, out);
        return GSW_OK;
    }
    session_analysis_open(s, s->ply);
    *flag = value;
    if (!session_poll(s, out)) out_printf(out, "thinking...\n");
    return GSW_OK;
}

static int cmd_hint(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    if (session_computer_to_move(s)) return err_set(err, GSW_EINPUT, "wait: the computer is to move");
    /* where perfect play is out of reach the hint does not wait for a proof */
    return cmd_needs_analysis(s, out, err, &s->hint_wanted, s->v->game->play_opponent ? 2 : 1, show_hint);
}

static int cmd_solve(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    return cmd_needs_analysis(s, out, err, &s->solve_wanted, 1, show_value);
}

static int cmd_analyze(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    if (session_over(s, NULL)) return err_set(err, GSW_EINPUT, "the game is over");
    if (s->sync) {
        int r = sync_analyze(s, s->ply, err);
        if (r < 0) return err->code;
        show_analysis(s, out);
        if (r == 0) sync_stopped(s, out);
        if (s->lesson && s->ply == 0) session_lesson_check(s, out);
        return GSW_OK;
    }
    session_analysis_open(s, s->ply);
    out_printf(out, "analysing: the values fill in in the analysis pane\n");
    return GSW_OK;
}

/* The solver plays on for the person, N moves (default: to the end); in
 * the TUI one move at a time, so it can be watched. */
static int cmd_autoplay(session_t *s, char *args, out_t *out, err_t *err)
{
    char *w = next_word(&args), *p = w && !strcmp(w, "pace") ? w : next_word(&args), *ms = p ? next_word(&args) : NULL;
    int k = w && w != p ? atoi(w) : -1;
    if ((w && w != p && k < 1) || (p && (strcmp(p, "pace") || !ms || atof(ms) < 1)) || next_word(&args))
        return err_set(err, GSW_EINPUT, "autoplay [N] [pace MS]: N moves (default: to the end), one every MS ms");
    if (ms) s->autoplay_ms = atof(ms);
    if (session_over(s, NULL)) return err_set(err, GSW_EINPUT, "the game is over");
    s->autoplay = k;
    char pace[160];   /* where proofs are out of reach the pace is also each move's time for one */
    snprintf(pace, sizeof pace, s->v->game->play_opponent ? "a move every %g s, the best found by then" :
             "a move every %g s at most, each proven first", session_autoplay_ms(s) / 1000);
    if (!s->sync) { out_printf(out, "autoplay: the solver plays on for you, %s (any key stops it)\n", pace); return GSW_OK; }
    int rc = GSW_OK;
    while (s->autoplay && !session_over(s, NULL) && !(s->stop && *s->stop)) {
        if (session_computer_to_move(s)) {
            int ply = s->ply;
            if ((rc = sync_autoplay(s, out, err))) break;
            if (s->ply == ply) break;   /* stopped */
            continue;
        }
        analyst_t *a = sync_analyst(s, err);
        analysis_t *an = session_analysis_open(s, s->ply);
        if (!a || !an) { rc = a ? err_set(err, GSW_EFAIL, "out of memory") : err->code; break; }
        int r = analyst_root(a, session_task(s, s->ply), session_pos(s), an, err);
        if (r > 0 && an->spent && s->v->game->players == 2)   /* out of time: the engine's move */
            r = sync_scores(s, a, s->ply, an, err);
        move_t m = r ? MOVE_NONE : session_autoplay_move(s);
        if (!r && m == MOVE_NONE && s->v->game->players == 2) {   /* the root's proof named no move: every move's value */
            r = sync_analyze(s, s->ply, err) < 0 ? -1 : 0;
            m = r ? MOVE_NONE : session_autoplay_move(s);
        }
        if (r < 0) { rc = err->code; break; }
        if (r > 0) { out_printf(out, "stopped\n"); break; }
        if (m == MOVE_NONE) {
            char why[320] = "no proven move to play";
            if (s->v->game->players == 1) puzzle_verdict(s, an, why, sizeof why);
            out_printf(out, "%s\n", why);
            break;
        }
        char mt[64];
        s->v->ops->move_format(s->v, session_pos(s), m, mt, sizeof mt);
        if ((rc = session_play(s, m, err))) break;
        session_played_by(s, 1);
        out_printf(out, "you (autoplay): %s%s%s%s\n", mt, s->opp_note[0] ? " (" : "", s->opp_note, s->opp_note[0] ? ")" : "");
        if (s->autoplay > 0) s->autoplay--;
    }
    s->autoplay = 0;
    if (!rc) show_result(s, out);   /* (sync mode: the TUI returned above) */
    return rc;
}

static int cmd_history(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args; (void)err;
    if (s->sync)   /* prove every position of the game first */
        for (int i = 0; i < s->top && !(s->stop && *s->stop); i++)
            if (sync_analyze(s, i, err) < 0) return err->code;
    if (!s->top) { out_printf(out, "no moves yet\n"); return GSW_OK; }
    for (int i = 0; i < s->top; i++) {
        char got[64], best[64], mt[32];
        int cg, cb;
        s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
        if (!session_history_entry(s, i, got, sizeof got, best, sizeof best, &cg, &cb)) {
            out_printf(out, "%3d. %-5s (not analysed)\n", i + 1, mt);
            continue;
        }
        out_printf(out, "%3d. %-5s got %-14s best %-14s%s\n", i + 1, mt, got, best,
                   cg < cb ? (cb == 3 ? "  <- threw away a win" : "  <- threw away a draw") : "");
    }
    return GSW_OK;
}

static int cmd_opponent(session_t *s, char *args, out_t *out, err_t *err)
{
    char *w = next_word(&args);
    char t[48];
    opponent_t o;
    if (w && opponent_parse(w, &o, err)) return err->code;
    if (w) {
        s->opp = o;
        s->opp_chosen = 1;
        if (o.kind == OPP_HUMAN) s->human[0] = s->human[1] = 1;
        else if (s->human[0] && s->human[1] && s->v->game->players == 2) s->human[1 - session_turn(s)] = 0;
        s->think_ply = -1;
    }
    o = s->opp;   /* with its time (--time, perfect:MS) */
    if (o.kind == OPP_PERFECT) o.ms = session_opp_ms(s);
    opponent_text(&o, t, sizeof t);
    out_printf(out, "opponent: %s\n", t);
    return GSW_OK;
}

static int cmd_side(session_t *s, char *args, out_t *out, err_t *err)
{
    char *w = next_word(&args);
    if (!w) return err_set(err, GSW_EINPUT, "side first|second|both|none (the side you play)");
    if (!strcmp(w, "first")) { s->human[0] = 1; s->human[1] = 0; }
    else if (!strcmp(w, "second")) { s->human[0] = 0; s->human[1] = 1; }
    else if (!strcmp(w, "both")) s->human[0] = s->human[1] = 1;
    else if (!strcmp(w, "none")) s->human[0] = s->human[1] = 0;
    else return err_set(err, GSW_EINPUT, "unknown side \"%s\" (first, second, both, none)", w);
    if (!(s->human[0] && s->human[1]) && s->opp.kind == OPP_HUMAN) s->opp.kind = OPP_PERFECT;
    out_printf(out, "you play %s\n", w);
    return GSW_OK;
}

static int cmd_export(session_t *s, char *args, out_t *out, err_t *err);

static int cmd_save(session_t *s, char *args, out_t *out, err_t *err)
{
    char *name = next_word(&args);
    if (!name) return err_set(err, GSW_EINPUT, "save NAME (in the cache) or save FILE (a path or NAME.EXT: the record)");
    if (strchr(name, '/') || strchr(name, '.'))   /* a file, as load reads one: the game's record */
        return cmd_export(s, name, out, err);
    if (!s->cache) return err_set(err, GSW_EFAIL, "no cache file to save into (started with --no-cache?)");
    static saved_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    snprintf(g.game, sizeof g.game, "%s", s->v->game->name);
    snprintf(g.variant, sizeof g.variant, "%s", s->v->name);
    snprintf(g.start, sizeof g.start, "%s", s->start_text);
    size_t used = 0;
    for (int i = 0; i < s->top; i++) {
        char mt[64];
        s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
        int n = snprintf(g.moves + used, sizeof g.moves - used, "%s%s", used ? " " : "", mt);
        if (n < 0 || (size_t)n >= sizeof g.moves - used) return err_set(err, GSW_EFAIL, "the game is too long to save");
        used += (size_t)n;
    }
    if (saved_put(s->cache, &g, err)) return err->code;
    s->saved_id = s->pos_id[s->top];
    out_printf(out, "saved as \"%s\" (%s)\n", name, session_plies(s->v->game->players, s->top).text);
    return GSW_OK;
}

static int cmd_load(session_t *s, char *args, out_t *out, err_t *err)
{
    char *path = rest(args);
    int which = 0;
    char *hash = strrchr(path, '#');   /* load FILE #N: game N of a file with several */
    if (hash && hash > path && hash[-1] == ' ' && atoi(hash + 1) > 0) {
        which = atoi(hash + 1);
        for (char *e = hash - 1; e >= path && *e == ' '; e--) *e = 0;
    }
    if (*path && record_is_file(path)) {   /* a game record (a path, or NAME.pdn): not a saved game */
        int n, games = 1;
        if (record_load(s, path, which, &n, &games, err)) return err->code;
        out_printf(out, "loaded %s (%s)\n", path, session_plies(s->v->game->players, n).text);
        if (games > 1)
            out_printf(out, "%s holds %d games: game %d loaded (load %s #N, or gsw play --file %s --game N, picks another)\n",
                       path, games, which ? which : 1, path, path);
        if (s->sync) session_show(s, out);
        return GSW_OK;
    }
    char *name = next_word(&args);
    if (!s->cache) return err_set(err, GSW_EFAIL, "no cache file to load from (started with --no-cache?)");
    if (!name) {
        static saved_game_t list[20];
        int n = saved_list(s->cache, list, 20, err);
        if (n < 0) return err->code;
        if (!n) out_printf(out, "no saved games\n");
        for (int i = 0; i < n; i++) {
            int moves = 0;
            for (const char *p = list[i].moves; *p; p++) moves += *p != ' ' && (p == list[i].moves || p[-1] == ' ');
            const game_t *gm = game_find(list[i].game);
            out_printf(out, "%-16s %s:%s, %s\n", list[i].name, list[i].game, list[i].variant, session_plies(gm ? gm->players : 1, moves).text);
        }
        return GSW_OK;
    }
    static saved_game_t g;
    int found = saved_get(s->cache, name, &g, err);
    if (found < 0) return err->code;
    if (!found) return err_set(err, GSW_EINPUT, "no saved game \"%s\" (load lists them)", name);
    char spec[128];
    snprintf(spec, sizeof spec, "%s:%s", g.game, g.variant);
    lesson_free(s->lesson);
    s->lesson = NULL;
    if (session_new(s, spec, g.start, err)) return err->code;
    char *save, *tok;
    for (tok = strtok_r(g.moves, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        err_t e;
        if (session_play_text(s, tok, &e)) return err_set(err, GSW_EINPUT, "saved game \"%s\": %s", name, e.msg);
    }
    out_printf(out, "loaded \"%s\"\n", name);
    if (s->sync) session_show(s, out);
    return GSW_OK;
}

static int cmd_export(session_t *s, char *args, out_t *out, err_t *err)
{
    char *file = next_word(&args);
    out_t rec = { 0 };
    if (!record_export(s, &rec)) session_record(s, &rec);   /* the game's own format (PDN), else gsw's */
    if (!file) { out_printf(out, "%s", rec.buf ? rec.buf : ""); out_free(&rec); return GSW_OK; }
    FILE *f = fopen(file, "w");
    if (!f) { out_free(&rec); return err_set(err, GSW_EINPUT, "cannot write %s: %s", file, strerror(errno)); }
    int bad = fputs(rec.buf ? rec.buf : "", f) < 0;
    bad |= fclose(f) != 0;
    out_free(&rec);
    if (bad) return err_set(err, GSW_EFAIL, "cannot write %s: %s", file, strerror(errno));
    s->saved_id = s->pos_id[s->top];
    out_printf(out, "wrote %s (the game's record, %s: load %s reads it back)\n", file, session_plies(s->v->game->players, s->top).text, file);
    return GSW_OK;
}

static int cmd_lesson(session_t *s, char *args, out_t *out, err_t *err)
{
    char *name = next_word(&args);
    if (!name) {
        static char names[64][64], titles[64][128];
        int n = lesson_list(names, titles, 64);
        if (!n) out_printf(out, "no lessons in %s\n", lesson_dir());
        for (int i = 0; i < n; i++) out_printf(out, "%-20s %s\n", names[i], titles[i]);
        return GSW_OK;
    }
    char path[1200];
    lesson_t *l;
    if (lesson_find(name, path, sizeof path, err) || lesson_load(path, &l, err)) return err->code;
    if (session_lesson_start(s, l, err)) return err->code;
    if (s->sync) session_show(s, out);
    session_lesson_say(s, out);
    return GSW_OK;
}

static int cmd_next(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    return session_lesson_next(s, out, err);
}

static int cmd_back(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    if (!s->lesson) return err_set(err, GSW_EINPUT, "no lesson in progress (lesson NAME)");
    if (session_lesson_goto(s, s->lesson_step > 0 ? s->lesson_step - 1 : 0, err)) return err->code;
    if (s->sync) session_show(s, out);
    session_lesson_say(s, out);
    return GSW_OK;
}


static int cmd_proof(session_t *s, char *args, out_t *out, err_t *err)
{
    char *w = next_word(&args);
    if (w && !strcmp(w, "off")) { session_browse_close(s); out_printf(out, "proof browser closed\n"); return GSW_OK; }
    if (w && strcmp(w, "win") && strcmp(w, "draw") && strcmp(w, "manager"))
        return err_set(err, GSW_EINPUT, "proof [win|draw|manager|off]: unknown \"%s\"", w);
    if (s->v->game->players != 2) return err_set(err, GSW_EINPUT, "%s has no two-player proofs", s->v->game->name);
    if (session_over(s, NULL)) return err_set(err, GSW_EINPUT, "the game is over");
    if (w && !strcmp(w, "manager")) {   /* the tree gsw proof run stored for this position */
        if (!s->cache) return err_set(err, GSW_EINPUT, "no cache file: the manager's trees live there");
        manager_t m;
        char state[32];
        int found = prover_manager_stored(s->cache, s->v, session_pos(s), &m, state, sizeof state, err);
        if (found < 0) return err->code;
        if (!found) return err_set(err, GSW_EINPUT, "no manager tree for this position (gsw proof run)");
        int rc = session_browse_manager(s, &m, err);
        manager_free(&m);
        if (rc) return rc;
        session_learned(s);
        session_merge_known(s, s->ply);
        out_printf(out, "%s (%s)\n", s->br->title, state);
        if (s->sync) session_show_proof(s, out);
        return GSW_OK;
    }
    uint64_t budget = s->proof_nodes ? s->proof_nodes : 50000000;
    prover_options_t po = { .cache = s->cache, .egdb_dir = session_egdb_dir(s), .hash_mb = s->hash_mb,
                            .node_limit = budget, .stop = s->stop };
    proof_tree_t t;
    char text[4096];
    s->v->ops->pos_format(s->v, session_pos(s), text, sizeof text);
    int found, stored;
    dfpn_result_t r;
    int prc = prover_tree(&po, s->v, session_pos(s), text, w, &t, &found, &stored, &r, err);
    if (prc) {
        if (err->code == GSW_EFAIL && strstr(err->msg, "budget")) {   /* say what to do about it */
            char why[sizeof err->msg], spec[96], nodes[32];
            snprintf(why, sizeof why, "%s", err->msg);
            game_spec(s->v, spec, sizeof spec);
            if (budget >= 1000000) snprintf(nodes, sizeof nodes, "%.0f M", budget / 1e6);
            else snprintf(nodes, sizeof nodes, "%llu", (unsigned long long)budget);
            return err_set(err, GSW_EFAIL, "no proof tree within %s nodes here (%s); gsw proof show %s '%.200s' "
                           "searches without a limit and stores the tree for p", nodes, why, spec, text);
        }
        return err->code;
    }
    int rc = session_browse_proof(s, &t, err), depth = t.depth;
    proof_tree_free(&t);
    if (rc) return rc;
    session_learned(s);   /* every screen shows what the tree proves (the cache holds it too) */
    session_merge_known(s, s->ply);
    out_printf(out, "%s, depth %d%s\n", s->br->title, depth, found ? " (from the cache)" : stored ? " (stored)" : "");
    if (s->sync) out_printf(out, "%s\n", PROOF_LEGEND);   /* (the TUI's pane shows it) */
    if (s->sync) session_show_proof(s, out);   /* the TUI draws it */
    return GSW_OK;
}

/* Follow the tree's principal line one move: the child with the least
 * proof number for the root's side where it moves, else the least
 * disproof number (the first child of a proof tree). */
static int cmd_follow(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args;
    int node = session_browse_node(s);
    if (!s->br) return err_set(err, GSW_EINPUT, "no proof tree (proof [win|draw|manager])");
    if (node < 0) return err_set(err, GSW_EINPUT, "off the proof tree (undo to go back)");
    const browse_node_t *nd = &s->br->node[node];
    if (!nd->nchildren) return err_set(err, GSW_EINPUT, "a leaf: nothing to follow (the analysis goes on from here)");
    if (s->sync && nd->nchildren > 1 && sync_analyze(s, s->ply, err) < 0) return err->code;   /* the moves' values pick the line */
    if (session_play(s, s->br->node[session_browse_principal(s, node)].move, err)) return err->code;
    if (s->sync) session_show_proof(s, out);
    return GSW_OK;
}

/* A gsw tune run's chart: its elite piece values by generation (db/tunelog.c). */
static int cmd_tune(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)s;
    char *dir = rest(args), *text;
    if (!*dir) return err_set(err, GSW_EINPUT, "tune needs the folder of a gsw tune run (its --out DIR)");
    if (tune_chart_text(dir, 60, 17, &text, err)) return err->code;
    for (char *p = text, *nl; *p; p = nl + 1) {   /* a line at a time (out_printf's limit) */
        nl = strchr(p, '\n');
        if (!nl) { out_printf(out, "%s\n", p); break; }
        out_printf(out, "%.*s\n", (int)(nl - p), p);
    }
    free(text);
    return GSW_OK;
}

static int cmd_help(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)s; (void)err;
    char *w = next_word(&args);
    for (int i = 0; commands[i].name; i++)
        if (!w || !strcmp(w, commands[i].name)) {   /* name and arguments in one column (certificate FILE) */
            char head[64];
            snprintf(head, sizeof head, "%-8s %s", commands[i].name, commands[i].args);
            out_printf(out, "%-39s %s\n", head, commands[i].summary);
        }
    if (!w) out_printf(out, "A move on its own (\"4\") plays it.\n");
    return GSW_OK;
}

/* annotate [MS]: every move valued, the history filled (v charts it) */
static int cmd_annotate(session_t *s, char *args, out_t *out, err_t *err)
{
    char *w = next_word(&args);
    double ms = w ? atof(w) : SESSION_ANNOTATE_MS;
    if (ms < 1) return err_set(err, GSW_EINPUT, "annotate [MS]: each position's solving time in ms, at least 1");
    return session_annotate(s, ms, out, err);
}

static int cmd_certificate(session_t *s, char *args, out_t *out, err_t *err)
{
    return session_certificate(s, rest(args), out, err);
}

static int cmd_quit(session_t *s, char *args, out_t *out, err_t *err)
{
    (void)args; (void)out; (void)err;
    s->quit = 1;
    return GSW_OK;
}

static const command_t commands[] = {
    { "new", "[GAME[:VARIANT]] [POSITION]", "start a game (a position as FEN / PDN / move string)", cmd_new },
    { "move", "M", "play a move in the game's notation (a bare move works too)", cmd_move },
    { "undo", "[N]", "take back (against the computer: to your last turn)", cmd_undo },
    { "redo", "[N]", "play an undone move again", cmd_redo },
    { "hint", "", "the best move (when losing, the one that loses slowest)", cmd_hint },
    { "analyze", "", "every legal move with its value", cmd_analyze },
    { "autoplay", "[N] [pace MS]", "the solver plays on for you: N moves, or to the end", cmd_autoplay },
    { "solve", "", "the value of the position", cmd_solve },
    { "show", "", "the board as text", cmd_show },
    { "numbers", "[on|off]", "the squares' numbers on the board (checkers: 1-32)", cmd_numbers },
    { "flip", "[on|off]", "the board turned round: the second player's side at the bottom", cmd_flip },
    { "lines", "[N]", "the engine's best N lines in the analysis (0 or 1: the best move's alone)", cmd_lines },
    { "clock", "[M+S|off]", "play on a clock from here: M minutes each, S seconds more a move (the workbench's)", cmd_clock },
    { "history", "", "each move's value against the best the mover had", cmd_history },
    { "annotate", "[MS]", "every move valued (MS a position), marked ? ?? !, summed up", cmd_annotate },
    { "opponent", "perfect[:MS]|imperfect:P|giveback:N|heuristic:L|human", "who plays against you", cmd_opponent },
    { "side", "first|second|both|none", "the side(s) you play", cmd_side },
    { "paste", "[TEXT]", "set up a pasted FEN or game record (PGN, PDN); no TEXT: the lines that follow", cmd_paste },
    { "fen", "[FEN]", "the position's text (FEN; the TUI hands it to the clipboard by OSC 52); FEN: set it up", cmd_fen },
    { "save", "NAME|FILE", "save the game in the cache file (a path or NAME.EXT: its record to that file)", cmd_save },
    { "load", "[NAME|FILE]", "load a saved game (no name: list them) or a game record (a path, or NAME.EXT)", cmd_load },
    { "export", "[FILE]", "the game record as text (in the game's own record format where it has one)", cmd_export },
    { "lesson", "[NAME]", "start a lesson (no name: list them)", cmd_lesson },
    { "next", "", "the lesson's next step", cmd_next },
    { "back", "", "the lesson's previous step", cmd_back },
    { "proof", "[win|draw|manager|off]", "browse the position's proof tree (df-pn, or gsw proof run's tree)", cmd_proof },
    { "follow", "", "the proof tree's principal line, one move", cmd_follow },
    { "certificate", "FILE", "what the proof tree proves, as a certificate gsw-check verifies", cmd_certificate },
    { "tune", "DIR", "chart a gsw tune run's piece values by generation", cmd_tune },
    { "help", "[COMMAND]", "this list", cmd_help },
    { "quit", "", "leave", cmd_quit },
    { NULL, NULL, NULL, NULL },
};

const char *session_help(void)
{
    static char buf[4096];
    if (!buf[0]) {
        size_t used = 0;
        for (int i = 0; commands[i].name && used < sizeof buf; i++) {
            char head[64];
            snprintf(head, sizeof head, "%-8s %s", commands[i].name, commands[i].args);
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%-31s %s\n", head, commands[i].summary);
        }
    }
    return buf;
}

/* After a command (rc its status): in the shell, the board where a game
 * was set up (show), the computer's moves while it is to move, and the
 * game's end said where a move may have made it (moved: the command played
 * one). */
static int exec_after(session_t *s, int rc, int moved, int show, out_t *out, err_t *err)
{
    if (rc) return rc;
    if (s->sync && show) session_show(s, out);
    if (s->sync && !s->quit) {
        int before = s->ply, top = s->top;
        rc = sync_autoplay(s, out, err);
        int computer = s->ply != before || s->top != top;   /* the computer moved: its move may end the game */
        if (!rc && (moved || computer) && !s->lesson) show_result(s, out);
    }
    return rc;
}

int session_exec(session_t *s, const char *line, out_t *out, err_t *err)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", line);
    char *p = buf, *w = next_word(&p);
    if (!w || w[0] == '#') return GSW_OK;
    const command_t *c = NULL;
    for (int i = 0; commands[i].name; i++)
        if (!strcmp(commands[i].name, w)) c = &commands[i];
    int rc;
    if (c && !c->args[0] && *rest(p)) {   /* (text a command would pass over: never taken silently) */
        const int about_pos = c->run == cmd_solve || c->run == cmd_analyze || c->run == cmd_hint || c->run == cmd_show;
        return err_set(err, GSW_EINPUT, "%s takes nothing after it, not \"%s\"%s", c->name, rest(p),
                       about_pos ? " (it reads the position on the board: fen FEN or new GAME POSITION sets one up)" : "");
    }
    if (c) {
        rc = c->run(s, p, out, err);
    } else {   /* a bare move */
        move_t m;
        err_t e;
        char full[8200];
        snprintf(full, sizeof full, "%s%s%s", w, *p ? " " : "", rest(p));
        if (s->v->ops->move_parse(s->v, session_pos(s), full, &m, &e)) {
            /* a word of small letters alone is a command mistyped (no game's moves read so);
               anything else was meant as a move: the game says what is wrong with it */
            if (strspn(w, "abcdefghijklmnopqrstuvwxyz") == strlen(w))
                return err_set(err, GSW_EINPUT, "unknown command \"%s\" (help lists the commands; a move: %s)", w, e.msg);
            return err_set(err, GSW_EINPUT, "%s", e.msg);
        }
        rc = session_play(s, m, err);
        if (!rc && s->lesson) session_lesson_judge(s, out);
    }
    return exec_after(s, rc, !c || c->run == cmd_move, c && ((c->run == cmd_paste && !s->paste_wait) || (c->run == cmd_fen && *rest(p))), out, err);
}

int session_exec_paste(session_t *s, const char *text, out_t *out, err_t *err)
{
    s->paste_wait = 0;
    return exec_after(s, session_paste(s, text, out, err), 0, 1, out, err);
}

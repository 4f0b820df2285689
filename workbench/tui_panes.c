/* The TUI's game screen and its panes (see tui_panes.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "workbench/commands_view.h"
#include "workbench/session_annotate.h"
#include "workbench/session_board.h"
#include "workbench/session_clock.h"
#include "workbench/session_lesson.h"
#include "workbench/tui_board.h"
#include "workbench/tui_panes.h"
#include "workbench/tui_text.h"

/* The value history (v) as a chart: a row a ply, numbered as the move
 * list numbers moves, its mark (? ?? !) and a bar for the first player
 * (right) against the second (left): '#' a proven win or loss, '=' a
 * proven draw, '~' the engine's score (not proven), then the value for
 * the mover in words. The rows follow the position shown (undo scrolls). */
#define HISTORY_BAR 5
static void draw_history(tui_t *t, int y, int x, int w, int rows)
{
    session_t *s = &t->s;
    rows--;
    board_view_t view;
    memset(&view, 0, sizeof view);
    if (s->v->ops->view) s->v->ops->view(s->v, s->pos[0].b, &view);
    char legend[96];
    snprintf(legend, sizeof legend, "# proven ~ engine; %s right", view.side[0][0] ? view.side[0] : "first player");
    attron(A_DIM);
    tui_put_clipped(y + rows + 1, x, w, legend);
    attroff(A_DIM);
    int first = 0;
    if (s->top > rows) {
        first = s->ply - rows + 1;
        if (first > s->top - rows) first = s->top - rows;
        if (first < 0) first = 0;
    }
    int scale = s->v->game->eval_unit ? 50 : 3;   /* a score's step a character: half a pawn, or 3 */
    for (int i = first; i < s->top && i - first < rows; i++) {
        char label[16], head[48], got[48], best[48], bar[2 * HISTORY_BAR + 2];
        int row = y + 1 + i - first, cg = 0, cb = 0;
        annot_ply_t p;
        session_ply_label(s, i, label, sizeof label);
        int known = session_annot_ply(s, i, &p) && session_history_entry(s, i, got, sizeof got, best, sizeof best, &cg, &cb);
        if (!known) {
            char mt[32];
            s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
            snprintf(head, sizeof head, "%-6s%-8.8s ...", label, mt);
            tui_put_clipped(row, x, w, head);
            continue;
        }
        /* the first player's view of the value after the move */
        int cls = p.after.cls, first_side = p.mover == 0;
        int32_t score = first_side ? p.after.score : -p.after.score;
        if (!first_side && cls) cls = 4 - cls;
        memset(bar, ' ', sizeof bar - 1);
        bar[sizeof bar - 1] = 0;
        bar[HISTORY_BAR] = '|';
        int k = 0;
        char c = '?';
        if (cls == 3 || cls == 1) { k = HISTORY_BAR; c = '#'; }
        else if (cls == 2) { bar[HISTORY_BAR] = '='; }
        else if (p.after.scored) {
            int32_t m = score < 0 ? -score : score;
            k = val_is_proven_decisive(score) ? HISTORY_BAR : (int)((m + scale - 1) / scale);
            if (k > HISTORY_BAR) k = HISTORY_BAR;
            c = '~';
        } else {
            bar[HISTORY_BAR] = '?';
        }
        int right = cls ? cls == 3 : score > 0;
        for (int j = 1; j <= k; j++) bar[right ? HISTORY_BAR + j : HISTORY_BAR - j] = c;
        char mt[32];
        snprintf(mt, sizeof mt, "%.10s%s", p.text, p.mark);
        snprintf(head, sizeof head, "%-6s%-10.10s", label, mt);
        if (i >= s->ply) attron(A_DIM);
        move(row, x);
        if (p.mark[0]) attron(A_BOLD);
        printw("%s", head);
        if (p.mark[0]) attroff(A_BOLD);
        tui_attr_pair(t, tui_value_pair(cls), 1);
        printw("%s", bar);
        tui_attr_pair(t, tui_value_pair(cls), 0);
        int used = (int)strlen(head) + (int)strlen(bar) + 1;
        if (w - used > 0) printw(" %-*.*s", w - used, w - used, got);
        if (i >= s->ply) attroff(A_DIM);
    }
}

static void draw_moves(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    attron(A_BOLD);
    tui_put_clipped(y, x, w, t->show_history ? "Value history (:annotate fills it)" : "Moves");
    attroff(A_BOLD);
    int first = 0, rows = h - 1;
    if (t->show_history) {
        draw_history(t, y, x, w, rows);
        return;
    }
    /* two players: a column each, the first player's first; a game begun
     * with the second to move leaves the first row's first place empty */
    int per = s->v->game->players == 2 ? 2 : 1, mw = 5;
    int off = per == 2 && s->top > 0 && s->v->ops->pos_turn(s->v, s->pos[0].b) == 1;
    int lines = (s->top + off + per - 1) / per;
    if (lines > rows) first = lines - rows;
    for (int i = first * per - off > 0 ? first * per - off : 0; i < s->top; i++) {   /* the moves shown, in columns as wide as the widest */
        char mt[32];
        s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
        if ((int)strlen(mt) > mw) mw = (int)strlen(mt);
    }
    if (4 + per * (mw + 1) > w) mw = (w - 4) / per - 1 > 5 ? (w - 4) / per - 1 : 5;
    for (int l = first; l < lines && l - first < rows; l++) {
        move(y + 1 + l - first, x);
        printw("%3d.", l + 1);
        for (int k = 0; k < per; k++) {
            int i = l * per + k - off;
            if (i >= s->top) break;
            if (i < 0) {
                printw(" %-*s", mw, "...");
                continue;
            }
            char mt[32];
            s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
            if (i >= s->ply) attron(A_DIM);
            if (i == s->ply - 1) attron(A_BOLD);
            printw(" %-*.*s", mw, mw, mt);
            if (i == s->ply - 1) attroff(A_BOLD);
            if (i >= s->ply) attroff(A_DIM);
        }
    }
}

/* The analysis's legend: only the marks on screen ("*" the best, "~" a
 * heuristic score, a lesson's published value, the move-count rule's
 * mark) and the unit of the proven distances shown. */
static void analysis_legend(session_t *s, const analysis_t *an, int star, char *buf, size_t n)
{
    int heur = 0, published = 0, late = 0, distance = 0, conv = 0;
    for (int i = 0; i < an->n; i++) {
        char t1[64];
        session_value_text(s, s->ply, &an->mv[i], t1, sizeof t1);
        heur |= t1[0] == '~';
        published |= strstr(t1, "(published)") != NULL;
        if (an->mv[i].state == MV_PROVEN && an->mv[i].late) late |= an->mv[i].late;   /* 1 first, 2 ? (bits) */
        distance |= an->mv[i].state == MV_PROVEN && an->mv[i].lo == an->mv[i].hi && an->mv[i].lo != VAL_DRAW;
        conv |= an->mv[i].state == MV_PROVEN && an->mv[i].final && an->mv[i].conv > 0;
    }
    const char *rule = s->v->ops->count_rule ? s->v->ops->count_rule : "move count";
    buf[0] = 0;
#define PART(...) snprintf(buf + strlen(buf), n - strlen(buf), __VA_ARGS__)
    if (star) PART("* best");
    if (distance) PART("%s%s", buf[0] ? "; " : "", session_mate_game(s) ? "mate in N moves" : "win/loss N: in plies");
    if (conv)   /* a result held without its distance (win/draw/loss files, Syzygy's tables) */
        PART("%sconverts in N: plies to the next move that starts the %s again%s", buf[0] ? "; " : "", rule,
             session_mate_game(s) ? " (DTZ)" : "");
    if (heur) PART("%s~ heuristic, not proven%s%s", buf[0] ? "; " : "", s->v->game->eval_unit ? ": in " : "",
                   s->v->game->eval_unit ? s->v->game->eval_unit : "");
    if (published) PART("%s(published): the lesson's value, not proven here yet", buf[0] ? "; " : "");
    if (late & 2) PART("%s(%s?): the rule may draw it first", buf[0] ? "; " : "", rule);
    if (late & 1) PART("%s(%s first): no win fits in the count", buf[0] ? "; " : "", rule);
#undef PART
}

/* lines N: the engine's best lines, a row each ("2) ~+0.11 d4 d5 c4",
 * numbered by the move's place in the list below), as
 * many as leave the move list a few rows; returns the rows used. */
static int draw_lines(tui_t *t, int y, int x, int w, int h)
{
    enum { LIST_KEEP = 5 };   /* rows left for the moves and the legend at least */
    session_t *s = &t->s;
    int which[SESSION_LINES_MAX], rank[SESSION_LINES_MAX], room = h - 1 - LIST_KEEP;
    int k = session_engine_lines(s, s->ply, s->lines < room ? s->lines : room, which, rank), used = 0;
    attron(A_DIM);
    for (int i = 0; i < k; i++) {
        char text[480], row[500];
        if (!session_engine_line_text(s, s->ply, &s->an[s->ply]->mv[which[i]], text, sizeof text)) continue;
        snprintf(row, sizeof row, "%d) %s", rank[i] + 1, text);   /* (its place among all: a proven move may come first) */
        tui_put_clipped(y + used++, x, w, row);
    }
    attroff(A_DIM);
    return used;
}

static void draw_analysis(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    char title[128];
    val_t tv;
    attron(A_BOLD);
    if (session_over(s, &tv)) snprintf(title, sizeof title, "Game over");
    else if (s->v->game->players == 2)
        snprintf(title, sizeof title, "Analysis: %s to move%s", t->view.side[session_turn(s)][0] ? t->view.side[session_turn(s)] : "side",
                 s->no_line && s->v->ops->count_rule ? " (--no-line)" : "");
    else snprintf(title, sizeof title, "Analysis: can the goal be reached?");
    tui_put_clipped(y, x, w, title);
    attroff(A_BOLD);
    /* over (a flag fell, a repetition, no move): no move is listed as if one could be played */
    if (session_over(s, NULL)) return;
    analysis_t *an = s->an[s->ply];
    if (!t->analysis_on && !(an && an->proven)) {
        tui_put_clipped(y + 1, x, w, "(off: press a)");
        return;
    }
    if (!an) {
        tui_put_clipped(y + 1, x, w, t->paused ? "(stopped: press a)" : "...");
        return;
    }
    int exact;
    move_t best = session_best(s, s->ply, &exact);
    if (s->v->game->players == 1 && session_autoplay_move(s) == MOVE_NONE) exact = 0;   /* a puzzle: no solution, no star */
    int lines = s->lines >= 2 ? draw_lines(t, y + 1, x, w, h) : 0;   /* lines N: the engine's best N */
    y += lines;
    h -= lines;
    if (!lines && !exact && best != MOVE_NONE && h >= 6) {   /* the heuristic engine's line for its best move */
        char line[400], text[440];
        for (int i = 0; i < an->n; i++)
            if (an->mv[i].move == best && an->mv[i].state == MV_HEURISTIC && session_line_text(s, s->ply, &an->mv[i], line, sizeof line)) {
                snprintf(text, sizeof text, "line: %s", line);
                attron(A_DIM);
                int used = tui_put_wrapped(y + 1, x, w, 2, text);
                attroff(A_DIM);
                y += used;
                h -= used;
                break;
            }
    }
    int tw = 5;   /* the moves' column: as wide as the widest text (e8=Q+) */
    for (int i = 0; i < an->n; i++)
        if ((int)strlen(an->mv[i].text) > tw) tw = (int)strlen(an->mv[i].text);
    if (tw > 8) tw = 8;
    /* every move, with a legend row under them; when they do not all fit,
     * a window of them that PgUp/PgDn scrolls, and a row saying so */
    int avail = h - 1, shown = an->n, first = 0;
    if (avail < 1) return;
    if (t->an_ply != s->ply) { t->an_ply = s->ply; t->an_top = 0; }
    if (an->n + 1 > avail) {
        shown = avail >= 2 ? avail - 1 : avail;
        if (t->an_top > an->n - shown) t->an_top = an->n - shown;
        if (t->an_top < 0) t->an_top = 0;
        first = t->an_top;
        char more[96];
        snprintf(more, sizeof more, "moves %d-%d of %d, best first: PgUp/PgDn", first + 1, first + shown, an->n);
        if ((int)strlen(more) > w) snprintf(more, sizeof more, "moves %d-%d of %d: PgUp/PgDn", first + 1, first + shown, an->n);
        attron(A_DIM);
        if (avail >= 2) tui_put_clipped(y + 1 + shown, x, w, more);
        attroff(A_DIM);
    } else {
        t->an_top = 0;
    }
    t->an_shown = shown;
    /* the order shown: the one order of every list, best first (ties in the game's order) */
    int order[GSW_MAX_MOVES];
    session_order(s, s->ply, order);
    for (int r = first; r < an->n && r < first + shown; r++) {
        int i = order[r];
        char t1[64];
        int cls = session_value_text(s, s->ply, &an->mv[i], t1, sizeof t1);
        move(y + 1 + r - first, x);
        printw("%c%-*.*s ", an->mv[i].move == best && exact ? '*' : ' ', tw, tw, an->mv[i].text);
        tui_attr_pair(t, tui_value_pair(cls), 1);
        if (cls) attron(A_BOLD);
        printw("%-.*s", w - tw - 3 > 0 ? w - tw - 3 : 0, t1);
        if (cls) attroff(A_BOLD);
        tui_attr_pair(t, tui_value_pair(cls), 0);
        if (an->active == i) printw(" ..");
    }
    if (an->n + 1 <= avail) {
        char legend[400];
        analysis_legend(s, an, best != MOVE_NONE && exact, legend, sizeof legend);
        if (s->v->game->players == 1)   /* a puzzle: the verdict from here */
            snprintf(legend, sizeof legend, "%s", !an->root_done ? "solving..." : an->root_lo > VAL_DRAW
                     ? "* hint; green: the goal can still be reached (w plays on)" : an->reason);
        int ly = y + 1 + an->n;
        attron(A_DIM);
        tui_put_wrapped(ly, x, w, y + h - ly, legend);
        attroff(A_DIM);
    }
}

/* The proof browser: the node's value and numbers, its children with
 * theirs (the principal one marked), and how to move about. */
static int draw_proof(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    const browse_t *br = s->br;
    int node = session_browse_node(s), row = y;
    char line[200];
    attron(A_BOLD);
    tui_put_clipped(row++, x, w, br->title);
    attroff(A_BOLD);
    if (node < 0) {
        tui_put_clipped(row++, x, w, "off the tree: u goes back");
        return row - y;
    }
    const browse_node_t *nd = &br->node[node];
    char npn[16], ndn[16];
    if (nd->pn >= DFPN_INF) snprintf(npn, sizeof npn, "inf"); else snprintf(npn, sizeof npn, "%u", nd->pn);
    if (nd->dn >= DFPN_INF) snprintf(ndn, sizeof ndn, "inf"); else snprintf(ndn, sizeof ndn, "%u", nd->dn);
    snprintf(line, sizeof line, "this node %s  pn %s dn %s, %d nodes, depth %d%s", nd->label, npn, ndn, nd->size,
             s->ply - s->br_ply0, nd->leaf ? " (a leaf)" : "");
    tui_put_clipped(row++, x, w, line);
    int order[GSW_MAX_MOVES], nc = nd->nchildren ? session_browse_order(s, node, order) : 0;
    for (int k = 0; k < nc && row < y + h - 2; k++) {   /* best first: the first is the main line */
        const browse_node_t *ch = &br->node[order[k]];
        char mt[32], pn[16], dn[16], vt[64];
        s->v->ops->move_format(s->v, session_pos(s), ch->move, mt, sizeof mt);
        if (ch->pn >= DFPN_INF) snprintf(pn, sizeof pn, "inf"); else snprintf(pn, sizeof pn, "%u", ch->pn);
        if (ch->dn >= DFPN_INF) snprintf(dn, sizeof dn, "inf"); else snprintf(dn, sizeof dn, "%u", ch->dn);
        session_browse_value_text(s, order[k], vt, sizeof vt);
        snprintf(line, sizeof line, "%c%-5s %-5s pn %-5s dn %-5s %d nodes%s%s", k ? ' ' : '>', mt, ch->label, pn, dn,
                 ch->size, vt[0] ? "; move: " : "", vt);
        tui_put_clipped(row++, x, w, line);
    }
    if (nd->leaf && row < y + h - 1)   /* what settles it, wrapped */
        row += tui_put_wrapped(row, x, w, y + h - 1 - row, session_browse_leaf(s, node));
    attron(A_DIM);
    tui_put_clipped(row++, x, w, nd->nchildren ? "f: follow >  a move: that child  u: back  x: close  :certificate FILE"
                                           : "a leaf: the analysis below goes on from here");
    if (row < y + h - 1) row += tui_put_wrapped(row, x, w, y + h - row, PROOF_LEGEND);
    attroff(A_DIM);
    return row - y;
}

/* The lesson step in at most h rows; the rows used. */
static int draw_lesson(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
    char line[256];
    attron(A_BOLD);
    snprintf(line, sizeof line, "Lesson %d/%d: %s", s->lesson_step + 1, s->lesson->nsteps, st->title);
    tui_put_clipped(y, x, w, line);
    attroff(A_BOLD);
    int row = y + 1;
    t->lesson_cut = 0;
    if (st->say) {   /* the narration; what does not fit behind a "more" */
        int n = tui_wrap_text(st->say, w, NULL, NULL, 0), room = y + h - row - 1;
        if (n > room && room >= 1) {
            row += tui_put_wrapped(row, x, w, room - 1, st->say);
            attron(A_BOLD);
            tui_put_clipped(row++, x, w, "-- more: m reads the whole step --");
            attroff(A_BOLD);
            t->lesson_cut = 1;
        } else {
            row += tui_put_wrapped(row, x, w, y + h - row, st->say);
        }
    }
    if (row < y + h - 1 && s->ply == 0 && st->nvalues) {   /* the published values, checked */
        out_t o = { 0 };
        int bad = session_lesson_check(s, &o);
        if (bad) attron(A_BOLD);
        if (o.buf) tui_put_clipped(row++, x, w, strtok(o.buf, "\n"));
        if (bad) attroff(A_BOLD);
        out_free(&o);
    }
    attron(A_DIM);
    if (row < y + h)
        tui_put_clipped(row++, x, w, s->lesson_tried || !st->nexpect ? "n: next step  b: back  u: take back"
                                                               : "Your move.  n: next step  b: back");
    attroff(A_DIM);
    return row - y;
}

static int tui_min_size(tui_t *t, int *mw, int *mh)
{
    const board_view_t *v = &t->view;
    *mw = tui_left_width(t) + 2 + 26 + 2 + 20;
    *mh = 1 + v->rows + 2 + (v->drop ? 1 : 0) + 4;
    if (*mh < 14) *mh = 14;
    if (*mw < 60) *mw = 60;
    return COLS >= *mw && LINES >= *mh;
}

/* The message area: the newest messages, wrapped, the newest at the bottom. */
static void draw_messages(tui_t *t, int y, int rows, int w)
{
    enum { MAXL = 64 };
    int bottom = y + rows;
    t->msg_cut = 0;
    for (int k = t->nmsg - 1; k >= 0 && bottom > y; k--) {
        int off[MAXL], len[MAXL];
        int n = tui_wrap_text(t->msg[k], w, off, len, MAXL), more = 0;
        if (n > MAXL) n = MAXL;
        if (n > bottom - y) {
            if (k != t->nmsg - 1) break;   /* an older one that does not fit whole: left out */
            n = bottom - y - 1;            /* the newest: its first lines, and a way to the rest */
            more = n > 0;                  /* (one row, in a short window: its first line, m the rest) */
            if (!more) n = bottom - y;
            t->msg_cut = 1;
        }
        bottom -= n + more;
        for (int i = 0; i < n; i++)
            if (len[i]) mvaddnstr(bottom + i, 1, t->msg[k] + off[i], len[i]);
        if (more) {
            attron(A_BOLD);
            mvaddnstr(bottom + n, 1, "-- more: m shows all of it --", w);
            attroff(A_BOLD);
        }
    }
}

/* The words for a window too small to draw the board in (wrapped over the
 * whole screen); keys other than q are ignored until it is larger. */
static void draw_too_small(tui_t *t, int mw, int mh)
{
    char text[600];
    int n = snprintf(text, sizeof text, "The window is too small: need %dx%d, have %dx%d. Enlarge it to go on; until "
                     "then keys are ignored (q quits).", mw, mh, COLS, LINES);
    if (t->s.clock.on && t->s.clock.flag_ply < 0 && !session_over(&t->s, NULL) && !session_computer_to_move(&t->s)
        && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, " Your clock is stopped meanwhile.");
    if (t->confirm_quit && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, "\nQuit? The game in progress is lost (y/n)");
    else if (t->small_ignored && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, "\n(key ignored: the board is not on screen)");
    tui_put_wrapped(0, 0, COLS, LINES, text);
}

/* The game screen's layout: the title bar on row 0, the board and the
 * panes from GAME_TOP, the message area's MSG_ROWS rows over the status
 * line at the bottom (LINES - 1), a blank row between. */
#define GAME_TOP 2
#define MSG_ROWS 3
#define MSG_TOP (LINES - 1 - MSG_ROWS)
#define MOVES_W 22       /* the move list's width */
#define HISTORY_W 42     /* the value history's (v) */
#define HELP_TAG_W 8     /* "? help" at the title bar's right end, with a space */
#define TITLE_CUT 4      /* room for " ..." where the title is cut */

/* The board of the current position into t->view, and the width of its
 * cells: wider for a label over one character (column 10), or for the
 * squares' names on request where the window has room for them. */
static void game_view(tui_t *t)
{
    session_t *s = &t->s;
    int mw, mh;
    if (s->v->ops->view) s->v->ops->view(s->v, session_pos(s), &t->view);
    else { memset(&t->view, 0, sizeof t->view); t->view.rows = 1; t->view.cols = 1; }
    t->cell_w = 2;   /* one more column when a label is wider than one (column 10) */
    for (int c = 0; c < t->view.cols && c < GSW_VIEW_MAX_SIDE; c++) {
        int lw = (int)strlen(t->view.col_label[c]);
        if (lw + 1 > t->cell_w) t->cell_w = lw + 1;
    }
    int plain_w = t->cell_w;
    for (int i = 0; s->numbers && i < t->view.rows * t->view.cols; i++) {   /* the squares' numbers, on request */
        int nw = (int)strlen(t->view.cell[i].name) + 2;
        if (nw > t->cell_w) t->cell_w = nw;
    }
    t->names_need = 0;
    if (t->cell_w > plain_w && !tui_min_size(t, &mw, &mh)) {   /* names that do not fit (chess's a1-h8): left out, said */
        t->names_need = mw;
        t->cell_w = plain_w;
    }
}

/* The title bar: the game, who plays whom (or the lesson), "? help". */
static void draw_title(tui_t *t)
{
    session_t *s = &t->s;
    char spec[96], op[48], title[256];
    game_spec(s->v, spec, sizeof spec);
    opponent_text(&s->opp, op, sizeof op);
    if (s->lesson) snprintf(title, sizeof title, " gsw  %s  lesson \"%s\"", spec, s->lesson->title);
    else if (s->v->game->players == 1) snprintf(title, sizeof title, " gsw  %s  %s", spec, s->v->game->title);
    else {
        const char *you = s->human[0] && s->human[1] ? "both sides" : s->human[0] ? t->view.side[0] : s->human[1] ? t->view.side[1] : "watching";
        snprintf(title, sizeof title, " gsw  %s  you: %s  opponent: %s", spec, you, s->human[0] && s->human[1] ? "none" : op);
    }
    attron(A_REVERSE);
    move(0, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    int tw = COLS - HELP_TAG_W - 1;   /* clear of "? help"; a title too long ends at a word, with "..." */
    if ((int)strlen(title) > tw && tw > 2 * TITLE_CUT) {
        int k = tw - TITLE_CUT;
        while (k > 0 && title[k] != ' ') k--;
        if (k <= 0) k = tw - TITLE_CUT;
        snprintf(title + k, sizeof title - (size_t)k, " ...");
    }
    mvaddnstr(0, 0, title, tw);
    mvaddnstr(0, COLS - HELP_TAG_W > 0 ? COLS - HELP_TAG_W : 0, "? help", HELP_TAG_W - 1);
    attroff(A_REVERSE);
}

/* Right of the board, rows top to top + h - 1: the proof browser, the
 * lesson's step, or the move list; the analysis beside or under it. */
static void draw_panes(tui_t *t, int top, int h)
{
    session_t *s = &t->s;
    int px = t->left_w + 2, pw = COLS - px;
    int w1 = t->show_history ? HISTORY_W : MOVES_W;
    if (w1 > pw / 2) w1 = pw / 2;
    if (s->br) {
        /* every child, the analysis below; a short window keeps half for the analysis's moves */
        int used = draw_proof(t, top, px, pw - 1, h >= 20 ? h - 2 : h / 2 + 1);
        draw_analysis(t, top + used + 1, px, pw - 1, h - used - 1);
    } else if (s->lesson) {   /* the step, then every move's value under it */
        analysis_t *an = s->an[s->ply];
        /* every move's value first; the narration in the rest, what does
           not fit behind its "more" (m) */
        enum { LESSON_MIN_ROWS = 6 };
        int need = (an ? an->n : 1) + 3, hl = h - need - 1;
        if (hl < LESSON_MIN_ROWS) hl = h < LESSON_MIN_ROWS ? h : LESSON_MIN_ROWS;
        int used = draw_lesson(t, top, px, pw - 1, hl);
        draw_analysis(t, top + used + 1, px, pw - 1, h - used - 1);
    } else {
        draw_moves(t, top, px, w1, h);
        draw_analysis(t, top, px + w1 + 2, pw - w1 - 3, h);
    }
}

/* A game on a clock: both sides' times in one row, the one running
 * (the side to move's, while the game goes on) in reverse, the side at the
 * board's foot first (the second player's on a board turned round); 1 row,
 * or 0 when there is no clock. */
static int draw_clock(tui_t *t, int y)
{
    session_t *s = &t->s;
    if (!s->clock.on || s->v->game->players != 2 || s->lesson) return 0;   /* (a lesson: no race) */
    double now = tui_now_ms();
    int turn = session_turn(s), over = session_over(s, NULL);
    move(y, 1);
    const int foot = s->flipped && !t->view.drop;   /* (session_shown_cell's test: the board is shown turned round) */
    for (int k = 0; k < 2; k++) {
        const int side = k ^ foot;
        char time[24], text[48];
        clock_time_text(session_clock_left(s, side, now), time, sizeof time);
        snprintf(text, sizeof text, "%.10s %s", t->view.side[side][0] ? t->view.side[side] : side ? "second" : "first", time);
        int live = side == turn && !over;
        if (k) addstr("  ");
        if (live) attron(A_REVERSE);
        addnstr(text, t->left_w / 2);
        if (live) attroff(A_REVERSE);
    }
    return 1;
}

/* Under the board, within its column from row y: the clocks, whose turn,
 * or the result, in rows rows at most; returns the rows used. */
static int draw_turn(tui_t *t, int y, int rows)
{
    session_t *s = &t->s;
    val_t tv;
    char line[256], why[96];
    int used = 0, clock = rows > 0 ? draw_clock(t, y) : 0;
    y += clock;
    rows -= clock;
    if (session_over_why(s, &tv, why, sizeof why)) {
        if (s->v->game->players == 1) snprintf(line, sizeof line, "Game over: %s", tv > VAL_DRAW ? "solved!" : "no moves left");
        else if (tv == VAL_DRAW) snprintf(line, sizeof line, "Game over: a draw%s%s%s", why[0] ? " (" : "", why, why[0] ? ")" : "");
        else snprintf(line, sizeof line, "Game over: %s wins%s%s%s", t->view.side[tv < VAL_DRAW ? 1 - session_turn(s) : session_turn(s)],
                      why[0] ? " (" : "", why, why[0] ? ")" : "");
        attron(A_BOLD);
        used = tui_put_wrapped(y, 1, t->left_w - 1, rows, line);
        attroff(A_BOLD);
    } else if (s->v->game->players == 2) {
        int turn = session_turn(s), comp = session_computer_to_move(s);
        char note[64];
        snprintf(line, sizeof line, "%s to move%s", t->view.side[turn],
                 !comp ? "" : t->paused ? " (computer stopped: a lets it move)" : " (computer thinking)");
        used = tui_put_wrapped(y, 1, t->left_w - 1, rows, line);
        if (t->names_need) {
            snprintf(line, sizeof line, "(square names: the window needs %d columns)", t->names_need);
            attron(A_DIM);
            used += tui_put_wrapped(y + used, 1, t->left_w - 1, rows - used, line);
            attroff(A_DIM);
        }
        if (session_note(s, note, sizeof note)) {   /* a rule restricts the moves: said, and its pieces marked */
            snprintf(line, sizeof line, "%c%s", note[0] >= 'a' && note[0] <= 'z' ? note[0] - 'a' + 'A' : note[0], note + 1);
            attron(A_BOLD);
            used += tui_put_wrapped(y + used, 1, t->left_w - 1, rows - used, line);
            attroff(A_BOLD);
        }
    }
    return clock + used;
}

/* The worker's state for the status line: its error, its progress (cut
 * in a narrow window, keeping how to stop it), or that it works. */
static void worker_status(tui_t *t, char *status, size_t n)
{
    enum { PROGRESS_MIN = 12, PROGRESS_KEEP = 9 };   /* cut progress keeps "working: " at least */
    pthread_mutex_lock(&t->w.mu);
    int busy = t->w.busy;
    if (t->w.error[0]) snprintf(status, n, "error: %s", t->w.error);
    else if (busy && t->w.progress[0]) {   /* a narrow window keeps how to stop it: the progress gives way */
        static const char tail[] = "  (Ctrl-C stops)";
        int len = snprintf(status, n, "working: %s", t->w.progress), room = COLS - 2 - (int)sizeof tail + 1;
        if (len > room && room > PROGRESS_MIN) {
            int k = room - 3;
            while (k > PROGRESS_KEEP && status[k] != ' ') k--;
            while (k > PROGRESS_KEEP && (status[k - 1] == ' ' || status[k - 1] == ',' || status[k - 1] == ':')) k--;
            snprintf(status + k, n - (size_t)k, "...");
        }
        snprintf(status + strlen(status), n - strlen(status), "%s", tail);
    } else if (busy) snprintf(status, n, "working...  (Ctrl-C stops)");   /* (no line yet: none empty) */
    pthread_mutex_unlock(&t->w.mu);
}

/* The status line: a question asked, the move being typed or entered, the
 * worker, or the keys. */
static void draw_status(tui_t *t)
{
    session_t *s = &t->s;
    char status[700] = "", part[64], choice[400];
    worker_status(t, status, sizeof status);
    if (session_over(s, NULL) && !strncmp(status, "working", 7)) status[0] = 0;   /* (the history fills in quietly) */
    if (t->confirm_quit) snprintf(status, sizeof status, "quit? the game in progress is lost (y/n)");
    else if (t->confirm_new) snprintf(status, sizeof status, "a new game? the game in progress is lost (y/n)");
    else if (session_choices(s, choice, sizeof choice)) snprintf(status, sizeof status, "choose: %s", choice);
    else if (t->pend_key)
        snprintf(status, sizeof status, "%c_  (a move if its next character follows; else the %c key)", t->pend_key, t->pend_key);
    else if (t->digits[0])
        snprintf(status, sizeof status, "move %s_  (Enter plays it, Esc cancels)", t->digits);
    else if (session_partial(s, part, sizeof part))   /* before the worker's progress: the person is mid-move */
        snprintf(status, sizeof status, "move %s...: the next square it lands on (Enter or a click; Esc cancels)", part);
    else if (!status[0] && t->paused && session_computer_to_move(s) && !session_over(s, NULL))
        snprintf(status, sizeof status, "computer's move stopped%s (a lets it move, u takes yours back)",
                 s->clock.on ? ", and its clock" : "");
    else if (!status[0] && t->paused) snprintf(status, sizeof status, "analysis stopped (a resumes)");
    attron(A_REVERSE);
    move(LINES - 1, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    const char *keys = session_can_flip(s, NULL, 0) ? ": command   ? help   F flip   q quit" : ": command   ? help   q quit";
    tui_put_clipped(LINES - 1, 1, COLS - 2, status[0] ? status : keys);
    attroff(A_REVERSE);
}

void tui_draw_game(tui_t *t)
{
    session_t *s = &t->s;
    int mw, mh, bh = 1;
    game_view(t);
    erase();
    if (!tui_min_size(t, &mw, &mh)) {
        if (!t->too_small) t->small_ignored = 0;
        t->too_small = 1;
        draw_too_small(t, mw, mh);
        return;
    }
    t->too_small = 0;
    draw_title(t);
    t->left_w = tui_left_width(t);
    if (s->v->ops->view) bh = tui_draw_board(t, GAME_TOP, 0);
    else { char pt[512]; s->v->ops->pos_format(s->v, session_pos(s), pt, sizeof pt); mvaddnstr(GAME_TOP, 1, pt, COLS - 2); }
    draw_panes(t, GAME_TOP, MSG_TOP - 1 - GAME_TOP);   /* (the message area below stays clear) */
    /* a short window (74x15): the turn lines take the blank row under the
       board, then the message area's first rows, which keeps one */
    int ty = MSG_TOP - (GAME_TOP + bh + 1) >= 2 ? GAME_TOP + bh + 1 : GAME_TOP + bh;
    int mt = ty + draw_turn(t, ty, LINES - 2 - ty);
    if (mt < MSG_TOP) mt = MSG_TOP;
    draw_messages(t, mt, LINES - 1 - mt, COLS - 2);
    draw_status(t);
}

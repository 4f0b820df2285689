/* The workbench's terminal front end (ncurses): a game picker, the board drawn
 * from the game's view, the move list, the analysis pane filled in by the
 * worker thread, the value history, a help overlay, lessons, and a readline
 * command line on ':' that takes the shell's commands. Game-independent: all
 * it knows of a game comes through core/game.h. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli/opts.h"
#include "workbench/complete.h"
#include "workbench/record.h"
#include "workbench/session.h"
#include "workbench/shell.h"
#include "workbench/tui.h"
#include "workbench/worker.h"


enum { SCREEN_PICKER, SCREEN_GAME };
enum { PAIR_P0 = 1, PAIR_P1, PAIR_NEUTRAL, PAIR_WIN, PAIR_DRAW, PAIR_LOSS, PAIR_DARK, PAIR_TITLE, PAIR_TAG,
       PAIR_P0_DARK, PAIR_P1_DARK, PAIR_NEUTRAL_DARK,   /* a piece on a dark square */
       PAIR_P0_MUST, PAIR_P1_MUST, PAIR_NEUTRAL_MUST }; /* a piece that must move (a capture is compulsory) */

typedef struct pick_item {
    char label[128];
    char spec[96];         /* game:variant, or "" for a lesson */
    char lesson[64];
} pick_item_t;

typedef struct tui {
    session_t s;
    worker_t w;
    int screen;
    int unicode, colour;
    int show_history;      /* the value history replaces the move list */
    int show_help;
    int show_tags;         /* the view's tags (solitaire: piece classes) */
    int analysis_on;       /* the analysis pane fills in */
    int paused;            /* Ctrl-C stopped the worker: wait for the person */
    int cmdline;           /* the ':' line is open */
    char msg[8][160];      /* the message area, newest last */
    int nmsg;
    unsigned seen_seq;
    pick_item_t items[128];
    int nitems, pick;
    int board_y, board_x, cell_w;   /* where the board was drawn, for the mouse */
    board_view_t view;
    job_t job;             /* the job last submitted */
    double autoplay_at;    /* the monotonic ms of autoplay's next move */
    int left_w;            /* the board's column: the board, and the turn or result under it */
    int too_small;         /* the last draw found the window too small for the board */
    int names_need;        /* the squares' names are on but left out: the window is narrower than this */
    int small_ignored;     /* keys ignored since the window became too small */
    int an_top, an_ply;    /* the analysis pane's first move shown (scrolled), and for which ply */
    int an_shown;          /* how many moves it shows: PgUp/PgDn's page */
    char *pager;           /* long output in a scrollable pane over the screen, NULL none */
    char pager_title[64];
    int pager_top;         /* its first screen line shown */
    int pager_passive;     /* the completion list: the command line stays open under it */
    char digits[48];       /* a move being typed (column 10, 11, ...; 11-15, 1x10x19) */
    double digits_at;      /* when the pause ends it */
    int confirm_quit;      /* q asked "quit? y/n" */
    int have_game;         /* a game was on screen: Esc in the picker goes back to it */
} tui_t;

static tui_t *T;   /* readline's callbacks reach the TUI through this */
static int tui_term_check(void);
static volatile sig_atomic_t tui_signalled;

static void tui_say(tui_t *t, const char *text)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (t->nmsg == 8) { memmove(t->msg[0], t->msg[1], sizeof t->msg[0] * 7); t->nmsg = 7; }
        snprintf(t->msg[t->nmsg++], sizeof t->msg[0], "%s", line);
    }
}

static void tui_say_out(tui_t *t, out_t *o)
{
    if (o->len) tui_say(t, o->buf);
    out_clear(o);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Text laid out in lines at most w bytes wide, broken at spaces where it
 * can and at every '\n': line k is len[k] bytes from text + off[k] (the
 * first max lines are stored). Returns the number of lines. */
static int wrap_text(const char *text, int w, int *off, int *len, int max)
{
    int n = 0;
    const char *p = text;
    if (w < 1) w = 1;
    while (*p) {
        const char *nl = strchr(p, '\n');
        int rest = nl ? (int)(nl - p) : (int)strlen(p), l = rest;
        if (l > w) {
            int k = w;
            while (k > 0 && p[k] != ' ') k--;
            l = k > 0 ? k : w;
            while (l > 1 && ((unsigned char)p[l] & 0xC0) == 0x80) l--;   /* not inside a UTF-8 character */
        }
        if (n < max) { off[n] = (int)(p - text); len[n] = l; }
        n++;
        p += l;
        if (l == rest) { if (*p == '\n') p++; }
        else while (*p == ' ') p++;
    }
    return n;
}

/* ---- the pager: output longer than the message area, scrolled ---- */

static void pager_close(tui_t *t)
{
    free(t->pager);
    t->pager = NULL;
    t->pager_top = 0;
    t->pager_passive = 0;
}

static void pager_open(tui_t *t, const char *title, const char *text, int passive)
{
    pager_close(t);
    t->pager = strdup(text);
    if (!t->pager) { tui_say(t, text); return; }
    snprintf(t->pager_title, sizeof t->pager_title, "%s", title);
    t->pager_passive = passive;
}

static int pager_rows(void) { return LINES - 4; }   /* between its title and footer rows */

static void draw_pager(tui_t *t)
{
    int rows = pager_rows(), w = COLS - 2;
    if (rows < 1 || w < 1) return;
    int n = wrap_text(t->pager, w, NULL, NULL, 0);
    int *off = malloc(sizeof *off * (size_t)(n + 1)), *len = malloc(sizeof *len * (size_t)(n + 1));
    if (!off || !len) { free(off); free(len); return; }
    wrap_text(t->pager, w, off, len, n);
    if (t->pager_top > n - rows) t->pager_top = n - rows;
    if (t->pager_top < 0) t->pager_top = 0;
    for (int y = 1; y <= LINES - 2; y++) { move(y, 0); clrtoeol(); }
    attron(A_REVERSE);
    move(1, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    mvaddnstr(1, 1, t->pager_title, w);
    attroff(A_REVERSE);
    for (int i = 0; i < rows && t->pager_top + i < n; i++)
        mvaddnstr(2 + i, 1, t->pager + off[t->pager_top + i], len[t->pager_top + i]);
    char foot[200];
    int last = t->pager_top + rows < n ? t->pager_top + rows : n;
    snprintf(foot, sizeof foot, "lines %d-%d of %d   %s", n ? t->pager_top + 1 : 0, last, n,
             t->pager_passive ? "PgUp/PgDn: scroll   Esc: close" : "arrows, PgUp/PgDn: scroll   q or Esc: close");
    attron(A_REVERSE);
    move(LINES - 2, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    mvaddnstr(LINES - 2, 1, foot, w);
    attroff(A_REVERSE);
    free(off);
    free(len);
}

/* Scroll keys: 1 if ch was one. */
static int pager_scroll(tui_t *t, int ch)
{
    int page = pager_rows() > 2 ? pager_rows() - 1 : 1;
    switch (ch) {
    case KEY_UP: t->pager_top--; break;
    case KEY_DOWN: t->pager_top++; break;
    case KEY_PPAGE: t->pager_top -= page; break;
    case KEY_NPAGE: t->pager_top += page; break;
    case KEY_HOME: t->pager_top = 0; break;
    case KEY_END: t->pager_top = 1 << 20; break;   /* the draw clamps it */
    default: return 0;
    }
    if (t->pager_top < 0) t->pager_top = 0;
    return 1;
}

/* How to move, in the game's terms. */
static void tui_say_welcome(tui_t *t)
{
    static board_view_t view;
    const gv_t *v = t->s.v;
    view.drop = 0;
    if (v->ops->view) v->ops->view(v, session_pos(&t->s), &view);
    char example[64] = "", line[200];
    move_t mv[GSW_MAX_MOVES];
    int typed = 0;   /* moves that start with a digit are typed on the board; others after ':' */
    int k = view.drop ? 0 : v->ops->moves(v, session_pos(&t->s), mv);
    for (int i = 0; i < k; i++) {   /* the shortest move's text as the example */
        char mt[64];
        v->ops->move_format(v, session_pos(&t->s), mv[i], mt, sizeof mt);
        if (!example[0] || strlen(mt) < strlen(example)) snprintf(example, sizeof example, "%s", mt);
    }
    if (k > 0) {
        char first[64];
        v->ops->move_format(v, session_pos(&t->s), mv[0], first, sizeof first);
        typed = first[0] >= '0' && first[0] <= '9';
        if (typed) memcpy(example, first, sizeof example);
    }
    if (typed) snprintf(line, sizeof line, "Your move: a piece, then its target (arrows and Enter, or clicks), or type it (%s).  ? for help.", example);
    else if (example[0]) snprintf(line, sizeof line, "Your move: a piece, then its target (arrows and Enter, or clicks), or type it after : (:%s).  ? for help.", example);
    else snprintf(line, sizeof line, "Your move: a piece, then its target (arrows and Enter, or clicks).  ? for help.");
    tui_say(t, view.drop ? "Your move: arrows and Enter, a column number, or click.  ? for help." : line);
}

/* ---- the picker ---- */

static void picker_fill(tui_t *t)
{
    t->nitems = 0;
    for (int g = 0; gsw_games[g] && t->nitems < 100; g++) {
        const game_t *gm = gsw_games[g];
        const char *seen[32];
        int nseen = 0;
        seen[nseen++] = gm->default_variant;
        const char *const *list = gm->menu_variants ? gm->menu_variants : gm->test_variants;
        for (int k = 0; list && list[k] && nseen < 32; k++) {
            int dup = 0;
            for (int i = 0; i < nseen; i++) dup |= !strcmp(seen[i], list[k]);
            if (!dup) seen[nseen++] = list[k];
        }
        for (int i = 0; i < nseen && t->nitems < 100; i++) {
            pick_item_t *it = &t->items[t->nitems++];
            snprintf(it->spec, sizeof it->spec, "%s:%s", gm->name, seen[i]);
            snprintf(it->label, sizeof it->label, "%-14s %-8s %s", gm->title, seen[i],
                     i == 0 ? gm->summary : "");
            it->lesson[0] = 0;
        }
    }
    static char names[32][64], titles[32][128];
    int n = lesson_list(names, titles, 32);
    for (int i = 0; i < n && t->nitems < 128; i++) {
        pick_item_t *it = &t->items[t->nitems++];
        it->spec[0] = 0;
        snprintf(it->lesson, sizeof it->lesson, "%.63s", names[i]);
        snprintf(it->label, sizeof it->label, "Lesson         %.100s", titles[i]);
    }
}

/* ---- drawing ---- */

static int value_pair(int cls) { return cls == 3 ? PAIR_WIN : cls == 2 ? PAIR_DRAW : cls == 1 ? PAIR_LOSS : 0; }

static void attr_pair(tui_t *t, int pair, int on)
{
    if (!t->colour || !pair) return;
    if (on) attron(COLOR_PAIR(pair));
    else attroff(COLOR_PAIR(pair));
}

static void put_clipped(int y, int x, int w, const char *text)
{
    if (w <= 0) return;
    mvaddnstr(y, x, text, w);
}

/* Text word-wrapped into w columns from row y, at most rows lines ('\n'
 * breaks a line); the number of lines used. */
static int put_wrapped(int y, int x, int w, int rows, const char *text)
{
    enum { MAXL = 256 };
    int off[MAXL], len[MAXL];
    if (w <= 0 || rows <= 0) return 0;
    int n = wrap_text(text, w, off, len, MAXL);
    if (n > rows) n = rows;
    if (n > MAXL) n = MAXL;
    for (int i = 0; i < n; i++)
        if (len[i]) mvaddnstr(y + i, x, text + off[i], len[i]);
    return n;
}

/* A view tag as one character: 1-9, then a, b, ... */
static char tag_char(int tag) { return (char)(tag < 10 ? '0' + tag : 'a' + tag - 10); }

static int board_width(const tui_t *t, const board_view_t *v) { return 4 + v->cols * t->cell_w + 1; }

/* highlight: 1 the cursor, 2 the last move, 4 the selected piece (or a
 * square a move being entered has reached), 8 a square it can go to next,
 * 16 a piece that must move (a rule such as compulsory capture applies) */
static void draw_cell(tui_t *t, const view_cell_t *c, int highlight)
{
    int pair = 0;
    attr_t a = 0;
    if (c->kind == VIEW_PIECE) {
        int o = c->owner < 2 ? c->owner : 2;
        pair = (highlight & 16 ? PAIR_P0_MUST : c->shade ? PAIR_P0_DARK : PAIR_P0) + o;
        if (!t->colour && highlight & 16) a |= A_UNDERLINE;
    }
    if (t->show_tags && c->tag && c->kind != VIEW_OFF) pair = PAIR_TAG;
    if (c->shade && t->colour && !pair) pair = PAIR_DARK;
    if (!t->colour && c->kind == VIEW_PIECE && c->owner == 0) a |= A_BOLD;
    if (highlight & 1) a |= A_REVERSE;       /* the cursor */
    if (highlight & 2) a |= A_UNDERLINE | A_BOLD;   /* the last move */
    if (highlight & 4) a |= A_STANDOUT;      /* the selected piece */
    if (c->won && c->kind == VIEW_PIECE) a |= A_REVERSE | A_BOLD;   /* the line that ended the game */
    if (t->show_tags && c->tag) a |= c->kind == VIEW_PIECE ? A_BOLD : A_DIM;   /* a piece's class stands out */
    attron(a);
    attr_pair(t, pair, 1);
    char cell[16];
    int named = t->s.numbers && !t->names_need && c->name[0] && c->kind != VIEW_OFF;   /* the square's number before its piece */
    int target = highlight & 8 && c->kind == VIEW_PIECE && !named;   /* a piece the selected one can take */
    if (c->kind == VIEW_OFF) snprintf(cell, sizeof cell, " ");
    else if (t->show_tags && c->tag) snprintf(cell, sizeof cell, "%c", tag_char(c->tag));
    else if (highlight & 8 && c->kind == VIEW_EMPTY) snprintf(cell, sizeof cell, "%s", t->unicode ? "\u2218" : "+");
    else if (t->unicode && c->glyph[0]) snprintf(cell, sizeof cell, "%s", c->glyph);
    else snprintf(cell, sizeof cell, "%c", c->ascii ? c->ascii : '.');
    for (int k = 1 + (named ? (int)strlen(c->name) : 0) + target; k < t->cell_w; k++) addch(' ');
    if (named) { attron(A_DIM); addstr(c->name); attroff(A_DIM); attron(a); }
    if (target) addstr(t->unicode ? "\u00D7" : "x");   /* × before the piece */
    addstr(cell);
    attr_pair(t, pair, 0);
    attroff(a);
}

static int draw_board(tui_t *t, int y, int x)
{
    session_t *s = &t->s;
    const game_ops_t *O = s->v->ops;
    board_view_t *v = &t->view;
    t->board_y = y;
    t->board_x = x + 4;
    int last_from = -1, last_to = -1;
    if (s->ply > 0 && O->move_cells) O->move_cells(s->v, s->pos[s->ply - 1].b, s->moves[s->ply - 1], &last_from, &last_to);
    static char mark[GSW_VIEW_MAX_CELLS];   /* where the selected piece goes next; who must move */
    session_marks(s, mark, v->rows * v->cols);
    int row0 = y;
    if (v->drop) {   /* the cursor sits above its column */
        move(y, x + 4);
        clrtoeol();
        int c = s->cursor % v->cols;
        mvaddstr(y, t->board_x + c * t->cell_w + t->cell_w - 1, t->unicode ? "\u25BC" : "v");
        row0++;
        t->board_y++;
    }
    for (int r = 0; r < v->rows; r++) {
        mvprintw(row0 + r, x, "%3s ", v->row_label[r]);
        for (int c = 0; c < v->cols; c++) {
            int i = r * v->cols + c, hl = 0;
            if (i == s->cursor && !v->drop) hl |= 1;
            if (i == last_to || i == last_from) hl |= 2;
            if (i == s->selected || mark[i] & 2) hl |= 4;
            if (mark[i] & 1) hl |= 8;
            if (mark[i] & 4) hl |= 16;
            draw_cell(t, &v->cell[i], hl);
        }
    }
    move(row0 + v->rows, x + 4);
    for (int c = 0; c < v->cols; c++) printw("%*s", t->cell_w, v->col_label[c]);
    int extra = 0;
    if (t->show_tags && v->tag_name[0]) {   /* the overlay's legend: pieces per class */
        int count[256] = { 0 }, used[256] = { 0 };
        for (int i = 0; i < v->rows * v->cols; i++)
            if (v->cell[i].tag) { used[v->cell[i].tag] = 1; count[v->cell[i].tag] += v->cell[i].kind == VIEW_PIECE; }
        char line[256] = "";
        size_t len = 0;
        for (int k = 1; k < 256 && len < sizeof line - 16; k++)
            if (used[k]) len += (size_t)snprintf(line + len, sizeof line - len, "%s%c:%d", len ? " " : "", tag_char(k), count[k]);
        mvaddnstr(row0 + v->rows + 1, x + 1, line, board_width(t, v) - 1);
        extra = 1;
    }
    return (row0 - y) + v->rows + 1 + extra;
}

static void draw_moves(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    attron(A_BOLD);
    put_clipped(y, x, w, t->show_history ? "Value history (got / best)" : "Moves");
    attroff(A_BOLD);
    int first = 0, rows = h - 1;
    if (t->show_history) {
        rows--;
        attron(A_DIM);
        put_clipped(y + h - 1, x, w, "! threw away a win or a draw");
        attroff(A_DIM);
        if (s->top > rows) first = s->top - rows;
        for (int i = first; i < s->top && i - first < rows; i++) {
            char got[48], best[48], mt[32], line[160];
            int cg, cb;
            s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
            move(y + 1 + i - first, x);
            if (i >= s->ply) attron(A_DIM);
            if (!session_history_entry(s, i, got, sizeof got, best, sizeof best, &cg, &cb)) {
                snprintf(line, sizeof line, "%3d %-4s ...", i + 1, mt);
                put_clipped(y + 1 + i - first, x, w, line);
            } else {
                printw("%3d %-4s ", i + 1, mt);
                attr_pair(t, value_pair(cg), 1);
                printw("%-12.12s", got);
                attr_pair(t, value_pair(cg), 0);
                printw(" / ");
                attr_pair(t, value_pair(cb), 1);
                printw("%-12.12s", best);
                attr_pair(t, value_pair(cb), 0);
                if (cg < cb) { attron(A_BOLD); printw(" !"); attroff(A_BOLD); }
            }
            if (i >= s->ply) attroff(A_DIM);
        }
        return;
    }
    int per = s->v->game->players == 2 ? 2 : 1, lines = (s->top + per - 1) / per, mw = 5;
    if (lines > rows) first = lines - rows;
    for (int i = first * per; i < s->top; i++) {   /* the moves shown, in columns as wide as the widest */
        char mt[32];
        s->v->ops->move_format(s->v, s->pos[i].b, s->moves[i], mt, sizeof mt);
        if ((int)strlen(mt) > mw) mw = (int)strlen(mt);
    }
    if (4 + per * (mw + 1) > w) mw = (w - 4) / per - 1 > 5 ? (w - 4) / per - 1 : 5;
    for (int l = first; l < lines && l - first < rows; l++) {
        move(y + 1 + l - first, x);
        printw("%3d.", l + 1);
        for (int k = 0; k < per; k++) {
            int i = l * per + k;
            if (i >= s->top) break;
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

static void draw_analysis(tui_t *t, int y, int x, int w, int h)
{
    session_t *s = &t->s;
    char title[128];
    val_t tv;
    attron(A_BOLD);
    if (session_over(s, &tv)) snprintf(title, sizeof title, "Game over");
    else if (s->v->game->players == 2)
        snprintf(title, sizeof title, "Analysis: %s to move", t->view.side[session_turn(s)][0] ? t->view.side[session_turn(s)] : "side");
    else snprintf(title, sizeof title, "Analysis: can the goal be reached?");
    put_clipped(y, x, w, title);
    attroff(A_BOLD);
    analysis_t *an = s->an[s->ply];
    if (!t->analysis_on && !(an && an->proven)) {
        if (!session_over(s, NULL)) put_clipped(y + 1, x, w, "(off: press a)");
        return;
    }
    if (!an) {
        if (!session_over(s, NULL)) put_clipped(y + 1, x, w, t->paused ? "(stopped: press a)" : "...");
        return;
    }
    int exact;
    move_t best = session_best(s, s->ply, &exact);
    if (s->v->game->players == 1 && session_autoplay_move(s) == MOVE_NONE) exact = 0;   /* a puzzle: no solution, no star */
    if (!exact && best != MOVE_NONE && h >= 6) {   /* the heuristic engine's line for its best move */
        char line[400], text[440];
        for (int i = 0; i < an->n; i++)
            if (an->mv[i].move == best && an->mv[i].state == MV_HEURISTIC && session_line_text(s, s->ply, &an->mv[i], line, sizeof line)) {
                snprintf(text, sizeof text, "line: %s", line);
                attron(A_DIM);
                int used = put_wrapped(y + 1, x, w, 2, text);
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
        if (avail >= 2) put_clipped(y + 1 + shown, x, w, more);
        attroff(A_DIM);
    } else {
        t->an_top = 0;
    }
    t->an_shown = shown;
    /* the order shown: the game's when every move fits; else the best known first */
    int order[GSW_MAX_MOVES];
    for (int i = 0; i < an->n; i++) order[i] = i;
    if (shown < an->n) {
        long key[GSW_MAX_MOVES];
        for (int i = 0; i < an->n; i++) {
            const move_value_t *m = &an->mv[i];
            key[i] = m->state == MV_PROVEN ? m->lo : m->state == MV_HEURISTIC || m->depth > 0 ? m->score : -VAL_INF - 1L;
        }
        for (int i = 1; i < an->n; i++)   /* insertion: stable, so ties keep the game's order */
            for (int j = i; j > 0 && key[order[j]] > key[order[j - 1]]; j--) { int k = order[j]; order[j] = order[j - 1]; order[j - 1] = k; }
    }
    for (int r = first; r < an->n && r < first + shown; r++) {
        int i = order[r];
        char t1[64];
        int cls = session_value_text(s, s->ply, &an->mv[i], t1, sizeof t1);
        move(y + 1 + r - first, x);
        printw("%c%-*.*s ", an->mv[i].move == best && exact ? '*' : ' ', tw, tw, an->mv[i].text);
        attr_pair(t, value_pair(cls), 1);
        if (cls) attron(A_BOLD);
        printw("%-.*s", w - tw - 3 > 0 ? w - tw - 3 : 0, t1);
        if (cls) attroff(A_BOLD);
        attr_pair(t, value_pair(cls), 0);
        if (an->active == i) printw(" ..");
    }
    if (an->n + 1 <= avail) {
        char legend[200];
        snprintf(legend, sizeof legend, "%s", an->proven ? (session_mate_game(s) ? "* best; mate in N moves" : "* best; W/D/L in plies")
                                        : session_mate_game(s) ? "~ heuristic, in pawns" : "~ heuristic, not proven");
        if (s->v->game->players == 1)   /* a puzzle: the verdict from here */
            snprintf(legend, sizeof legend, "%s", !an->root_done ? "solving..." : an->root_lo > VAL_DRAW
                     ? "* hint; green: the goal can still be reached (w plays on)" : an->reason);
        int ly = y + 1 + an->n;
        attron(A_DIM);
        put_wrapped(ly, x, w, y + h - ly, legend);
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
    put_clipped(row++, x, w, br->title);
    attroff(A_BOLD);
    if (node < 0) {
        put_clipped(row++, x, w, "off the tree: u goes back");
        return row - y;
    }
    const browse_node_t *nd = &br->node[node];
    char npn[16], ndn[16];
    if (nd->pn >= DFPN_INF) snprintf(npn, sizeof npn, "inf"); else snprintf(npn, sizeof npn, "%u", nd->pn);
    if (nd->dn >= DFPN_INF) snprintf(ndn, sizeof ndn, "inf"); else snprintf(ndn, sizeof ndn, "%u", nd->dn);
    snprintf(line, sizeof line, "this node %s  pn %s dn %s, %d nodes, depth %d%s", nd->label, npn, ndn, nd->size,
             s->ply - s->br_ply0, nd->leaf ? " (a leaf)" : "");
    put_clipped(row++, x, w, line);
    int principal = nd->nchildren ? session_browse_principal(s, node) : -1;
    for (int c = nd->first; c < nd->first + nd->nchildren && row < y + h - 2; c++) {
        const browse_node_t *ch = &br->node[c];
        char mt[32], pn[16], dn[16];
        s->v->ops->move_format(s->v, session_pos(s), ch->move, mt, sizeof mt);
        if (ch->pn >= DFPN_INF) snprintf(pn, sizeof pn, "inf"); else snprintf(pn, sizeof pn, "%u", ch->pn);
        if (ch->dn >= DFPN_INF) snprintf(dn, sizeof dn, "inf"); else snprintf(dn, sizeof dn, "%u", ch->dn);
        snprintf(line, sizeof line, "%c%-5s %-5s pn %-5s dn %-5s %d nodes", c == principal ? '>' : ' ', mt, ch->label, pn, dn,
                 ch->size);
        put_clipped(row++, x, w, line);
    }
    attron(A_DIM);
    put_clipped(row++, x, w, nd->nchildren ? "f: follow >  a move: that child  u: back  x: close"
                                           : "a leaf: the analysis below goes on from here");
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
    put_clipped(y, x, w, line);
    attroff(A_BOLD);
    int row = y + 1;
    if (st->say) row += put_wrapped(row, x, w, y + h - row, st->say);   /* the narration */
    if (row < y + h - 1 && s->ply == 0 && st->nvalues) {   /* the published values, checked */
        out_t o = { 0 };
        int bad = session_lesson_check(s, &o);
        if (bad) attron(A_BOLD);
        if (o.buf) put_clipped(row++, x, w, strtok(o.buf, "\n"));
        if (bad) attroff(A_BOLD);
        out_free(&o);
    }
    attron(A_DIM);
    if (row < y + h)
        put_clipped(row++, x, w, s->lesson_tried || !st->nexpect ? "n: next step  b: back  u: take back"
                                                               : "Your move.  n: next step  b: back");
    attroff(A_DIM);
    return row - y;
}

static const char *const help_lines[] = {
    "Keys",
    "  arrows      move the cursor          Enter/space  play or select there",
    "  q r b n     a promotion (moves sharing their squares): pick one; Enter the first",
    "  mouse       click a cell or column   1-9          play that move (if it is one)",
    "  10, 11 ...  type both digits: Enter or a short pause ends a number",
    "  11-15, 1x10x19  type a move (a capture: every square, or from and last square)",
    "  #           the squares' numbers on the board (checkers: 1-32)",
    "  u / r       undo / redo              h            hint (best move; losing: slowest loss)",
    "  a           analysis pane on/off     v            value history (got / best per move)",
    "  o           change the opponent      s            change your side",
    "  n           new game (lesson: next step)   b      lesson: previous step",
    "  g           game picker (Esc: back)  t            show the board's classes (if any)",
    "  PgUp/PgDn   scroll the analysis pane when it does not fit",
    "  w           the solver plays on for you, move by move (any key stops it)",
    "  p           browse the proof tree    f / x        proof: follow its main line / close",
    "  :           command line: a command (help lists them) or a move (:e4, :O-O)",
    "  Ctrl-C      stop the analysis or the computer's move (a goes on)",
    "  q           quit (asks first in a game in progress)",
    "Values are for the player making the move: win/loss in N plies (score), draw.",
    "Green wins, yellow draws, red loses; ~ marks a heuristic guess, not a proof.",
    "",
    "Press any key.",
};
enum { HELP_LINES = (int)(sizeof help_lines / sizeof help_lines[0]) };

static void draw_help(tui_t *t)
{
    (void)t;
    const char *const *lines = help_lines;
    int n = HELP_LINES, w = 0;
    for (int i = 0; i < n; i++) if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
    int y0 = (LINES - n - 2) / 2, x0 = (COLS - w - 4) / 2;
    if (y0 < 0) y0 = 0;
    if (x0 < 0) x0 = 0;
    for (int i = -1; i <= n; i++) {
        move(y0 + 1 + i, x0);
        for (int k = 0; k < w + 4 && x0 + k < COLS; k++) addch(' ');
    }
    attron(A_BOLD);
    mvaddnstr(y0 + 1, x0 + 2, lines[0], COLS - x0 - 2);
    attroff(A_BOLD);
    for (int i = 1; i < n; i++) mvaddnstr(y0 + 1 + i, x0 + 2, lines[i], COLS - x0 - 2);
}

/* ?: the keys over the screen, or in the pager when they do not fit. */
static void help_open(tui_t *t)
{
    int w = 0;
    for (int i = 0; i < HELP_LINES; i++) if ((int)strlen(help_lines[i]) > w) w = (int)strlen(help_lines[i]);
    if (HELP_LINES + 2 <= LINES && w + 4 <= COLS) { t->show_help = 1; return; }
    char text[4096];
    size_t used = 0;
    for (int i = 1; i < HELP_LINES - 2 && used < sizeof text; i++)   /* not the title, not "Press any key" */
        used += (size_t)snprintf(text + used, sizeof text - used, "%s\n", help_lines[i]);
    pager_open(t, "Keys", text, 0);
}

static void draw_picker(tui_t *t)
{
    erase();
    attron(A_BOLD);
    mvaddnstr(0, 1, "gsw - a game-solving workbench.  Pick a game (arrows, Enter; q quits)", COLS - 2);
    attroff(A_BOLD);
    int h = LINES - 5, first = t->pick >= h ? t->pick - h + 1 : 0;
    for (int i = first; i < t->nitems && i - first < h; i++) {
        if (i == t->pick) attron(A_REVERSE);
        mvaddnstr(2 + i - first, 2, t->items[i].label, COLS - 3);
        if (i == t->pick) attroff(A_REVERSE);
    }
    char op[48], line[200];
    opponent_text(&t->s.opp, op, sizeof op);
    const char *side = t->s.human[0] && t->s.human[1] ? "both sides" : t->s.human[0] ? "first" : t->s.human[1] ? "second" : "neither (watch)";
    snprintf(line, sizeof line, "You play: %s (s to change)   Opponent: %s (o to change)   ? help", side, op);
    mvaddnstr(LINES - 2, 1, line, COLS - 2);
    if (t->confirm_quit) {
        attron(A_BOLD);
        mvaddnstr(LINES - 1, 1, "quit? the game in progress is lost (y/n)", COLS - 2);
        attroff(A_BOLD);
    } else if (t->have_game) {
        mvaddnstr(LINES - 1, 1, "Esc: back to the game", COLS - 2);
    }
}

/* The width of the board's column: the board, at least wide enough for the
 * turn and the result under it in two lines. */
static int left_width(const tui_t *t) { int bw = board_width(t, &t->view); return bw > 24 ? bw : 24; }

static int tui_min_size(tui_t *t, int *mw, int *mh)
{
    const board_view_t *v = &t->view;
    *mw = left_width(t) + 2 + 26 + 2 + 20;
    *mh = 1 + v->rows + 2 + (v->drop ? 1 : 0) + 4;
    if (*mh < 14) *mh = 14;
    if (*mw < 60) *mw = 60;
    return COLS >= *mw && LINES >= *mh;
}

/* The message area: the newest messages, wrapped, the newest at the bottom. */
static void draw_messages(tui_t *t, int y, int rows, int w)
{
    enum { MAXL = 16 };
    int bottom = y + rows;
    for (int k = t->nmsg - 1; k >= 0 && bottom > y; k--) {
        int off[MAXL], len[MAXL];
        int n = wrap_text(t->msg[k], w, off, len, MAXL);
        if (n > MAXL) n = MAXL;
        if (n > bottom - y) {
            if (k != t->nmsg - 1) break;   /* an older one that does not fit whole: left out */
            n = bottom - y;                /* the newest: its first lines */
        }
        bottom -= n;
        for (int i = 0; i < n; i++)
            if (len[i]) mvaddnstr(bottom + i, 1, t->msg[k] + off[i], len[i]);
    }
}

/* The words for a window too small to draw the board in (wrapped over the
 * whole screen); keys other than q are ignored until it is larger. */
static void draw_too_small(tui_t *t, int mw, int mh)
{
    char text[600];
    int n = snprintf(text, sizeof text, "The window is too small: need %dx%d, have %dx%d. Enlarge it to go on; until "
                     "then keys are ignored (q quits).", mw, mh, COLS, LINES);
    if (t->confirm_quit && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, "\nQuit? The game in progress is lost (y/n)");
    else if (t->small_ignored && n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, "\n(key ignored: the board is not on screen)");
    put_wrapped(0, 0, COLS, LINES, text);
}

static void draw_game(tui_t *t)
{
    session_t *s = &t->s;
    if (s->v->ops->view) s->v->ops->view(s->v, session_pos(s), &t->view);
    else { memset(&t->view, 0, sizeof t->view); t->view.rows = 1; t->view.cols = 1; }
    t->cell_w = 2;   /* one more column when a label is wider than one (column 10) */
    for (int c = 0; c < t->view.cols && c < GSW_VIEW_MAX_SIDE; c++) {
        int lw = (int)strlen(t->view.col_label[c]);
        if (lw + 1 > t->cell_w) t->cell_w = lw + 1;
    }
    int plain_w = t->cell_w, mw, mh;
    for (int i = 0; s->numbers && i < t->view.rows * t->view.cols; i++) {   /* the squares' numbers, on request */
        int nw = (int)strlen(t->view.cell[i].name) + 2;
        if (nw > t->cell_w) t->cell_w = nw;
    }
    t->names_need = 0;
    if (t->cell_w > plain_w && !tui_min_size(t, &mw, &mh)) {   /* names that do not fit (chess's a1-h8): left out, said */
        t->names_need = mw;
        t->cell_w = plain_w;
    }
    erase();
    if (!tui_min_size(t, &mw, &mh)) {
        if (!t->too_small) t->small_ignored = 0;
        t->too_small = 1;
        draw_too_small(t, mw, mh);
        return;
    }
    t->too_small = 0;
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
    mvaddnstr(0, 0, title, COLS - 9);   /* clear of "? help" */
    mvaddnstr(0, COLS - 8 > 0 ? COLS - 8 : 0, "? help", 7);
    attroff(A_REVERSE);

    int bh = 0;
    t->left_w = left_width(t);
    if (s->v->ops->view) bh = draw_board(t, 2, 0);
    else { char pt[512]; s->v->ops->pos_format(s->v, session_pos(s), pt, sizeof pt); mvaddnstr(2, 1, pt, COLS - 2); bh = 1; }
    int px = t->left_w + 2, pw = COLS - px, top = 2, h = LINES - 5 - top;
    if (bh + 3 > h) h = bh + 3;
    int w1 = t->show_history ? 36 : 22;
    if (w1 > pw / 2) w1 = pw / 2;
    if (s->br) {
        int used = draw_proof(t, top, px, pw - 1, h - 2);   /* every child, the analysis below */
        draw_analysis(t, top + used + 1, px, pw - 1, h - used - 1);
    } else if (s->lesson) {   /* the step, then every move's value under it */
        analysis_t *an = s->an[s->ply];
        int need = (an ? an->n : 1) + 3, hl = h - need - 1;
        if (hl < 6) hl = h < 6 ? h : 6;
        int used = draw_lesson(t, top, px, pw - 1, hl);
        draw_analysis(t, top + used + 1, px, pw - 1, h - used - 1);
    } else {
        draw_moves(t, top, px, w1, h);
        draw_analysis(t, top, px + w1 + 2, pw - w1 - 3, h);
    }
    /* under the board, within its column: whose turn, or the result */
    val_t tv;
    char line[256], why[64];
    int y = top + bh + 1, rows = LINES - 4 - y;
    if (session_over_why(s, &tv, why, sizeof why)) {
        if (s->v->game->players == 1) snprintf(line, sizeof line, "Game over: %s", tv > VAL_DRAW ? "solved!" : "no moves left");
        else if (tv == VAL_DRAW) snprintf(line, sizeof line, "Game over: a draw%s%s%s", why[0] ? " (" : "", why, why[0] ? ")" : "");
        else snprintf(line, sizeof line, "Game over: %s wins%s%s%s", t->view.side[tv < VAL_DRAW ? 1 - session_turn(s) : session_turn(s)],
                      why[0] ? " (" : "", why, why[0] ? ")" : "");
        attron(A_BOLD);
        put_wrapped(y, 1, t->left_w - 1, rows, line);
        attroff(A_BOLD);
    } else if (s->v->game->players == 2) {
        int turn = session_turn(s), comp = session_computer_to_move(s);
        char note[64];
        snprintf(line, sizeof line, "%s to move%s", t->view.side[turn],
                 !comp ? "" : t->paused ? " (computer stopped: a lets it move)" : " (computer thinking)");
        int used = put_wrapped(y, 1, t->left_w - 1, rows, line);
        if (t->names_need) {
            snprintf(line, sizeof line, "(square names: the window needs %d columns)", t->names_need);
            attron(A_DIM);
            used += put_wrapped(y + used, 1, t->left_w - 1, rows - used, line);
            attroff(A_DIM);
        }
        if (session_note(s, note, sizeof note)) {   /* a rule restricts the moves: said, and its pieces marked */
            snprintf(line, sizeof line, "%c%s", note[0] >= 'a' && note[0] <= 'z' ? note[0] - 'a' + 'A' : note[0], note + 1);
            attron(A_BOLD);
            put_wrapped(y + used, 1, t->left_w - 1, rows - used, line);
            attroff(A_BOLD);
        }
    }
    /* messages */
    draw_messages(t, LINES - 4, 3, COLS - 2);
    /* status line */
    char status[700] = "", part[64];
    pthread_mutex_lock(&t->w.mu);
    int busy = t->w.busy;
    if (t->w.error[0]) snprintf(status, sizeof status, "error: %s", t->w.error);
    else if (busy) snprintf(status, sizeof status, "working: %s  (Ctrl-C stops)", t->w.progress);
    pthread_mutex_unlock(&t->w.mu);
    char choice[400];
    if (t->confirm_quit) snprintf(status, sizeof status, "quit? the game in progress is lost (y/n)");
    else if (session_choices(s, choice, sizeof choice)) snprintf(status, sizeof status, "choose: %s", choice);
    else if (t->digits[0])
        snprintf(status, sizeof status, "move %s_  (Enter plays it, Esc cancels)", t->digits);
    else if (session_partial(s, part, sizeof part))   /* before the worker's progress: the person is mid-move */
        snprintf(status, sizeof status, "move %s...: the next square it lands on (Enter or a click; Esc cancels)", part);
    else if (!status[0] && t->paused && session_computer_to_move(s) && !session_over(s, NULL))
        snprintf(status, sizeof status, "computer's move stopped (a lets it move, u takes yours back)");
    else if (!status[0] && t->paused) snprintf(status, sizeof status, "analysis stopped (a resumes)");
    attron(A_REVERSE);
    move(LINES - 1, 0);
    for (int x = 0; x < COLS; x++) addch(' ');
    mvaddnstr(LINES - 1, 1, status[0] ? status : ": command   ? help   q quit", COLS - 2);
    attroff(A_REVERSE);
}

static void tui_draw(tui_t *t)
{
    if (t->screen == SCREEN_PICKER) draw_picker(t);
    else draw_game(t);
    if (t->pager && !(t->screen == SCREEN_GAME && t->too_small)) draw_pager(t);
    if (t->show_help) draw_help(t);
    if (t->cmdline) {   /* readline's line at the bottom */
        move(LINES - 1, 0);
        clrtoeol();
        mvaddnstr(LINES - 1, 0, rl_display_prompt ? rl_display_prompt : ":", COLS);
        addnstr(rl_line_buffer, COLS - 2);
        move(LINES - 1, (int)strlen(rl_display_prompt ? rl_display_prompt : ":") + rl_point);
        curs_set(1);
    } else {
        curs_set(0);
    }
    refresh();
}

/* ---- the worker's jobs ---- */

static int tui_wants_analysis(tui_t *t)
{
    session_t *s = &t->s;
    return t->analysis_on || s->hint_wanted || s->solve_wanted || s->lesson || s->autoplay
           || (session_computer_to_move(s) && session_needs_proof(s));
}

static void tui_merge(tui_t *t)
{
    session_t *s = &t->s;
    worker_t *w = &t->w;
    pthread_mutex_lock(&w->mu);
    if (w->seq == t->seen_seq) { pthread_mutex_unlock(&w->mu); return; }
    t->seen_seq = w->seq;
    int ply = w->done_ply;
    char spec[96];
    game_spec(s->v, spec, sizeof spec);
    /* the result counts only if the session still has that position */
    int same = ply >= 0 && ply <= s->top && !strcmp(spec, t->job.spec)
               && !memcmp(w->done_pos.b, s->pos[ply].b, s->v->ops->pos_size);
    if (same && w->done_kind == JOB_ANALYZE) {
        analysis_t *an = session_analysis_open(s, ply);
        if (an) *an = w->done_an;
    } else if (same && w->done_kind == JOB_THINK && w->finished) {
        s->think_ply = ply;
        s->think_move = w->done_move;
    }
    pthread_mutex_unlock(&w->mu);
}

static void tui_schedule(tui_t *t)
{
    session_t *s = &t->s;
    job_t want = { 0 };
    int ply = -1;
    if (!t->paused && !session_over(s, NULL)) {
        if (session_computer_to_move(s) && s->opp.kind == OPP_HEURISTIC && s->think_ply != s->ply) {
            want.kind = JOB_THINK;
            want.level = s->opp.level;
            ply = s->ply;
            for (int i = 0; i < ply; i++) want.line[i] = s->v->ops->pos_hash(s->v, s->pos[i].b);
            want.nline = ply;
        } else if (tui_wants_analysis(t) && !session_analysis_done(s->an[s->ply])) {
            want.kind = JOB_ANALYZE;
            ply = s->ply;
        }
    }
    if (!want.kind && !t->paused && (t->analysis_on || t->show_history)) {
        for (int i = s->top - 1; i >= 0; i--)   /* back-fill the value history */
            if (!session_analysis_done(s->an[i])) { want.kind = JOB_ANALYZE; ply = i; break; }
    }
    if (want.kind) {
        game_spec(s->v, want.spec, sizeof want.spec);
        want.ply = ply;
        want.pos_size = s->v->ops->pos_size;
        memcpy(want.pos.b, s->pos[ply].b, want.pos_size);
    }
    int same = want.kind && t->job.kind == want.kind && t->job.ply == want.ply && !strcmp(t->job.spec, want.spec)
               && !memcmp(t->job.pos.b, want.pos.b, want.pos_size);
    if (worker_idle(&t->w)) {
        tui_merge(t);
        if (!want.kind) { t->job.kind = JOB_NONE; return; }
        if (same && want.kind == JOB_THINK && s->think_ply == s->ply) return;
        if (want.kind == JOB_ANALYZE) {   /* go on from what is known */
            analysis_t *an = session_analysis_open(s, ply);
            if (!an) return;
            want.an = *an;
            if (same && session_analysis_done(an)) return;
        }
        t->job = want;
        worker_submit(&t->w, &t->job);
    } else if (!same) {
        worker_cancel(&t->w);
    }
}

/* ---- input ---- */

/* Commands whose text the screen already shows in a pane of its own (a
 * lesson's step, the proof browser): their output stays in the message area. */
static int cmd_has_pane(const char *line)
{
    char w[16] = "", arg[8] = "";
    if (sscanf(line, "%15s %7s", w, arg) < 1) return 0;
    return (!strcmp(w, "lesson") && arg[0]) || !strcmp(w, "next") || !strcmp(w, "back") || !strcmp(w, "proof")
           || !strcmp(w, "follow");
}

/* Run a command line. Its output goes to the message area, or, when paged
 * (the ':' line) and longer than the area's three rows, to the pager. */
static void tui_exec_to(tui_t *t, const char *line, int paged)
{
    out_t o = { 0 };
    err_t err;
    int rc = session_exec(&t->s, line, &o, &err);
    if (paged && o.len && COLS > 2 && wrap_text(o.buf, COLS - 2, NULL, NULL, 0) > 3 && !cmd_has_pane(line)) {
        char title[64];
        snprintf(title, sizeof title, ":%.60s", line);
        pager_open(t, title, o.buf, 0);
        out_clear(&o);
    }
    tui_say_out(t, &o);
    if (rc) tui_say(t, err.msg);
    t->paused = 0;
    if (!strncmp(line, "analy", 5)) t->analysis_on = 1;
    out_free(&o);
}

static void tui_exec(tui_t *t, const char *line) { tui_exec_to(t, line, 0); }

static void rl_line(char *line)
{
    tui_t *t = T;
    t->cmdline = 0;
    rl_callback_handler_remove();
    if (t->pager_passive) pager_close(t);   /* the completion list goes with the line */
    if (!line) return;
    if (*line) {
        add_history(line);
        tui_exec_to(t, line, 1);
        if (t->s.lesson && t->screen != SCREEN_GAME) t->screen = SCREEN_GAME;
    }
    free(line);
}

static int rl_key_value, rl_key_ready;
static int rl_getc_tui(FILE *f) { (void)f; rl_key_ready = 0; return rl_key_value; }
static int rl_avail_tui(void) { return rl_key_ready; }
static void rl_redisplay_tui(void) { tui_draw(T); }

/* Tab's candidates in columns: in the message area when they fit in its
 * three rows, else in the pager over the screen (the line stays open under
 * it; PgUp/PgDn scroll it). */
static void rl_matches_tui(char **matches, int n, int maxlen)
{
    tui_t *t = T;
    int colw = maxlen + 2, w = COLS - 2 < 158 ? COLS - 2 : 158;
    if (w < 1) w = 1;
    int per = w / colw > 0 ? w / colw : 1, rows = (n + per - 1) / per;
    size_t cap = (size_t)rows * ((size_t)per * (size_t)colw + (size_t)maxlen + 2) + 1, used = 0;
    char *buf = malloc(cap);
    if (!buf) return;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < per; c++) {
            int i = c * rows + r;   /* down the columns, as readline lists them */
            if (i >= n) break;
            int last = c + 1 == per || i + rows >= n;
            used += (size_t)snprintf(buf + used, cap - used, "%-*s", last ? 0 : colw, matches[i + 1]);
        }
        used += (size_t)snprintf(buf + used, cap - used, "\n");
    }
    if (rows <= 3) {
        if (t->pager_passive) pager_close(t);
        tui_say(t, buf);
    } else {
        pager_open(t, "Tab: the candidates", buf, 1);
    }
    free(buf);
}

static void cmdline_open(tui_t *t)
{
    t->cmdline = 1;
    rl_callback_handler_install(":", rl_line);
}

static void cmdline_close(tui_t *t)
{
    rl_callback_handler_remove();
    t->cmdline = 0;
    if (t->pager_passive) pager_close(t);
}

static void cmdline_key(tui_t *t, int ch)
{
    switch (ch) {
    case KEY_LEFT: rl_backward_char(1, 0); break;
    case KEY_RIGHT: rl_forward_char(1, 0); break;
    case KEY_UP: rl_get_previous_history(1, 0); break;
    case KEY_DOWN: rl_get_next_history(1, 0); break;
    case KEY_HOME: rl_beg_of_line(1, 0); break;
    case KEY_END: rl_end_of_line(1, 0); break;
    case KEY_DC: rl_delete(1, 0); break;
    case KEY_PPAGE: case KEY_NPAGE:   /* scroll the completion list */
        if (t->pager) pager_scroll(t, ch);
        break;
    case KEY_BACKSPACE: rl_key_value = 127; rl_key_ready = 1; rl_callback_read_char(); return;
    case 27:   /* Escape closes the line */
        cmdline_close(t);
        return;
    default:
        if (ch < 0 || ch > 255) return;
        rl_key_value = ch;
        rl_key_ready = 1;
        rl_callback_read_char();
        return;
    }
    rl_redisplay_tui();
}

/* The pager's keys: scrolling, and q, Esc or Enter to close it. */
static void pager_key(tui_t *t, int ch)
{
    if (pager_scroll(t, ch)) return;
    switch (ch) {
    case ' ': pager_scroll(t, KEY_NPAGE); break;
    case 'b': pager_scroll(t, KEY_PPAGE); break;
    case 'q': case 27: case '\n': case '\r': case KEY_ENTER: pager_close(t); break;
    case ':': pager_close(t); cmdline_open(t); break;
    }
}

static void cycle_opponent(tui_t *t)
{
    static const char *const all[] = { "perfect", "imperfect:75", "giveback:1", "heuristic:1", "heuristic:3",
                                       "heuristic:5", "heuristic:7", "heuristic:9", "human", NULL };
    /* where perfect play is out of reach (the game names a first opponent), the
       opponents that wait for proofs would never move: left out (":opponent perfect" still sets one) */
    const char *const *cyc = t->s.v->game->play_opponent ? all + 3 : all;
    char cur[48];
    opponent_text(&t->s.opp, cur, sizeof cur);
    char *pct = strchr(cur, '%');
    if (pct) *pct = 0;
    int i = 0;
    while (cyc[i] && strcmp(cyc[i], cur)) i++;
    const char *next = cyc[i] && cyc[i + 1] ? cyc[i + 1] : cyc[0];
    char line[64];
    snprintf(line, sizeof line, "opponent %s", next);
    tui_exec(t, line);
}

static void cycle_side(tui_t *t)
{
    session_t *s = &t->s;
    const char *next = s->human[0] && !s->human[1] ? "second" : !s->human[0] && s->human[1] ? "both"
                     : s->human[0] && s->human[1] ? "none" : "first";
    char line[32];
    snprintf(line, sizeof line, "side %s", next);
    tui_exec(t, line);
}

/* A game with moves made and not over (lessons aside): q asks first. */
static int game_in_progress(tui_t *t)
{
    session_t *s = &t->s;
    return !s->lesson && s->ply > 0 && !session_over(s, NULL);
}

static void tui_quit(tui_t *t)
{
    if (game_in_progress(t)) t->confirm_quit = 1;
    else t->s.quit = 1;
}

/* Ctrl-C: stop the worker's job (the analysis, or the computer's move); it
 * never quits. */
static void tui_interrupt(tui_t *t)
{
    session_t *s = &t->s;
    worker_cancel(&t->w);
    t->paused = 1;
    s->hint_wanted = s->solve_wanted = 0;
    if (s->autoplay) { s->autoplay = 0; tui_say(t, "autoplay stopped"); }
    if (session_computer_to_move(s) && !session_over(s, NULL))
        tui_say(t, "computer's move stopped: a lets it move, u takes yours back");
    else tui_say(t, "analysis stopped; a resumes it");
}

static void start_pick(tui_t *t)
{
    pick_item_t *it = &t->items[t->pick];
    char line[256];
    if (it->spec[0]) snprintf(line, sizeof line, "new %s", it->spec);
    else snprintf(line, sizeof line, "lesson %s", it->lesson);
    out_t o = { 0 };
    err_t err;
    if (session_exec(&t->s, line, &o, &err)) tui_say(t, err.msg);
    else {
        t->screen = SCREEN_GAME;
        t->have_game = 1;
        t->paused = 0;
        t->nmsg = 0;
        if (t->s.lesson) { out_clear(&o); session_lesson_say(&t->s, &o); }
        else tui_say_welcome(t);
        if (t->s.lesson) tui_say_out(t, &o);
    }
    out_free(&o);
}

static void key_picker(tui_t *t, int ch)
{
    switch (ch) {
    case KEY_UP: if (t->pick > 0) t->pick--; break;
    case KEY_DOWN: if (t->pick + 1 < t->nitems) t->pick++; break;
    case KEY_PPAGE: t->pick = t->pick > 10 ? t->pick - 10 : 0; break;
    case KEY_NPAGE: t->pick = t->pick + 10 < t->nitems ? t->pick + 10 : t->nitems - 1; break;
    case '\n': case '\r': case KEY_ENTER: case ' ': start_pick(t); break;
    case 'o': cycle_opponent(t); break;
    case 's': cycle_side(t); break;
    case '?': help_open(t); break;
    case 27: if (t->have_game) t->screen = SCREEN_GAME; break;   /* back to the game in progress */
    case 'q': tui_quit(t); break;
    case KEY_MOUSE: {
        MEVENT e;
        if (getmouse(&e) == OK && (e.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))) {
            int h = LINES - 5, first = t->pick >= h ? t->pick - h + 1 : 0, i = first + e.y - 2;
            if (i >= 0 && i < t->nitems && e.y >= 2) { t->pick = i; start_pick(t); }
        }
        break;
    }
    }
}

/* A move was played: the old messages are stale. */
static void tui_played(tui_t *t)
{
    session_t *s = &t->s;
    out_t o = { 0 };
    t->nmsg = 0;
    t->paused = 0;
    if (s->lesson) { session_lesson_judge(s, &o); tui_say_out(t, &o); }
    out_free(&o);
}

/* The computer is to move: a person's move waits (said why). */
static int computer_turn(tui_t *t)
{
    if (!session_computer_to_move(&t->s)) return 0;
    tui_say(t, t->paused ? "the computer's move is stopped: a lets it move, u takes yours back"
                         : "wait: the computer is to move");
    return 1;
}

/* ---- a move typed: it starts with a digit; column 1 plays at once on a
 * board of 9, on a wider one 1 waits for a second digit (10, 11, ...),
 * Enter or a pause; a move with separators (11-15, 1x10x19, or from and
 * last square 1x19) plays once it names a move no longer one begins with
 * ---- */

/* Does a legal move's text begin with the text typed and go on? */
static int digits_longer(tui_t *t)
{
    session_t *s = &t->s;
    move_t mv[GSW_MAX_MOVES];
    size_t n = strlen(t->digits);
    int k = s->v->ops->moves(s->v, session_pos(s), mv);
    for (int i = 0; i < k; i++) {
        char mt[64];
        s->v->ops->move_format(s->v, session_pos(s), mv[i], mt, sizeof mt);
        if (strlen(mt) > n && !strncmp(mt, t->digits, n)) return 1;
    }
    return 0;
}

/* Does the text typed name a legal move? */
static int digits_parse(tui_t *t, move_t *m, err_t *err)
{
    session_t *s = &t->s;
    return s->v->ops->move_parse(s->v, session_pos(s), t->digits, m, err) == GSW_OK;
}

static void digits_play(tui_t *t)
{
    session_t *s = &t->s;
    move_t m;
    err_t err;
    if (!t->digits[0]) return;
    if (computer_turn(t)) { t->digits[0] = 0; return; }
    int ok = digits_parse(t, &m, &err);
    t->digits[0] = 0;
    if (!ok) { tui_say(t, err.msg); return; }
    if (session_play(s, m, &err)) tui_say(t, err.msg);
    else tui_played(t);
}

/* A key while a move is typed: 1 if it belongs to the move (a digit, a
 * separator after a digit, or a character a legal move's text has there). */
static int digits_key(tui_t *t, int ch)
{
    size_t n = strlen(t->digits);
    if (ch < 0 || ch > 126) return 0;
    int digit = ch >= '0' && ch <= '9';
    if (!digit) {
        if (!n || t->digits[n - 1] < '0' || t->digits[n - 1] > '9') return 0;
        int sep = ch == '-' || ch == ':' || ch == '/';
        if (!sep) {   /* a letter that continues a legal move (the x of 1x10) */
            t->digits[n] = (char)ch;
            t->digits[n + 1] = 0;
            int longer = digits_longer(t);
            t->digits[n] = 0;
            if (!longer) return 0;
        }
    }
    if (computer_turn(t)) { t->digits[0] = 0; return 1; }
    if (n + 1 >= sizeof t->digits) return 1;
    t->digits[n] = (char)ch;
    t->digits[n + 1] = 0;
    move_t m;
    err_t err;
    int names = digits_parse(t, &m, &err), longer = digits_longer(t);
    if (names && !longer) digits_play(t);                     /* complete: played now */
    else if (names) t->digits_at = now_ms() + 600;            /* column 1 of 10: a pause plays it */
    else if (!longer && strspn(t->digits, "0123456789") == n + 1) digits_play(t);   /* no move begins so: why */
    else t->digits_at = 0;                                    /* not a move yet: Enter plays it or says why */
    return 1;
}

static void key_game(tui_t *t, int ch)
{
    session_t *s = &t->s;
    err_t err;
    out_t o = { 0 };
    int played = 0;
    if (s->autoplay) {   /* any key stops the solver playing on (at the end it has stopped already) */
        int over = session_over(s, NULL);
        s->autoplay = 0;
        if (!over) { tui_say(t, "autoplay stopped"); return; }
    }
    if (t->digits[0]) {   /* a move being typed: Enter ends it, Esc drops it */
        if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) { digits_play(t); return; }
        if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) { t->digits[strlen(t->digits) - 1] = 0; t->digits_at = 0; return; }
        if (ch == 27) { t->digits[0] = 0; return; }
        if (digits_key(t, ch)) return;
        t->digits[0] = 0;   /* another key: the move typed is dropped */
    }
    if (s->nchoice) {   /* a click named several moves (a promotion): a key picks one */
        if (ch == 27) { session_choice_cancel(s); return; }
        if (ch == KEY_MOUSE) {
            session_choice_cancel(s);   /* a click elsewhere: the choice goes, the click counts */
        } else {
            int r = ch == KEY_ENTER ? session_choose(s, '\n', &err) : ch >= 0 && ch < 256 ? session_choose(s, ch, &err) : 0;
            if (r < 0) tui_say(t, err.msg);
            else if (r > 0) tui_played(t);
            else tui_say(t, "choose one of the moves on the status line by its key (Enter: the first; Esc cancels)");
            return;
        }
    }
    switch (ch) {
    case KEY_LEFT: session_cursor_move(s, 0, -1); break;
    case KEY_RIGHT: session_cursor_move(s, 0, 1); break;
    case KEY_UP: session_cursor_move(s, -1, 0); break;
    case KEY_DOWN: session_cursor_move(s, 1, 0); break;
    case KEY_NPAGE: t->an_top += t->an_shown > 0 ? t->an_shown : 1; break;   /* the analysis pane, when cut */
    case KEY_PPAGE: t->an_top -= t->an_shown > 0 ? t->an_shown : 1; if (t->an_top < 0) t->an_top = 0; break;
    case '\n': case '\r': case KEY_ENTER: case ' ': {
        if (computer_turn(t)) break;
        int r = session_click(s, s->cursor, &err);
        if (r < 0) tui_say(t, err.msg);
        played = r == 1;   /* (2: a move entered one square further) */
        break;
    }
    case KEY_MOUSE: {
        MEVENT e;
        if (getmouse(&e) != OK || !(e.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))) break;
        int r = e.y - t->board_y, c = (e.x - t->board_x) / t->cell_w;
        if (e.x < t->board_x || c >= t->view.cols || r >= t->view.rows || (r < 0 && !(t->view.drop && r == -1))) break;
        if (r < 0) r = 0;
        s->cursor = r * t->view.cols + c;
        if (computer_turn(t)) break;
        int k = session_click(s, s->cursor, &err);
        if (k < 0) tui_say(t, err.msg);
        played = k == 1;
        break;
    }
    case 'u': tui_exec(t, "undo"); break;
    case 'r': tui_exec(t, "redo"); break;
    case 'h': tui_exec(t, "hint"); break;
    case 'a':
        if (t->paused) {   /* go on: the analysis, or the computer's move (the pane stays as it was) */
            t->paused = 0;
            if (!session_computer_to_move(s)) t->analysis_on = 1;
        } else {
            t->analysis_on = !t->analysis_on;
        }
        break;
    case 'v': t->show_history = !t->show_history; break;
    case 'w': tui_exec(t, "autoplay"); break;
    case 't': t->show_tags = !t->show_tags; break;
    case 'p': t->nmsg = 0; tui_say(t, "proving..."); tui_draw(t); t->nmsg = 0; tui_exec(t, "proof"); break;
    case 'f': if (s->br) { t->nmsg = 0; tui_exec(t, "follow"); } break;
    case 'x': if (s->br) tui_exec(t, "proof off"); break;
    case 'o': cycle_opponent(t); break;
    case 's': cycle_side(t); break;
    case 'n':
        t->nmsg = 0;
        if (s->lesson) tui_exec(t, "next");
        else tui_exec(t, "new");
        if (s->lesson) { session_lesson_say(s, &o); tui_say_out(t, &o); }
        break;
    case 'b':
        if (s->lesson) {
            t->nmsg = 0;
            tui_exec(t, "back");
            session_lesson_say(s, &o);
            tui_say_out(t, &o);
        }
        break;
    case 'g': picker_fill(t); t->screen = SCREEN_PICKER; break;
    case ':': cmdline_open(t); break;
    case '?': help_open(t); break;
    case 'q': tui_quit(t); break;
    case 27: s->selected = -1; s->npath = 0; break;
    case '#': tui_exec(t, "numbers"); break;
    default:
        if (ch >= '0' && ch <= '9') digits_key(t, ch);   /* a move typed: its first digit */
    }
    if (played) tui_played(t);
    out_free(&o);
}

/* The solver's next move for autoplay, once its pause is over; ends
 * autoplay at the end of the game or when there is nothing to play. */
static move_t tui_autoplay(tui_t *t)
{
    session_t *s = &t->s;
    if (session_over(s, NULL)) { s->autoplay = 0; return MOVE_NONE; }
    analysis_t *an = s->an[s->ply];
    if (s->v->game->players == 1 && an && an->root_done && an->root_lo < VAL_DRAW) {
        s->autoplay = 0;
        tui_say(t, an->reason);
        return MOVE_NONE;
    }
    double now = now_ms();
    if (now < t->autoplay_at) return MOVE_NONE;
    move_t m = session_autoplay_move(s);
    if (m == MOVE_NONE) return MOVE_NONE;
    t->autoplay_at = now + 700;
    if (s->autoplay > 0) s->autoplay--;
    t->nmsg = 0;
    return m;
}

static void tui_signal(int sig)
{
    tui_signalled = sig;
}

static void tui_end(void)
{
    if (!isendwin()) endwin();
}

/* The workbench: the picker (no game named), a game, or a command to start
 * with ("lesson NAME"). */
static int tui_run(cli_opts_t *o, const char *first)
{
    if (!isatty(0) || !isatty(1)) {
        fprintf(stderr, "gsw: not a terminal: the workbench needs one. For scripts use `gsw shell` "
                        "(reads commands from a pipe) or the CLI verbs (gsw help)\n");
        return GSW_EINPUT;
    }
    if (tui_term_check()) return GSW_EFAIL;   /* said on stderr, before anything is drawn */
    static tui_t t;
    err_t err;
    memset(&t, 0, sizeof t);
    T = &t;
    int picker = o->npos == 0 && !first;
    if (shell_session_open(o, &t.s, "connect4", &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        if (o->no_cache || strncmp(err.msg, "cache ", 6)) return err.code;
        /* the cache will not open: offer to go on without it (nothing is lost: the file is left as it is) */
        fprintf(stderr, "Start without the cache (nothing will be stored)? [y/N] ");
        fflush(stderr);
        char answer[16];
        if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) return err.code;
        o->no_cache = 1;
        if (shell_session_open(o, &t.s, "connect4", &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    }
    if (!o->opponent && !o->side) { t.s.human[0] = 1; t.s.human[1] = 0; }   /* default: you first, against the game's opponent */
    char db[1024] = "";
    if (!o->no_cache) {
        if (o->db) snprintf(db, sizeof db, "%s", o->db);
        else if (cache_default_path(db, sizeof db, &err)) db[0] = 0;
    }
    if (worker_start(&t.w, db, o->hash_mb, o->threads, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        shell_session_close(&t.s, &err);
        return GSW_EFAIL;
    }
    setlocale(LC_ALL, "");
    t.unicode = !o->ascii && !strcmp(nl_langinfo(CODESET), "UTF-8");
    t.cell_w = 2;
    t.analysis_on = 1;
    t.s.proof_nodes = 10000000;   /* p waits for the proof: a few seconds at most */
    atexit(tui_end);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tui_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    initscr();
    raw();   /* Ctrl-C arrives as a key: it stops work, it does not quit */
    noecho();
    keypad(stdscr, TRUE);
    if (!getenv("ESCDELAY")) set_escdelay(100);   /* Esc is a key here (close, cancel, back): no second's wait */
    timeout(100);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED, NULL);
    mouseinterval(0);
    t.colour = !o->mono && has_colors() && !getenv("NO_COLOR");
    if (t.colour) {
        start_color();
        use_default_colors();
        init_pair(PAIR_P0, COLOR_RED, -1);
        init_pair(PAIR_P1, COLOR_YELLOW, -1);
        init_pair(PAIR_NEUTRAL, COLOR_CYAN, -1);
        init_pair(PAIR_WIN, COLOR_GREEN, -1);
        init_pair(PAIR_DRAW, COLOR_YELLOW, -1);
        init_pair(PAIR_LOSS, COLOR_RED, -1);
        init_pair(PAIR_DARK, -1, COLOR_BLUE);
        init_pair(PAIR_P0_DARK, COLOR_RED, COLOR_BLUE);
        init_pair(PAIR_P1_DARK, COLOR_YELLOW, COLOR_BLUE);
        init_pair(PAIR_NEUTRAL_DARK, COLOR_CYAN, COLOR_BLUE);
        init_pair(PAIR_P0_MUST, COLOR_RED, COLOR_WHITE);
        init_pair(PAIR_P1_MUST, COLOR_YELLOW, COLOR_WHITE);
        init_pair(PAIR_NEUTRAL_MUST, COLOR_CYAN, COLOR_WHITE);
        init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_WHITE);
        init_pair(PAIR_TAG, COLOR_MAGENTA, -1);
    }
    /* readline on the bottom line, fed key by key */
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = NULL;
    rl_deprep_term_function = NULL;
    rl_getc_function = rl_getc_tui;
    rl_input_available_hook = rl_avail_tui;
    rl_redisplay_function = rl_redisplay_tui;
    rl_completion_display_matches_hook = rl_matches_tui;
    complete_install(&t.s);
    complete_history_load();
    picker_fill(&t);
    t.screen = picker ? SCREEN_PICKER : SCREEN_GAME;
    t.have_game = !picker;
    if (!picker) tui_say_welcome(&t);
    if (first) {
        t.nmsg = 0;
        tui_exec(&t, first);
    }
    out_t out = { 0 };
    while (!t.s.quit && !tui_signalled) {
        if (t.screen == SCREEN_GAME) {
            tui_merge(&t);
            if (session_poll(&t.s, &out)) tui_say_out(&t, &out);
            tui_schedule(&t);
            move_t m = t.paused ? MOVE_NONE : session_computer_move(&t.s);   /* Ctrl-C holds it until a */
            /* autoplay waits while the board is not on screen, and a typed number is dropped */
            if (m == MOVE_NONE && t.s.autoplay && !session_computer_to_move(&t.s) && !t.too_small) m = tui_autoplay(&t);
            if (m != MOVE_NONE) {
                char mt[32], line[64];
                t.s.v->ops->move_format(t.s.v, session_pos(&t.s), m, mt, sizeof mt);
                if (!session_play(&t.s, m, &err)) {
                    snprintf(line, sizeof line, "gsw plays %s", mt);
                    tui_say(&t, line);
                }
            }
        }
        if (t.screen == SCREEN_GAME && t.digits[0]) {   /* a pause ends a typed number */
            if (t.too_small) t.digits[0] = 0;
            else if (t.digits_at > 0 && now_ms() >= t.digits_at) digits_play(&t);
        }
        tui_draw(&t);
        int ch = getch();
        if (ch == ERR) continue;
        if (ch == KEY_RESIZE) { clear(); continue; }
        if (t.show_help) { t.show_help = 0; continue; }
        if (t.confirm_quit) {   /* "quit? y/n" */
            t.confirm_quit = 0;
            if (ch == 'y' || ch == 'Y') t.s.quit = 1;
            else tui_say(&t, "not quitting");
            continue;
        }
        if (ch == 3) { tui_interrupt(&t); continue; }   /* Ctrl-C, wherever it comes */
        if (t.screen == SCREEN_GAME && t.too_small) {   /* no key plays a move off the screen */
            if (ch == 'q') tui_quit(&t);
            else if (ch == 27 && t.cmdline) cmdline_close(&t);
            else if (ch == 27 && t.pager) pager_close(&t);
            else t.small_ignored++;
            continue;
        }
        if (t.cmdline) { cmdline_key(&t, ch); if (t.s.lesson || t.screen == SCREEN_GAME) t.screen = SCREEN_GAME; continue; }
        if (t.pager && !t.pager_passive) { pager_key(&t, ch); continue; }
        if (t.screen == SCREEN_PICKER) key_picker(&t, ch);
        else key_game(&t, ch);
    }
    if (t.cmdline) rl_callback_handler_remove();
    pager_close(&t);
    endwin();
    complete_history_save();
    worker_stop(&t.w);
    out_free(&out);
    int rc = shell_session_close(&t.s, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    return rc;
}

int tui_play(cli_opts_t *o)
{
    if (!o->file) return tui_run(o, NULL);
    static char line[1100];   /* --file F: read it now (a bad record is an error before the screen opens) */
    err_t err;
    if (record_play_line(o, line, sizeof line, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    return tui_run(o, line);
}

int tui_lesson(cli_opts_t *o)
{
    if (o->npos == 0) {
        static char names[64][64], titles[64][128];
        int n = lesson_list(names, titles, 64);
        if (!n) printf("no lessons in %s\n", lesson_dir());
        for (int i = 0; i < n; i++) printf("%-20s %s\n", names[i], titles[i]);
        if (n) printf("\nOpen one with: gsw lesson NAME (or from gsw's game picker)\n");
        return GSW_OK;
    }
    char path[1024];
    err_t err;
    lesson_t *l;
    if (o->npos > 1) { fprintf(stderr, "gsw: usage: %s\n", o->entry->usage); return GSW_EINPUT; }
    if (lesson_find(o->pos[0], path, sizeof path, &err) || lesson_load(path, &l, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        return err.code;
    }
    lesson_free(l);
    static char line[1100];
    snprintf(line, sizeof line, "lesson %s", path);
    o->npos = 0;
    return tui_run(o, line);
}

/* ---- can this terminal draw the workbench? ----
 * Asked of terminfo before curses starts, so a terminal that cannot gets one
 * line on stderr and no half-drawn screen. term.h comes last: its macros
 * (lines, columns, ...) would clash with the names above. */
#include <term.h>

static int tui_term_check(void)
{
    const char *term = getenv("TERM");
    int e = 0;
    if (!term || !*term) {
        fprintf(stderr, "gsw: TERM is not set, so the workbench cannot draw here; use `gsw shell` (the same commands, "
                        "no screen) or set TERM (e.g. TERM=xterm-256color)\n");
        return -1;
    }
    if (setupterm(NULL, 1, &e) != OK) {
        fprintf(stderr, "gsw: the terminal \"%s\" is unknown here, so the workbench cannot draw; use `gsw shell` "
                        "(the same commands, no screen) or another TERM (e.g. xterm-256color)\n", term);
        return -1;
    }
    const char *cup = tigetstr("cup");
    int ok = cup && cup != (const char *)-1 && tigetflag("hc") <= 0;
    del_curterm(cur_term);
    if (!ok) {
        fprintf(stderr, "gsw: the terminal \"%s\" cannot place the cursor, so the workbench cannot draw there; use "
                        "`gsw shell` (the same commands, no screen) or a terminal such as xterm\n", term);
        return -1;
    }
    return 0;
}

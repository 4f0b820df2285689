/* The TUI's board (see tui_board.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "workbench/session_board.h"
#include "workbench/tui_board.h"
#include "workbench/tui_text.h"

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
    tui_attr_pair(t, pair, 1);
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
    tui_attr_pair(t, pair, 0);
    attroff(a);
}

int tui_draw_board(tui_t *t, int y, int x)
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
    for (int r = 0; r < v->rows; r++) {   /* (turned round when flipped: session_shown_cell) */
        mvprintw(row0 + r, x, "%3s ", v->row_label[session_shown_cell(s, v, r, 0) / v->cols]);
        for (int c = 0; c < v->cols; c++) {
            int i = session_shown_cell(s, v, r, c), hl = 0;
            if (i == s->cursor && !v->drop) hl |= 1;
            if (i == last_to || i == last_from) hl |= 2;
            if (i == s->selected || mark[i] & 2) hl |= 4;
            if (mark[i] & 1) hl |= 8;
            if (mark[i] & 4) hl |= 16;
            draw_cell(t, &v->cell[i], hl);
        }
    }
    move(row0 + v->rows, x + 4);
    for (int c = 0; c < v->cols; c++) printw("%*s", t->cell_w, v->col_label[session_shown_cell(s, v, 0, c) % v->cols]);
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

/* The width of the board's column: the board, at least wide enough for the
 * turn and the result under it in two lines. */
int tui_left_width(const tui_t *t) { int bw = board_width(t, &t->view); return bw > 24 ? bw : 24; }

/* Moves entered on the board: clicks and the cursor (see session_board.h). */
#include "workbench/session_board.h"

#include "core/board_nav.h"

#include <stdio.h>
#include <string.h>

int session_move_path(const session_t *s, const void *pos, move_t m, int *cells, int max)
{
    const game_ops_t *O = s->v->ops;
    if (O->move_path) return O->move_path(s->v, pos, m, cells, max);
    if (max < 2) return 0;
    O->move_cells(s->v, pos, m, &cells[0], &cells[1]);
    return 2;
}

/* The squares entered so far (at least the selected piece's). */
static int session_entered(const session_t *s, int *path)
{
    if (s->selected < 0) return 0;
    if (s->npath > 0 && s->path[0] == s->selected) {
        memcpy(path, s->path, (size_t)s->npath * sizeof *path);
        return s->npath;
    }
    path[0] = s->selected;
    return 1;
}

/* Does move m's path start with path[0..n-1]? Its length into *np. */
static int path_starts(const session_t *s, move_t m, const int *path, int n, int *cells, int *np)
{
    *np = session_move_path(s, session_pos(s), m, cells, 16);
    if (*np < n) return 0;
    for (int i = 0; i < n; i++)
        if (cells[i] != path[i]) return 0;
    return 1;
}

void session_marks(const session_t *s, char *mark, int ncells)
{
    const game_ops_t *O = s->v->ops;
    memset(mark, 0, (size_t)ncells);
    if (!O->move_cells) return;
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(s->v, session_pos(s), mv), path[16], np = session_entered(s, path), cells[16], nc;
    char note[64];
    int movers = session_note(s, note, sizeof note);
    for (int i = 0; i < n; i++) {
        if (movers && session_move_path(s, session_pos(s), mv[i], cells, 16) > 0 && cells[0] >= 0 && cells[0] < ncells)
            mark[cells[0]] |= 4;
        if (np && path_starts(s, mv[i], path, np, cells, &nc) && nc > np && cells[np] >= 0 && cells[np] < ncells)
            mark[cells[np]] |= 1;
    }
    for (int i = 1; i < np; i++)
        if (path[i] >= 0 && path[i] < ncells) mark[path[i]] |= 2;
}

int session_note(const session_t *s, char *buf, size_t n)
{
    if (n) buf[0] = 0;
    if (!s->v->ops->move_note || session_over(s, NULL)) return 0;
    return s->v->ops->move_note(s->v, session_pos(s), buf, n);
}

int session_partial(const session_t *s, char *buf, size_t n)
{
    const game_ops_t *O = s->v->ops;
    int path[16], np = session_entered(s, path), cells[16], nc;
    if (np < 2) return 0;
    move_t mv[GSW_MAX_MOVES];
    int k = O->moves(s->v, session_pos(s), mv);
    for (int i = 0; i < k; i++) {
        if (!path_starts(s, mv[i], path, np, cells, &nc)) continue;
        /* the move's text cut after the squares entered: one separator per step */
        char t[64];
        O->move_format(s->v, session_pos(s), mv[i], t, sizeof t);
        int steps = 0;
        size_t len = 0;
        for (; t[len]; len++) {
            int sep = len > 0 && (t[len] < '0' || t[len] > '9') && t[len - 1] >= '0' && t[len - 1] <= '9';
            if (sep && ++steps == np) break;
        }
        snprintf(buf, n, "%.*s", (int)len, t);
        return 1;
    }
    return 0;
}

/* Do moves a[0..n-1] visit the very same cells? */
static int same_squares(const session_t *s, const move_t *a, int n)
{
    int c0[16], c[16];
    int n0 = session_move_path(s, session_pos(s), a[0], c0, 16);
    for (int i = 1; i < n; i++) {
        int k = session_move_path(s, session_pos(s), a[i], c, 16);
        if (k != n0 || memcmp(c, c0, (size_t)k * sizeof *c)) return 0;
    }
    return 1;
}

/* Several moves over the same squares: the person picks one. */
static int session_offer(session_t *s, const move_t *m, int n)
{
    if (n > (int)(sizeof s->choice / sizeof s->choice[0])) n = (int)(sizeof s->choice / sizeof s->choice[0]);
    memcpy(s->choice, m, (size_t)n * sizeof *m);
    s->nchoice = n;
    return 3;
}

/* The choice's moves as text, and the key of each: the first character
 * where its text differs from the common start of them all (lower case),
 * or its number when those are not all different letters and digits. */
static void choice_keys(const session_t *s, char text[][32], char *keys)
{
    int n = s->nchoice;
    size_t common = 0;
    for (int i = 0; i < n; i++) {
        s->v->ops->move_format(s->v, session_pos(s), s->choice[i], text[i], 32);
        size_t k = 0;
        if (i == 0) common = strlen(text[0]);
        while (k < common && text[i][k] == text[0][k]) k++;
        common = k;
    }
    int ok = 1;
    for (int i = 0; i < n; i++) {
        char c = text[i][common];
        keys[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        ok &= (keys[i] >= 'a' && keys[i] <= 'z') || (keys[i] >= '0' && keys[i] <= '9');
        for (int k = 0; k < i; k++) ok &= keys[k] != keys[i];
    }
    for (int i = 0; !ok && i < n; i++) keys[i] = (char)(i < 9 ? '1' + i : 'a' + i - 9);
}

int session_choices(const session_t *s, char *buf, size_t n)
{
    if (n) buf[0] = 0;
    if (!s->nchoice) return 0;
    char text[16][32], keys[16];
    choice_keys(s, text, keys);
    size_t used = 0;
    for (int i = 0; i < s->nchoice && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%c) %s", i ? "  " : "", keys[i], text[i]);
    if (used < n) snprintf(buf + used, n - used, "  (Enter: %s; Esc cancels)", text[0]);
    return s->nchoice;
}

int session_choose(session_t *s, int key, err_t *err)
{
    if (!s->nchoice) return 0;
    char text[16][32], keys[16];
    choice_keys(s, text, keys);
    if (key >= 'A' && key <= 'Z') key = key - 'A' + 'a';
    int pick = key == '\n' || key == '\r' || key == ' ' ? 0 : -1;
    for (int i = 0; i < s->nchoice && pick < 0; i++)
        if (keys[i] == key) pick = i;
    if (pick < 0) return 0;
    move_t m = s->choice[pick];
    s->nchoice = 0;
    return session_play(s, m, err) ? -1 : 1;
}

void session_choice_cancel(session_t *s)
{
    s->nchoice = 0;
}

int session_click(session_t *s, int cell, err_t *err)
{
    const game_ops_t *O = s->v->ops;
    if (!O->view || !O->move_cells) return err_set(err, GSW_EINPUT, "this game has no board view: type moves"), -1;
    static _Thread_local board_view_t view;
    const void *pos = session_pos(s);
    O->view(s->v, pos, &view);
    if (cell < 0 || cell >= view.rows * view.cols) return 0;
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(s->v, pos, mv);
    if (n == 0 || session_over(s, NULL)) return err_set(err, GSW_EINPUT, "the game is over"), -1;
    int col = cell % view.cols, from, to;
    int path[17], np = session_entered(s, path), cells[16], nc;
    s->nchoice = 0;
    if (np > 0) {
        /* the moves going on through this square next (those among them
         * that stop there), and the moves entered so far that stop where
         * they are (the click on their last square again completes them);
         * from the piece alone, the moves that end here */
        int through = 0, last = -1;
        move_t stop[GSW_MAX_MOVES], again[GSW_MAX_MOVES], ends[GSW_MAX_MOVES];
        int nstop = 0, nagain = 0, nends = 0;
        for (int i = 0; i < n; i++) {
            if (!path_starts(s, mv[i], path, np, cells, &nc)) continue;
            if (nc > np && cells[np] == cell) {
                through++;
                last = i;
                if (nc == np + 1) stop[nstop++] = mv[i];
            } else if (np == 1 && cells[nc - 1] == cell) {
                ends[nends++] = mv[i];
            }
            if (np > 1 && nc == np && cell == path[np - 1]) again[nagain++] = mv[i];   /* its last square again: it stops there */
        }
        if (nagain == 1) return session_play(s, again[0], err) ? -1 : 1;
        if (nagain > 1) return session_offer(s, again, nagain);
        if (through == 1) return session_play(s, mv[last], err) ? -1 : 1;
        if (through > 1 && nstop == through) return session_offer(s, stop, nstop);   /* a promotion: which piece? */
        if (through > 1 && np < 16) {   /* several moves go on from here: one step further */
            path[np++] = cell;
            memcpy(s->path, path, (size_t)np * sizeof *path);
            s->npath = np;
            return 2;
        }
        if (nends == 1) return session_play(s, ends[0], err) ? -1 : 1;
        if (nends > 1 && same_squares(s, ends, nends)) return session_offer(s, ends, nends);
        if (nends > 1)
            return err_set(err, GSW_EINPUT, "%d moves of this piece end there: click each square it lands on in turn", nends), -1;
    }
    move_t here[GSW_MAX_MOVES];
    int nhere = 0;
    for (int i = 0; i < n; i++) {   /* a placement here, or in this column when moves drop */
        O->move_cells(s->v, pos, mv[i], &from, &to);
        if (from == -1 && (to == cell || (view.drop && to % view.cols == col))) here[nhere++] = mv[i];
    }
    if (nhere == 1 || (nhere > 1 && !same_squares(s, here, nhere))) return session_play(s, here[0], err) ? -1 : 1;
    if (nhere > 1) return session_offer(s, here, nhere);   /* several pieces could be placed here: which? */
    for (int i = 0; i < n; i++) {   /* a piece that can move: select it */
        O->move_cells(s->v, pos, mv[i], &from, &to);
        if (from == cell) { s->selected = cell; s->npath = 0; return 0; }
    }
    s->selected = -1;
    s->npath = 0;
    const view_cell_t *c = &view.cell[cell];
    if (c->kind == VIEW_PIECE && (s->v->game->players == 1 || c->owner == session_turn(s))) {   /* one's own piece, stuck */
        char note[64];
        if (session_note(s, note, sizeof note)) return err_set(err, GSW_EINPUT, "that piece cannot move: %s", note), -1;
        return err_set(err, GSW_EINPUT, "that piece has no legal move"), -1;
    }
    return 0;
}

void session_cursor_move(session_t *s, int dr, int dc)
{
    const game_ops_t *O = s->v->ops;
    if (!O->view) return;
    static _Thread_local board_view_t view;
    O->view(s->v, session_pos(s), &view);
    if (view.cols <= 0) return;
    int r = s->cursor >= 0 ? s->cursor / view.cols : -1, c = s->cursor >= 0 ? s->cursor % view.cols : -1;
    if (session_shown_cell(s, &view, 0, 0) != 0) { dr = -dr; dc = -dc; }   /* turned round: Up goes down the view */
    if (board_nav_move(&view, &r, &c, dr, dc)) s->cursor = r * view.cols + c;
}

int session_can_flip(const session_t *s, char *why, size_t n)
{
    const gv_t *v = s->v;
    const char *no = NULL;
    if (!v->ops->view) no = "this game has no board to turn round";
    else if (v->game->players != 2) no = "a puzzle has one side: there is no other to see it from";
    else if (game_move_kind(v, session_pos(s)) == GAME_MOVE_DROP)
        no = "its pieces fall down the columns, which turned round would point up";
    if (no && why && n) snprintf(why, n, "%s", no);
    return !no;
}

int session_shown_cell(const session_t *s, const board_view_t *v, int r, int c)
{
    if (s->flipped && !v->drop && s->v->game->players == 2) {   /* (session_can_flip, cheaply: a cell at a time) */ r = v->rows - 1 - r; c = v->cols - 1 - c; }
    return r * v->cols + c;
}

/* The arrow keys over a board view (see board_nav.h). */
#include "core/board_nav.h"

static int on_board(const board_view_t *v, int r, int c)
{
    return r >= 0 && c >= 0 && r < v->rows && c < v->cols && v->cell[r * v->cols + c].kind != VIEW_OFF;
}

int board_nav_first(const board_view_t *view)
{
    for (int i = 0; i < view->rows * view->cols && i < GSW_VIEW_MAX_CELLS; i++)
        if (view->cell[i].kind != VIEW_OFF) return i;
    return 0;
}

/* The cell of row r nearest column c, or -1 when the row has none. Of two
 * at the same distance, the one sharing c's pair of columns (2k, 2k+1): so
 * Down, Down on a checkerboard zigzags down a pair of columns instead of
 * drifting sideways, and Up undoes Down. */
static int nearest_in_row(const board_view_t *v, int r, int c)
{
    int best = -1, bestd = 0;
    for (int k = 0; k < v->cols; k++) {
        if (!on_board(v, r, k)) continue;
        int d = k > c ? k - c : c - k;
        if (best < 0 || d < bestd || (d == bestd && k >> 1 == c >> 1 && best >> 1 != c >> 1)) {
            best = k;
            bestd = d;
        }
    }
    return best;
}

int board_nav_move(const board_view_t *view, int *row, int *col, int drow, int dcol)
{
    const board_view_t *v = view;
    if (v->rows <= 0 || v->cols <= 0) return 0;
    if (!on_board(v, *row, *col)) {
        int first = board_nav_first(v);
        *row = first / v->cols;
        *col = first % v->cols;
        return 1;
    }
    if (drow) {   /* the nearest cell of the next row that has one */
        for (int r = *row + drow; r >= 0 && r < v->rows; r += drow) {
            int c = nearest_in_row(v, r, *col);
            if (c >= 0) {
                *row = r;
                *col = c;
                return 1;
            }
        }
        return 0;
    }
    for (int c = *col + dcol; dcol && c >= 0 && c < v->cols; c += dcol)   /* the next cell of the row */
        if (on_board(v, *row, c)) {
            *col = c;
            return 1;
        }
    return 0;
}

/* Moving a cursor over a game's board view (core/game.h's board_view_t) with
 * the four arrow keys, the same way for every game: Left and Right go to the
 * next cell of the row that is part of the board; Up and Down to the nearest
 * such cell of the next row that has one (checkers: a diagonal neighbour,
 * since only the dark squares are cells). From any cell the arrows reach
 * every cell of the board. Needs nothing but the view, so the UI and the
 * plugin self-test share it. */
#ifndef GSW_BOARD_NAV_H
#define GSW_BOARD_NAV_H

#include "core/game.h"

/* The cell the cursor starts on: the first cell of the board in reading
 * order (row 0 first), or 0 when the view has none. */
int board_nav_first(const board_view_t *view);
/* Move the cursor at (*row, *col) one step by (drow, dcol), each -1, 0 or 1
 * (one of them 0: an arrow key). Returns 1 and updates *row and *col when it
 * moved, 0 when there is no cell that way (the edge of the board). A cursor
 * off the board or outside the grid is first put on board_nav_first's cell
 * (and that counts as a move). */
int board_nav_move(const board_view_t *view, int *row, int *col, int drow, int dcol);

#endif

/* The TUI's board: the game's view drawn cell by cell, with the cursor, the
 * last move, the selected piece, where it can go and the pieces that must
 * move marked, and the tags' legend. Drawing only: it reads tui_t and the
 * session, and calls no input. */
#ifndef GSW_TUI_BOARD_H
#define GSW_TUI_BOARD_H

#include "workbench/tui_state.h"

/* Draw t->view with its top left at (y, x); remembers where (for the
 * mouse). Returns the rows used. */
int tui_draw_board(tui_t *t, int y, int x);
/* The width of the board's column: the board, at least wide enough for the
 * turn and the result under it in two lines. */
int tui_left_width(const tui_t *t);

#endif

/* The TUI's game screen: the title row, the board's column (the board, whose
 * turn or the result, a rule's note), the panes beside it (the move list or
 * the value history, the analysis, a lesson's step, the proof browser), the
 * message area and the status line. Drawing only: it reads tui_t and the
 * session (and the worker's progress), and calls no input. */
#ifndef GSW_TUI_PANES_H
#define GSW_TUI_PANES_H

#include "workbench/tui_state.h"

/* Draw the game screen (or, in a window too small for the board, the words
 * that say so: t->too_small). */
void tui_draw_game(tui_t *t);

#endif

/* The TUI's game picker: the games' variants and the lessons as a list to
 * choose from, drawn with the person's side and opponent; starting the one
 * chosen, with the words on how to move. Reads and sets tui_t; runs the
 * session's commands; calls no input. */
#ifndef GSW_TUI_PICKER_H
#define GSW_TUI_PICKER_H

#include "workbench/tui_state.h"

/* The picker's rows: its first item's row; the rows its list may fill
 * are the window's less TUI_PICK_ROWS_LESS (the title above, the side and
 * opponent lines below). */
#define TUI_PICK_TOP 2
#define TUI_PICK_ROWS_LESS 5
/* How many items a PgUp or PgDn moves. */
#define TUI_PICK_PAGE 10

/* How to move, in the game's terms, in the message area. */
void tui_say_welcome(tui_t *t);
/* Fill t->items: every game's menu variants, then the lessons. */
void tui_picker_fill(tui_t *t);
/* Draw the picker screen. */
void tui_draw_picker(tui_t *t);
/* Start the item picked (t->pick): a new game or a lesson. */
void tui_picker_start(tui_t *t);

#endif

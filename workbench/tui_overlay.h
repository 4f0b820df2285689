/* What the TUI draws over its screen: the pager (output longer than the
 * message area, scrolled), the help overlay of keys, and the ':' command
 * line at the bottom; and tui_draw, the whole frame: the picker or the game
 * screen, then what lies over it. Drawing only: it calls no input. */
#ifndef GSW_TUI_OVERLAY_H
#define GSW_TUI_OVERLAY_H

#include "workbench/tui_state.h"

/* Open the pager on a copy of text (passive: the completion list, under
 * which the command line stays open); the message area when out of memory. */
void tui_pager_open(tui_t *t, const char *title, const char *text, int passive);
void tui_pager_close(tui_t *t);
/* Scroll keys: 1 if ch was one. */
int tui_pager_scroll(tui_t *t, int ch);
/* ?: the keys over the screen, or in the pager when they do not fit. */
void tui_help_open(tui_t *t);
/* Draw the frame and refresh the terminal. */
void tui_draw(tui_t *t);

#endif

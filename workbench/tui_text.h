/* The TUI's text on the screen: the message area's lines (tui_say), text
 * wrapped and clipped into a width, the colour pairs of values, and the
 * monotonic clock the TUI's pauses use. The base of the tui_* modules: it
 * depends on tui_state.h only. */
#ifndef GSW_TUI_TEXT_H
#define GSW_TUI_TEXT_H

#include "workbench/tui_state.h"

/* Add text (one message per line) to the message area, the newest last. */
void tui_say(tui_t *t, const char *text);
/* The same with o's text, which is cleared. */
void tui_say_out(tui_t *t, out_t *o);
/* Monotonic milliseconds. */
double tui_now_ms(void);
/* Text laid out in lines at most w bytes wide, broken at spaces where it
 * can and at every '\n': line k is len[k] bytes from text + off[k] (the
 * first max lines are stored). Returns the number of lines. */
int tui_wrap_text(const char *text, int w, int *off, int *len, int max);
/* The colour pair of a value class (3 win, 2 draw, 1 loss; 0: none). */
int tui_value_pair(int cls);
/* Turn a colour pair on or off (nothing without colour, or for pair 0). */
void tui_attr_pair(tui_t *t, int pair, int on);
/* Text at (y, x), at most w columns of it. */
void tui_put_clipped(int y, int x, int w, const char *text);
/* Text word-wrapped into w columns from row y, at most rows lines ('\n'
 * breaks a line); the number of lines used. */
int tui_put_wrapped(int y, int x, int w, int rows, const char *text);

#endif

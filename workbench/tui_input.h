/* The TUI's input: the keys of the game screen and of the picker (moves on
 * the board by cursor, click or typed digits; undo, hint, analysis and the
 * other one-key commands), the ':' command line (readline, fed key by key,
 * its output in the message area or the pager), the pager's keys, quitting
 * and Ctrl-C. Above the drawing modules: it calls them (tui_draw redraws
 * while readline edits), they never call it. */
#ifndef GSW_TUI_INPUT_H
#define GSW_TUI_INPUT_H

#include "workbench/tui_state.h"

/* Hook readline to t's bottom line: keys are fed to it one by one
 * (tui_cmdline_key), it redraws through tui_draw, Tab's candidates go to the
 * message area or the pager. */
void tui_readline_install(tui_t *t);
/* Run a command line; its output goes to the message area. */
void tui_exec(tui_t *t, const char *line);
/* A key while the ':' line is open; Esc closes it (tui_cmdline_close). */
void tui_cmdline_key(tui_t *t, int ch);
void tui_cmdline_close(tui_t *t);
/* Text pasted while the ':' line is open: typed into it at the cursor,
 * its line breaks and other control characters as spaces. */
void tui_cmdline_insert(tui_t *t, const char *text);
/* A key while the pager is open (not the passive completion list). */
void tui_pager_key(tui_t *t, int ch);
/* q: quit, or ask first (t->confirm_quit) in a game in progress. */
void tui_quit(tui_t *t);
/* Ctrl-C: stop the worker's job (the analysis, or the computer's move); it
 * never quits. */
void tui_interrupt(tui_t *t);
/* A key on the picker screen. */
void tui_key_picker(tui_t *t, int ch);
/* A key on the game screen. */
void tui_key_game(tui_t *t, int ch);
/* Play the move typed so far (t->digits), or say why not. */
void tui_digits_play(tui_t *t);
/* A pending command key's second is over: its command runs. */
void tui_pend_run(tui_t *t);

#endif

/* The workbench's terminal front end (ncurses): entry points for the play
 * and lesson verbs. */
#ifndef GSW_TUI_H
#define GSW_TUI_H

#include "cli/opts.h"

/* gsw play: the TUI on the options' game, or its game picker. */
int tui_play(cli_args_t *o);
/* gsw lesson NAME: a lesson in the TUI (no name: the list, as text). */
int tui_lesson(cli_args_t *o);

#endif

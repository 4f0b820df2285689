/* The workbench's commands about how the game is shown (commands.c's table
 * holds them with the others): show (the board as text), numbers (the
 * squares' names), flip (the board turned round). Each runs as a
 * command_t's run does: its arguments' text, the person's text to out, a
 * bad argument in err. */
#ifndef GSW_COMMANDS_VIEW_H
#define GSW_COMMANDS_VIEW_H

#include "workbench/session.h"

/* show: the board as text (session_show). */
int cmd_show(session_t *s, char *args, out_t *out, err_t *err);
/* numbers [on|off]: the squares' names on the board (no word: toggle). */
int cmd_numbers(session_t *s, char *args, out_t *out, err_t *err);
/* flip [on|off]: the board turned round (no word: toggle), where the game's
 * board can be (session_can_flip); elsewhere it says why not and changes
 * nothing. */
int cmd_flip(session_t *s, char *args, out_t *out, err_t *err);

#endif

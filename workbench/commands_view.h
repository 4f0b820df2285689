/* The workbench's commands about how the game is shown (commands.c's table
 * holds them with the others): show (the board as text), numbers (the
 * squares' names), flip (the board turned round), lines (the engine's best
 * lines in the analysis), and the text of those lines. Each runs as a
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
/* lines [N]: the analysis shows the engine's best N lines (1-8; 0 or 1:
 * the best move's line alone, as before); no N: the setting said. */
int cmd_lines(session_t *s, char *args, out_t *out, err_t *err);
/* The largest N of lines N. */
#define SESSION_LINES_MAX 8

/* One engine line as a row: its value as the move list shows it
 * (session_value_text: "~+0.28") and the line in the game's notation
 * ("~+0.28 e4 d5 exd5 Qxd5"); 0 when the move has no line. */
int session_engine_line_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n);
/* The shell's analysis, where lines N is on (N >= 2): the engine's best
 * lines at the current position, a row each, numbered by their place
 * among all the moves ("line 2: ~+0.11 d4 d5 c4": a proven move is first);
 * returns 0 when it is off or none is known (the best move's line alone
 * is then the caller's to say). */
int session_lines_say(session_t *s, out_t *out);

#endif

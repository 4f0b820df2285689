/* A position or a game pasted into the workbench (the TUI's bracketed
 * paste, `paste [TEXT]` in both front ends), the position's text given
 * back (`fen`), and the OSC 52 sequence that hands a text to the
 * terminal's clipboard. The commands run as a command_t's run does (their
 * arguments' text, the person's text to out, a bad argument in err);
 * commands.c's table holds them. No curses: the TUI and the shell call it,
 * and the tests call it directly. */
#ifndef GSW_SESSION_PASTE_H
#define GSW_SESSION_PASTE_H

#include "workbench/session.h"

/* The most a paste may hold, in bytes (a front end that reads one stops
 * there and says so). */
#define SESSION_PASTE_MAX (1u << 20)

/* Set up text in the session's game (the current variant): a position in
 * the game's own text (pos_parse: a FEN in chess and checkers), a game
 * record (record_read: PGN, PDN) whose moves become the game's history
 * (undo steps back through them), or, in a game with no record format,
 * moves from the start ("4453" in Connect Four, as history too). Text
 * that is none of these, empty, or holds control characters: GSW_EINPUT
 * with one line saying why, and the session as it was. A lesson in
 * progress ends. out: what was set up, in a line (session_exec_paste, and
 * session_exec's paste TEXT, show the board too in the shell). */
int session_paste(session_t *s, const char *text, out_t *out, err_t *err);
/* paste [TEXT]: session_paste(TEXT); without TEXT, s->paste_wait is set:
 * the front end reads the text (to a blank line or the end of its input)
 * and runs session_exec_paste on it. */
int cmd_paste(session_t *s, char *args, out_t *out, err_t *err);
/* Does a blank line end a paste read line by line (paste alone) whose text
 * so far is text? Yes, unless every line so far is a record's tag pair
 * ([Event "..."]): a PGN's blank line between its tags and its moves. */
int session_paste_ends(const char *text);
/* fen: the position's text (FEN in chess and checkers; the game's position
 * string elsewhere) on a line of its own, and handed to s->clipboard where
 * the front end has one, said so (whether the terminal took it, gsw cannot
 * know). */
int cmd_fen(session_t *s, char *args, out_t *out, err_t *err);
/* The OSC 52 sequence that asks a terminal to put text on its clipboard
 * (ESC ] 52 ; c ; BASE64 BEL) into buf (n bytes, always terminated);
 * returns its length, or 0 when it does not fit. */
size_t osc52_sequence(const char *text, char *buf, size_t n);

#endif

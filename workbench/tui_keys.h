/* The game screen's keys as the game decides them, without the screen:
 * which letters are commands, which begin or go on with a typed move (the
 * legal moves' texts, or the characters the game declares: core/game.h's
 * move_chars), a typed text read as a move, and how a move is made in
 * words (the welcome line, ? help: core/game.h's move_kind). No curses:
 * tui_input calls it, and tests call it directly. */
#ifndef GSW_TUI_KEYS_H
#define GSW_TUI_KEYS_H

#include <stddef.h>

#include "core/game.h"

/* The game screen's one-letter commands (tui_input's key_command): a
 * letter among them begins a typed move only where a move begins with it. */
#define TUI_COMMAND_KEYS "abfghmnopqrstuvwxF"

/* Keys by their code (curses gives these as plain characters). */
enum { TUI_KEY_CTRL_C = 3, TUI_KEY_BS = 8, TUI_KEY_ESC = 27, TUI_KEY_DEL = 127 };

/* What a key does on the game screen before anything is typed. */
enum tui_key_act {
    TUI_KEY_COMMAND,   /* its command, if it has one (no move begins with it) */
    TUI_KEY_MOVE,      /* it begins a typed move */
    TUI_KEY_EITHER,    /* a command key that a move begins with: a move if the
                          move's next character follows soon, else its command */
};
/* The act of key ch at pos (letters; other keys are TUI_KEY_COMMAND). */
int tui_key_first(const gv_t *v, const void *pos, int ch);
/* 1 if ch goes on with the move typed so far (typed, not empty): a digit,
 * a separator after a digit, a character of the game's move_chars (unless
 * strict), or one that a legal move's text has there. strict: only what
 * some legal move's text (or a digit) makes of it, for a key that is also
 * a command. */
int tui_key_continues(const gv_t *v, const void *pos, const char *typed, int ch, int strict);
/* 1 if a legal move's text begins with typed and goes on (a check or mate
 * sign alone does not count); digits alone also match a text of numbers
 * without its separators (2824 for 28-24). */
int tui_move_longer(const gv_t *v, const void *pos, const char *typed);
/* 1 if typed names a legal move, into *m (move_parse; digits alone: the
 * one legal move whose numbers they are). 0 with err set by move_parse. */
int tui_move_parse(const gv_t *v, const void *pos, const char *typed, move_t *m, err_t *err);
/* How to make a move at pos, in a line for the welcome ("Your move: a
 * column: ..., or type it (4).  ? for help."), by the game's move kind
 * (game_move_kind), with the shortest legal move as the example. */
void tui_move_how(const gv_t *v, const void *pos, char *buf, size_t n);
/* The same in a few words for ? help ("drop a stone into a column"). */
const char *tui_move_kind_words(int kind);

#endif

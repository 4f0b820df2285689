/* Moves entered on the workbench's board: the cursor, clicks that select a
 * piece and take a move square by square, the squares marked on the way, a
 * choice among moves over the same squares (a promotion's pieces), and the
 * rule that restricts the moves here. Part of the session (session.h): it
 * reads and sets the session's cursor, selection, path and choice, and plays
 * through session_play. */
#ifndef GSW_SESSION_BOARD_H
#define GSW_SESSION_BOARD_H

#include "workbench/session.h"

/* Move the cursor/selection by a click or key at a view cell; plays a move
 * when the click completes one. A move of several steps (a multi-jump) is
 * entered square by square: each click on the next square it lands on goes
 * one step further, and the move is played once only one fits (a click on
 * its last square alone does too, when that names one move). Several legal
 * moves over the very same squares (a promotion to each piece) are offered
 * as a choice (s->choice; session_choose). Returns 1 if a move was played,
 * 2 if the click took a move one step further, 3 if the person must choose
 * among several moves, 0 if it only moved the selection, -1 with a message
 * in err (an illegal click). */
int session_click(session_t *s, int cell, err_t *err);
/* The choice a click left open: its prompt ("q) e8=Q  r) e8=R ...
 * (Enter: e8=Q; Esc cancels)") in buf; returns the number of moves, 0 when
 * none is open. */
int session_choices(const session_t *s, char *buf, size_t n);
/* Pick a move of the open choice by its key (the letter that tells its
 * text from the others' -- q, r, b, n for a promotion -- case aside, or
 * its number 1-9; Enter, '\r' or ' ' picks the first, the game's first
 * listed). Returns 1 when played, 0 when key names none of them (nothing
 * changes), -1 with a message in err. */
int session_choose(session_t *s, int key, err_t *err);
void session_choice_cancel(session_t *s);
/* The cells a legal move visits (ops->move_path, else from and to); the count. */
int session_move_path(const session_t *s, const void *pos, move_t m, int *cells, int max);
/* Marks in mark[cell] (ncells of them, cleared first): 1 where the
 * selected piece can go next (the next square of a move being entered),
 * 2 the squares entered so far, 4 the pieces that can move. */
void session_marks(const session_t *s, char *mark, int ncells);
/* A rule restricting the moves here, for the person ("a capture is
 * compulsory"; ops->move_note); 0 when none. */
int session_note(const session_t *s, char *buf, size_t n);
/* The move being entered square by square, as far as it goes ("1x10"), or
 * 0 when none is under way. */
int session_partial(const session_t *s, char *buf, size_t n);
/* Move the cursor one step by an arrow key (dr, dc: -1, 0 or 1, as the
 * board is shown: turned round, Up goes down the view) to a neighbouring
 * cell of the board (core/board_nav.h: checkers' Up and Down go to a
 * diagonal neighbour); it stays put at the board's edge. */
void session_cursor_move(session_t *s, int dr, int dc);
/* Can this game's board be shown turned round (flip)? Two-player boards
 * whose pieces do not drop down columns (chess, checkers); 0 with the
 * reason in why otherwise (Connect Four's columns fill from the bottom, a
 * puzzle has no other side). why may be NULL. */
int session_can_flip(const session_t *s, char *why, size_t n);
/* The view cell shown at row r, column c of the board on screen: the
 * view's own (r * cols + c), or, flipped where that applies, the cell the
 * half turn puts there. Its own inverse: a click's cell is the cell shown
 * there, and a cell's row and column labels are those of the cell shown
 * at the start of its row and the top of its column. */
int session_shown_cell(const session_t *s, const board_view_t *v, int r, int c);

#endif

/* A game on a clock: a time control (minutes and an increment a move),
 * each side's time counting down while it is to move, the flag that falls
 * when it runs out (the game lost, or drawn where the opponent cannot win:
 * game_ops_t.cannot_win), and the computer's time for a move taken from
 * its clock. Part of the session (session.h's session_clock_t): no
 * terminal code; the front end ticks it (the TUI, every 100 ms). Times are
 * gsw_now_ms()'s, passed in as now.
 *
 * Undo and redo put back the times as they stood when that position arose
 * (the time spent since is taken back with the moves) and lift a fallen
 * flag; a new game starts both clocks full again; moves played before the
 * first tick (a record loaded) take no time. Only a two-player game runs
 * its clock, and not in a lesson. */
#ifndef GSW_SESSION_CLOCK_H
#define GSW_SESSION_CLOCK_H

#include "workbench/session.h"

/* A time control's text into ms: "5+3" (5 minutes, 3 s a move), "5"
 * (no increment), "0:30+1" (minutes:seconds), "90s+2" (seconds), decimals
 * allowed ("0.5+0"). GSW_EINPUT with a message for anything else, a time of
 * nothing or more than 24 hours, an increment over an hour. */
int clock_parse(const char *text, double *base_ms, double *inc_ms, err_t *err);
/* "5+3", "0:30+1": a control as clock_parse reads it. */
void clock_text(double base_ms, double inc_ms, char *buf, size_t n);
/* A time left as a clock shows it: "4:59" from a minute, "12.3" under 20 s,
 * "0:19" between. */
void clock_time_text(double ms, char *buf, size_t n);

/* Put the game on a clock from the current position, both sides' times
 * full; it runs from the next tick. Off: no clock. */
void session_clock_set(session_t *s, double base_ms, double inc_ms);
void session_clock_off(session_t *s);
/* A new game (session_new), a position gone back to or forward to (undo,
 * redo): the clock follows (full times; the times at that ply, the flag
 * lifted). */
void session_clock_restart(session_t *s);
void session_clock_goto(session_t *s, double now);
/* Side's time left now (the side to move's running while the game goes
 * on). */
double session_clock_left(const session_t *s, int side, double now);
/* The control and both times in words: "clock 5+3: White 4:58, Black 5:00". */
void session_clock_text(const session_t *s, double now, char *buf, size_t n);
/* The front end's tick: the clock starts running, is held (hold: 1 while
 * the computer's move is stopped) or goes on, and the side to move's flag
 * falls when its time is out. Returns 1 when the flag fell now. */
int session_clock_tick(session_t *s, double now, int hold);
/* A move was just played (s->ply one further): the mover's time spent is
 * taken off and the increment added. */
void session_clock_moved(session_t *s, double now);
/* The flag fell at the current position: 1 with the result for the side
 * to move (a loss, or a draw where the opponent cannot win) and why in
 * words ("White out of time"; "Black out of time, but White cannot win"). */
int session_clock_over(const session_t *s, val_t *value, char *why, size_t n);
/* The computer's time for its move at the current position from its
 * clock: a share of what it has left plus most of the increment, kept
 * well under what is left so it does not lose on time. */
double session_clock_budget(const session_t *s);

#endif

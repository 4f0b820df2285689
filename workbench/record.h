/* Game records in the workbench: a game's own record format (PDN for
 * checkers) through the plugin's record_read / record_write hooks, for the
 * `load FILE` and `export [FILE]` commands and `gsw play --file`. No game
 * code: any game that fills the hooks gets them. */
#ifndef GSW_RECORD_H
#define GSW_RECORD_H

#include "games/record_file.h"
#include "workbench/session.h"

/* Read the record file path for the session: the game is the one whose
 * extension the name has (the session's own first), else the session's
 * game. Replaces the session's game with the record's start and moves;
 * a file that cannot be read or parsed changes nothing (GSW_EINPUT). */
int record_load(session_t *s, const char *path, int which, int *nmoves, int *ngames, err_t *err);
/* The session's game made the one that starts at start (a position of v)
 * with moves[0..n-1] played, checked legal already (a record read): a
 * lesson ends, the moves are the game's history (undo steps back through
 * them). A bad start changes nothing; what names the moves' source in an
 * error ("move 3 of WHAT"). */
int record_start_game(session_t *s, const gv_t *v, const void *start, const move_t *moves, int n, const char *what,
                      err_t *err);
/* The game's record (start through the last move, redo moves included)
 * into out; 0 when the game has no record format (out untouched). */
int record_export(const session_t *s, out_t *out);

/* gsw play --file F: the record read once (so a bad one is an error before
 * the screen opens), then the workbench's command that loads it into line. */
struct cli_args;
int record_play_line(const struct cli_args *o, char *line, size_t n, err_t *err);

#endif

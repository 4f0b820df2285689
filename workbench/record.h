/* Game records in the workbench: a game's own record format (PDN for
 * checkers) through the plugin's record_read / record_write hooks, for the
 * `load FILE` and `export [FILE]` commands and `gsw play --file`. No game
 * code: any game that fills the hooks gets them. */
#ifndef GSW_RECORD_H
#define GSW_RECORD_H

#include "workbench/session.h"

/* 1 if a load argument names a record file rather than a saved game: it
 * holds a '/' or ends in ".EXT" for some game's record_ext. */
int record_is_file(const char *arg);
/* Read the record file path: its game is the one whose record_ext the
 * name ends in (cur's own first; cur may be NULL), else cur's game, whose
 * variant is opened into *out (close it) with the start and moves. */
int record_read_file(const gv_t *cur, const char *path, gv_t **out, void *start, move_t *moves, int max, int *n,
                     err_t *err);
/* The same for game which (1-based; 0: the first) of a file with several
 * (each begins at a "[Event " tag); *ngames (may be NULL) gets how many. */
int record_read_game(const gv_t *cur, const char *path, int which, gv_t **out, void *start, move_t *moves, int max,
                     int *n, int *ngames, err_t *err);
/* Read the record file path for the session: the game is the one whose
 * extension the name has (the session's own first), else the session's
 * game. Replaces the session's game with the record's start and moves;
 * a file that cannot be read or parsed changes nothing (GSW_EINPUT). */
int record_load(session_t *s, const char *path, int which, int *nmoves, int *ngames, err_t *err);
/* The game's record (start through the last move, redo moves included)
 * into out; 0 when the game has no record format (out untouched). */
int record_export(const session_t *s, out_t *out);

/* gsw play --file F: the record read once (so a bad one is an error before
 * the screen opens), then the workbench's command that loads it into line. */
struct cli_args;
int record_play_line(const struct cli_args *o, char *line, size_t n, err_t *err);

#endif

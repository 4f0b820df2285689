/* Game record files, read for any front end: the game a file belongs to
 * (by its extension, through the plugins' record_ext), the file's games
 * (each begins at an "[Event " line) and one game read by the plugin's
 * record_read hook; and, for games with no record format (Connect Four),
 * a file of moves: a move string ("4453") or moves between spaces. The
 * workbench's `load FILE`, `gsw play --file` and `gsw annotate` read
 * records here. */
#ifndef GSW_RECORD_FILE_H
#define GSW_RECORD_FILE_H

#include "core/err.h"
#include "core/game.h"

/* Does path end in "." ext (any case)? */
int record_has_ext(const char *path, const char *ext);
/* The registered game whose record files end in path's extension: its
 * default variant opened into *out (close it); 0 if none. */
int record_game_for(const char *path, gv_t **out);
/* 1 if a load argument names a record file rather than a saved game: it
 * holds a '/' or ends in ".EXT" for some game's record_ext. */
int record_is_file(const char *arg);
/* Read the record file path: its game is the one whose record_ext the
 * name ends in (cur's own first; cur may be NULL), else cur's game, whose
 * variant is opened into *out (close it) with the start and moves. */
int record_read_file(const gv_t *cur, const char *path, gv_t **out, void *start, move_t *moves, int max, int *n,
                     err_t *err);
/* The same for game which (1-based; 0: the first) of a file with several
 * (each begins at a "[Event " tag); *ngames (may be NULL) gets how many;
 * *text (may be NULL) that game's text (heap: free it). */
int record_read_game_text(const gv_t *cur, const char *path, int which, gv_t **out, void *start, move_t *moves,
                          int max, int *n, int *ngames, char **text, err_t *err);
int record_read_game(const gv_t *cur, const char *path, int which, gv_t **out, void *start, move_t *moves, int max,
                     int *n, int *ngames, err_t *err);

/* Moves as text for v from its start: each word (between spaces, commas
 * or newlines) a move in the game's notation, or, where the whole word is
 * none, a string of moves one character each ("4453" in Connect Four); a
 * '#' begins a comment to the end of its line. Each is checked legal and
 * played; at most max into moves, their count into *n; GSW_EINPUT naming
 * the move (its number from 1) for an illegal or malformed one. */
int record_read_moves(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err);
/* The file path of moves for v (record_read_moves). */
int record_read_moves_file(const gv_t *v, const char *path, void *start, move_t *moves, int max, int *n, err_t *err);

#endif

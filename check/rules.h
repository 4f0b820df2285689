/* The games' rules as the separate checker sees them: positions in gsw's
 * text, legal moves, moves in gsw's notation, the end of the game and its
 * value, and for games with databases the games' indexing (retro_game_t's
 * slices, locate and position; never its engine). Checkers and chess wrap
 * games/checkers/ck.h and games/chess/ch.h; Connect Four's rules are
 * c4.c's own, since gsw's are woven into its alpha-beta engine. */
#ifndef GSW_CHECK_RULES_H
#define GSW_CHECK_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/game.h"

struct retro_game;

typedef struct rules rules_t;
struct rules {
    char name[64];             /* "checkers", "chess", "connect4:5x4" */
    const char *game;          /* "checkers", "chess", "connect4" */
    int repeat_draws;          /* a repeated position is a draw (endless play too) */
    int w, h;                  /* Connect Four's board */
    const struct retro_game *retro;   /* the databases' indexing, or NULL */
    int (*parse)(const rules_t *r, const char *text, void *pos, err_t *err);
    void (*format)(const rules_t *r, const void *pos, char *buf, size_t n);
    /* Legal moves (0 when none); play one. */
    int (*moves)(const rules_t *r, const void *pos, move_t *out);
    int (*move_parse)(const rules_t *r, const void *pos, const char *text, move_t *m, err_t *err);
    void (*move_format)(const rules_t *r, const void *pos, move_t m, char *buf, size_t n);
    void (*play)(const rules_t *r, void *pos, move_t m);
    /* 1 when the game is over at pos by its rules, with *v its value (cert.h's scale). */
    int (*over)(const rules_t *r, const void *pos, int32_t *v);
    /* The same position for the repetition rule (pieces, side to move, rights). */
    int (*same)(const void *a, const void *b);
    /* A move that starts a new count for distance to conversion. */
    int (*conversion)(const void *pos, move_t m);
};

/* The rules of GAME:VARIANT as a certificate names them: GSW_OK, or
 * GSW_EINPUT for a game the checker does not know. */
int rules_open(const char *spec, rules_t *r, err_t *err);

/* Connect Four (c4.c): the board and the cells for the strong solution's
 * assignment (cells[c * h + r]: 0, or 1 + the player; r = 0 the bottom)
 * and the discs played. */
int c4_open(int w, int h, rules_t *r, err_t *err);
int c4_cells(const rules_t *r, const void *pos, int8_t *cells);

#endif

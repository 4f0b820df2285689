/* Games people saved from the TUI or the shell, kept in the cache file
 * beside the solved positions: a name, the game and variant, the start
 * position's text and the moves in the game's notation. */
#ifndef GSW_SAVED_H
#define GSW_SAVED_H

#include <stdint.h>

#include "db/cache.h"

typedef struct saved_game {
    char name[64];
    char game[32];
    char variant[48];
    char start[512];       /* position text ("" = the start) */
    char moves[8192];      /* moves in notation, separated by spaces */
    int64_t saved;         /* Unix time */
} saved_game_t;

/* Store (or replace) a game under g->name. */
int saved_put(cache_t *c, const saved_game_t *g, err_t *err);
/* 1 found, 0 no game of that name, -1 error. */
int saved_get(cache_t *c, const char *name, saved_game_t *g, err_t *err);
/* Up to max games, newest first, into out; the count, or -1 on error. */
int saved_list(cache_t *c, saved_game_t *out, int max, err_t *err);

#endif

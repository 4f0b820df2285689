/* The game registry: every plugin gsw knows, in the order `gsw games` lists them. */
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "games/checkers/ck.h"
#include "games/chess/ch.h"
#include "games/connect4/c4.h"
#include "games/solitaire/sol.h"

const game_t *const gsw_games[] = {
    &connect4_game,
    &solitaire_game,
    &checkers_game,
    &chess_game,
    NULL,
};

const game_t *game_find(const char *name)
{
    for (int i = 0; gsw_games[i]; i++)
        if (!strcmp(gsw_games[i]->name, name)) return gsw_games[i];
    return NULL;
}

int game_open(const char *spec, gv_t **out, err_t *err)
{
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, spec, n);
    name[n] = '\0';
    const game_t *g = game_find(name);
    if (!g) {
        char list[256] = "";
        for (int i = 0; gsw_games[i]; i++) {
            if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, gsw_games[i]->name, sizeof list - strlen(list) - 1);
        }
        return err_set(err, GSW_EINPUT, "unknown game \"%s\" (known: %s)", name, list);
    }
    return g->variant_open(colon ? colon + 1 : NULL, out, err);
}

void game_close(gv_t *v)
{
    if (v) v->game->variant_close(v);
}


/* Helpers over an opened variant: start-position shorthands, names. The
 * registry lookup (game_find, game_open) lives in games/registry.c. */
#include "core/game.h"

#include <stdio.h>
#include <string.h>

int game_pos_parse(const gv_t *v, const char *text, void *pos, err_t *err)
{
    if (!text || !*text || !strcmp(text, "startpos")) {
        v->ops->pos_start(v, pos);
        return GSW_OK;
    }
    return v->ops->pos_parse(v, text, pos, err);
}

void game_spec(const gv_t *v, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%s", v->game->name, v->name);
}

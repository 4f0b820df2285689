/* Helpers over an opened variant: start-position shorthands, names. The
 * registry lookup (game_find, game_open) lives in games/registry.c. */
#include "core/game.h"

#include <stdio.h>
#include <stdlib.h>
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

int game_dup(const gv_t *v, gv_t **out, err_t *err)
{
    return v->game->variant_open(v->name, out, err);
}

int game_nsym(const gv_t *v)
{
    int n = v->ops->nsym_of ? v->ops->nsym_of(v) : v->ops->nsym;
    return n > 0 ? n : 1;
}

int game_move_kind(const gv_t *v, const void *pos)
{
    const game_ops_t *O = v->ops;
    if (O->move_kind > GAME_MOVE_UNSET && O->move_kind <= GAME_MOVE_CHAIN) return O->move_kind;
    if (O->view) {
        board_view_t *view = calloc(1, sizeof *view);
        int drop = 0;
        if (view) {
            O->view(v, pos, view);
            drop = view->drop;
            free(view);
        }
        if (drop) return GAME_MOVE_DROP;
    }
    move_t mv[GSW_MAX_MOVES];
    int n = O->move_cells ? O->moves(v, pos, mv) : 0;
    for (int i = 0; i < n; i++) {
        int from = -1, to = -1;
        O->move_cells(v, pos, mv[i], &from, &to);
        if (from < 0) return GAME_MOVE_PLACE;
    }
    return GAME_MOVE_FROM_TO;
}

int game_variants(const game_t *g, const char **names, int max)
{
    int n = 0;
    if (max < 1) return 0;
    if (g->default_variant) names[n++] = g->default_variant;
    const char *const *list = g->menu_variants ? g->menu_variants : g->test_variants;
    for (int k = 0; list && list[k] && n < max; k++) {
        int dup = 0;
        for (int i = 0; i < n && !dup; i++) dup = !strcmp(names[i], list[k]);
        if (!dup) names[n++] = list[k];
    }
    return n;
}

int game_count_left(const gv_t *v, const void *pos)
{
    const game_ops_t *O = v->ops;
    if (!O->count_rule || !O->pos_reversible) return -1;
    int left = -1;
    O->pos_reversible(v, pos, &left);
    return left < 0 ? 0 : left;
}

int game_count_over(const gv_t *v, const void *pos)
{
    val_t tv;
    return game_count_left(v, pos) == 0 && !v->ops->terminal(v, pos, &tv);
}

void game_count_bounds(const gv_t *v, const void *pos, int left, const gsw_oracle_t *o, val_t *lo, val_t *hi)
{
    if (left < 0) return;
    val_t tv;
    if (left == 0 && !v->ops->terminal(v, pos, &tv)) {   /* the clock has run out: the rule's draw */
        *lo = *hi = VAL_DRAW;
        return;
    }
    val_t l = *lo, h = *hi;
    /* a bound within the plies left stands; one beyond them widens to a draw */
    int wide_win = l > VAL_DRAW && val_plies(l) > left, wide_loss = h < VAL_DRAW && val_plies(h) > left;
    if (wide_win) l = VAL_DRAW;
    if (wide_loss) h = VAL_DRAW;
    int conv;
    if ((wide_win || wide_loss) && o && o->conversion && o->conversion(o->ctx, pos, &conv)) {
        if (conv > left) l = h = VAL_DRAW;               /* no conversion in time: drawn by the rule */
        else if (wide_win) l = val_win(VAL_MAX_PLIES);   /* converted in time: the result stands */
        else h = val_loss(VAL_MAX_PLIES);
    }
    *lo = l;
    *hi = h;
}

static int count_oracle_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    const gsw_count_oracle_t *c = ctx;
    if (!c->inner->probe(c->inner->ctx, v, pos, lo, hi)) return 0;
    if (c->on && !*c->on) return 1;
    game_count_bounds(v, pos, game_count_left(v, pos), c->inner, lo, hi);
    return 1;
}

static int count_oracle_conversion(void *ctx, const void *pos, int *plies)
{
    const gsw_count_oracle_t *c = ctx;
    return c->inner->conversion(c->inner->ctx, pos, plies);
}

const gsw_oracle_t *game_count_oracle(gsw_count_oracle_t *c, const gsw_oracle_t *inner, const int *on)
{
    c->inner = inner;
    c->on = on;
    c->o.probe = count_oracle_probe;
    c->o.conversion = inner && inner->conversion ? count_oracle_conversion : NULL;
    c->o.ctx = c;
    return inner ? &c->o : NULL;
}

int game_repetition_draw(const gv_t *v, const void *pos, val_t *value)
{
    (void)v;
    (void)pos;
    *value = VAL_DRAW;
    return 1;
}

int game_line_threefold(const void *const *line, int n, int back, int (*same)(const void *a, const void *b),
                        val_t *value, char *why, size_t wn)
{
    if (n < 1) return 0;
    const void *cur = line[n - 1];
    int seen = 1;
    for (int i = n - 3; i >= 0 && i >= n - 1 - back; i -= 2)
        if (same(line[i], cur) && ++seen == 3) {
            *value = VAL_DRAW;
            snprintf(why, wn, "threefold repetition");
            return 1;
        }
    return 0;
}

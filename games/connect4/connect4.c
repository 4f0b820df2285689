/* The Connect Four plugin: variant parsing ("WxH", default 7x6) and the
 * choice of engine by board size. The rules, notation and solver hooks live
 * in c4_engine.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/connect4/c4.h"

static int c4_variant_open(const char *spec, gv_t **out, err_t *err)
{
    int w = 7, h = 6;
    if (spec && *spec) {
        char tail;
        if (sscanf(spec, "%dx%d%c", &w, &h, &tail) != 2)
            return err_set(err, GSW_EINPUT, "unknown connect4 variant \"%s\" (expected WIDTHxHEIGHT, e.g. 7x6)", spec);
        if (w < 1 || h < 1)
            return err_set(err, GSW_EINPUT, "connect4 board %dx%d has no squares (width and height from 1)", w, h);
        if (w > 64 || h > 63 || w * (h + 1) > 128)
            return err_set(err, GSW_EINPUT,
                           "connect4 board %dx%d is not supported (need width*(height+1) <= 128)", w, h);
    }
    struct c4_variant { gv_t v; c4v_t d; } *both = calloc(1, sizeof *both);
    if (!both) return err_set(err, GSW_EFAIL, "out of memory");
    gv_t *v = &both->v;
    c4v_t *d = &both->d;
    d->w = w;
    d->h = h;
    d->h1 = h + 1;
    d->cells = w * h;
    for (int i = 0; i < w; i++)   /* centre first, then outwards */
        d->order[i] = w % 2 ? w / 2 + (i % 2 ? -(i + 1) / 2 : i / 2)
                            : (w - 1) / 2 + (i % 2 ? (i + 1) / 2 : -(i / 2));
    u128 colbits = (((u128)1) << h) - 1;
    for (int c = 0; c < w; c++) {
        d->bottom |= (u128)1 << (c * d->h1);
        d->board |= colbits << (c * d->h1);
    }
    v->game = &connect4_game;
    v->ops = w == 7 && h == 6 ? &c4_ops_7x6 : (w * d->h1 <= 64 && d->h1 < 64) ? &c4_ops_64 : &c4_ops_128;
    snprintf(v->name, sizeof v->name, "%dx%d", w, h);
    v->data = d;
    *out = v;
    return GSW_OK;
}

static void c4_variant_close(gv_t *v)
{
    free(v);
}

static const char *const c4_menu_variants[] = { "7x6", "6x5", "6x4", "5x4", "4x4", "7x5", "6x6", "8x7", "9x7", "8x8", NULL };
static const char *const c4_test_variants[] = { "7x6", "4x4", "5x4", "6x7", "8x8", "9x7", "10x5", "3x3", NULL };

const game_t connect4_game = {
    .name = "connect4",
    .title = "Connect Four",
    .summary = "Drop stones into columns; four in a row wins. Any width x height.",
    .players = 2,
    .default_variant = "7x6",
    .variants_help = "WxH with width*(height+1) <= 128 (e.g. 7x6, 6x5, 8x8, 9x7)",
    .test_variants = c4_test_variants,
    .menu_variants = c4_menu_variants,
    .variant_open = c4_variant_open,
    .variant_close = c4_variant_close,
};

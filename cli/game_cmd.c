/* `gsw games` (the games and their variants) and `gsw perft` (move
 * sequences counted to a depth). */
#include "cli/game_cmd.h"

#include <stdio.h>
#include <string.h>

#include "core/ab.h"
#include "core/game.h"
#include "cli/json.h"

#define GAMES_MENU_MAX 32   /* variants listed per game at most */

static int cli_games(cli_args_t *o)
{
    const char *menu[GAMES_MENU_MAX];
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_arr(&j, "games");
        for (int i = 0; gsw_games[i]; i++) {
            const game_t *g = gsw_games[i];
            json_obj(&j, NULL);
            json_str(&j, "name", g->name);
            json_str(&j, "title", g->title);
            json_int(&j, "players", g->players);
            json_str(&j, "default_variant", g->default_variant);
            json_str(&j, "variants", g->variants_help);
            json_str(&j, "summary", g->summary);
            json_arr(&j, "menu");   /* the variants offered by name (game_variants), the default first */
            for (int k = 0, n = game_variants(g, menu, GAMES_MENU_MAX); k < n; k++) json_str(&j, NULL, menu[k]);
            json_close(&j, ']');
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_end(&j);
        return GSW_OK;
    }
    for (int i = 0; gsw_games[i]; i++) {
        const game_t *g = gsw_games[i];
        printf("%-10s %s (%d player%s) — %s\n           variants: %s; default %s\n           menu:", g->name, g->title,
               g->players, g->players > 1 ? "s" : "", g->summary, g->variants_help, g->default_variant);
        for (int k = 0, n = game_variants(g, menu, GAMES_MENU_MAX); k < n; k++) printf("%s %s", k ? "," : "", menu[k]);
        printf("\n");
    }
    return GSW_OK;
}

static uint64_t cli_perft_rec(const gv_t *v, const void *pos, int depth)
{
    if (depth == 0) return 1;
    if (depth == 1 && v->ops->count_moves) return (uint64_t)v->ops->count_moves(v, pos);
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv);
    if (depth == 1) return (uint64_t)n;
    GSW_POSBUF child[GSW_MAX_POS];
    uint64_t total = 0;
    for (int i = 0; i < n && !opts_stop; i++) {
        memcpy(child, pos, v->ops->pos_size);
        v->ops->play(v, child, mv[i]);
        total += cli_perft_rec(v, child, depth - 1);
    }
    return total;
}

/* Digits only. */
static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

static int cli_perft(cli_args_t *o)
{
    if (o->npos < 1 || o->npos > 3) return opts_usage_error(o, 3, "missing GAME");
    if (o->npos == 1 || !all_digits(o->pos[o->npos - 1])) {   /* GAME [POSITION] and no DEPTH */
        if (o->npos == 3) {
            fprintf(stderr, "gsw: perft: DEPTH: bad value \"%s\" (expected a whole number from 0 to 64)\n", o->pos[2]);
            return GSW_EINPUT;
        }
        return opts_usage_error(o, 3, "perft needs a DEPTH");
    }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 3 ? o->pos[1] : "";
    const char *dtext = o->pos[o->npos - 1];
    double d;
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = opts_parse_num("perft: DEPTH", dtext, 0, 64, 1, &d);
    if (!rc && game_pos_parse(v, ptext, pos, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        rc = err.code;
    }
    move_t root[GSW_MAX_MOVES];
    uint64_t sub[GSW_MAX_MOVES];
    int nroot = 0;
    if (!rc) {
        double t0 = gsw_now_ms();
        uint64_t n = 0;
        if (args_flag(o, "divide") && d >= 1) {   /* each first move's count: the sum is the total */
            GSW_POSBUF child[GSW_MAX_POS];
            nroot = v->ops->moves(v, pos, root);
            for (int i = 0; i < nroot && !opts_stop; i++) {
                memcpy(child, pos, v->ops->pos_size);
                v->ops->play(v, child, root[i]);
                n += sub[i] = cli_perft_rec(v, child, (int)d - 1);
            }
        } else {
            n = cli_perft_rec(v, pos, (int)d);
        }
        double ms = gsw_now_ms() - t0;
        char mt[64];
        if (opts_stop) { fprintf(stderr, "gsw: interrupted\n"); rc = GSW_EFAIL; }
        else if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            char spec[96];
            game_spec(v, spec, sizeof spec);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            json_int(&j, "depth", (int)d);
            json_int(&j, "nodes", (int64_t)n);
            json_num(&j, "time_ms", ms);
            if (args_flag(o, "divide")) {
                json_arr(&j, "divide");
                for (int i = 0; i < nroot; i++) {
                    v->ops->move_format(v, pos, root[i], mt, sizeof mt);
                    json_obj(&j, NULL);
                    json_str(&j, "move", mt);
                    json_int(&j, "nodes", (int64_t)sub[i]);
                    json_close(&j, '}');
                }
                json_close(&j, ']');
            }
            json_end(&j);
        } else {
            char nt[32];
            for (int i = 0; i < nroot; i++) {   /* --divide: "MOVE COUNT" lines, then the total */
                v->ops->move_format(v, pos, root[i], mt, sizeof mt);
                printf("%s %llu\n", mt, (unsigned long long)sub[i]);
            }
            printf("%llu\n", (unsigned long long)n);
            fprintf(stderr, "perft %d: %s in %.1f ms\n", (int)d, opts_thousands(n, nt, sizeof nt), ms);
        }
    }
    game_close(v);
    return rc;
}


static const cli_opt_t *const games_opts[] = { opts_json, NULL };

const cli_verb_t verb_games = {
    "games", "gsw games [--json]", "list the games and their variants", cli_games, 0, NULL, .opts = games_opts
};

static const cli_opt_t perft_own[] = {
    { "divide", OPT_FLAG, NULL, "the count under each first move", 0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const perft_opts[] = { opts_json, perft_own, NULL };

const cli_verb_t verb_perft = {
    "perft", "gsw perft GAME[:VARIANT] [POSITION] DEPTH [--divide]",
      "count the move sequences of DEPTH plies (--divide: the count under each first move)", cli_perft, 3, NULL, .opts = perft_opts
};

/* Game records in the workbench: choosing the game a record file belongs
 * to, reading it into the session, and writing the session's game, all
 * through the plugin's record hooks (core/game.h). */
#include "workbench/record.h"
#include "workbench/session_clock.h"

#include "cli/opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int record_start_game(session_t *s, const gv_t *v, const void *start, const move_t *moves, int n, const char *what,
                      err_t *err)
{
    posbuf_t init;
    /* the start as text for the session ("" for the game's own start) */
    char spec[96], stext[512] = "";
    game_spec(v, spec, sizeof spec);
    v->ops->pos_start(v, init.b);
    uint8_t k1[GSW_MAX_KEY], k2[GSW_MAX_KEY];
    size_t l1 = v->ops->pos_key(v, start, k1, NULL), l2 = v->ops->pos_key(v, init.b, k2, NULL);
    if (l1 != l2 || memcmp(k1, k2, l1)) v->ops->pos_format(v, start, stext, sizeof stext);
    if (session_new(s, spec, stext, err)) return err->code;
    lesson_free(s->lesson);
    s->lesson = NULL;
    for (int i = 0; i < n; i++) {
        err_t e;
        if (session_play(s, moves[i], &e)) return err_set(err, GSW_EINPUT, "%s: move %d: %s", what, i + 1, e.msg);
    }
    return GSW_OK;
}

int record_load(session_t *s, const char *path, int which, int *nmoves, int *ngames, err_t *err)
{
    static move_t moves[SESSION_MAX_PLY];   /* (too big for the TUI thread's stack frame) */
    posbuf_t start;
    gv_t *v;
    int n = 0;
    if (record_read_game(s->v, path, which, &v, start.b, moves, SESSION_MAX_PLY, &n, ngames, err)) return err->code;
    int rc = record_start_game(s, v, start.b, moves, n, path, err);
    game_close(v);
    if (rc) return rc;
    *nmoves = n;
    return GSW_OK;
}

int record_play_line(const cli_args_t *o, char *line, size_t n, err_t *err)
{
    const char *file = args_str(o, "file");
    int game_no = args_int(o, "game", 0);
    if (o->npos > 1)
        return err_set(err, GSW_EINPUT, "--file and a POSITION: give one (the record holds its start position)");
    gv_t *cur = NULL, *v;
    if (o->npos && game_open(o->pos[0], &cur, err)) return err->code;
    if (cur && !record_has_ext(file, cur->ops->record_ext) && record_game_for(file, &v)) {
        /* another game's record: said, not a switch of game */
        char msg[300];
        snprintf(msg, sizeof msg, "%s is a %s record (.%s), not a %s one%s%s%s", file, v->game->name,
                 v->ops->record_ext, cur->game->name, cur->ops->record_ext ? " (." : "",
                 cur->ops->record_ext ? cur->ops->record_ext : "", cur->ops->record_ext ? ")" : "");
        game_close(v);
        game_close(cur);
        return err_set(err, GSW_EINPUT, "%s", msg);
    }
    static move_t moves[SESSION_MAX_PLY];
    posbuf_t start;
    int nm, rc = record_read_game(cur, file, game_no, &v, start.b, moves, SESSION_MAX_PLY, &nm, NULL, err);
    if (cur) game_close(cur);
    if (rc) return rc;
    game_close(v);
    if ((size_t)snprintf(line, n, "load %s%s%s%.0d", strchr(file, '/') ? "" : "./", file, game_no ? " #" : "",
                         game_no) >= n)
        return err_set(err, GSW_EINPUT, "--file: the path is too long");
    return GSW_OK;
}

/* One player's name: the person ($USER, else "you"; autoplay plays for
 * them) or the computer ("gsw, heuristic:5"). */
static void record_player(const opponent_t *o, char *buf, size_t n)
{
    const char *user = getenv("USER");
    char opp[48];
    opponent_text(o, opp, sizeof opp);
    if (o->kind == OPP_HUMAN) snprintf(buf, n, "%s", user && *user ? user : "you");
    else snprintf(buf, n, "gsw, %s", opp);
}

/* Write the record buf to out with its players named where the writer
 * left "?", by the sides' names (the tags [White "?"], [Black "?"]): each
 * player that made a move of that side, in turn ("gsw, heuristic:5; gsw,
 * perfect"), or for a side with no move yet the one set to play it. */
static void record_name_players(const session_t *s, const char *buf, out_t *out)
{
    board_view_t view;
    memset(&view, 0, sizeof view);
    if (s->v->ops->view) s->v->ops->view(s->v, s->pos[0].b, &view);
    char who[2][200] = { "", "" };
    for (int j = 0; j < s->top; j++) {
        char one[80];
        int i = s->v->ops->pos_turn(s->v, s->pos[j].b) & 1;
        size_t k = strlen(who[i]);
        record_player(&s->by[j], one, sizeof one);
        for (const char *p = who[i]; (p = strstr(p, one)); p++)
            if ((p == who[i] || p[-1] == ' ') && (p[strlen(one)] == ';' || !p[strlen(one)])) { one[0] = 0; break; }
        if (one[0]) snprintf(who[i] + k, sizeof who[i] - k, "%s%s", k ? "; " : "", one);
    }
    for (int i = 0; i < 2; i++) {
        opponent_t person = { .kind = OPP_HUMAN };
        if (!who[i][0]) record_player(s->human[i] || s->opp.kind == OPP_HUMAN ? &person : &s->opp, who[i], sizeof who[i]);
    }
    const char *p = buf;
    for (;;) {   /* each [SIDE "?"] tag of a side the view names */
        const char *best = NULL;
        int side = -1;
        size_t tl = 0;
        for (int i = 0; i < 2; i++) {
            char tag[40];
            if (!view.side[i][0]) continue;
            int k = snprintf(tag, sizeof tag, "[%s \"?\"]", view.side[i]);
            const char *q = strstr(p, tag);
            if (q && (!best || q < best)) { best = q; side = i; tl = (size_t)k; }
        }
        if (!best) break;
        out_printf(out, "%.*s[%s \"%s\"]", (int)(best - p), p, view.side[side], who[side]);
        p = best + tl;
    }
    out_printf(out, "%s", p);
}

int record_export(const session_t *s, out_t *out)
{
    const game_ops_t *O = s->v->ops;
    if (!O->record_write) return 0;
    const void *end = s->pos[s->top].b;
    const char *result = "*";
    val_t tv;
    int over = O->terminal(s->v, end, &tv);
    if (!over && O->line_over && s->top < SESSION_MAX_PLY) {
        const void **ln = malloc((size_t)(s->top + 1) * sizeof *ln);
        if (ln) {
            char why[64];
            for (int i = 0; i <= s->top; i++) ln[i] = s->pos[i].b;
            over = O->line_over(s->v, ln, s->top + 1, &tv, why, sizeof why);
            free(ln);
        }
    }
    if (!over && s->top == s->ply) over = session_clock_over(s, &tv, NULL, 0);   /* a flag fell at the end */
    if (over && s->v->game->players == 2) {
        int loser = O->pos_turn(s->v, end);
        result = tv == VAL_DRAW ? "1/2-1/2" : (tv < VAL_DRAW) == (loser == 1) ? "1-0" : "0-1";
    }
    size_t need = O->record_write(s->v, s->pos[0].b, s->moves, s->top, result, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf) return 0;
    O->record_write(s->v, s->pos[0].b, s->moves, s->top, result, buf, need + 1);
    record_name_players(s, buf, out);
    free(buf);
    return 1;
}

/* Game records in the workbench: choosing the game a record file belongs
 * to, reading it into the session, and writing the session's game, all
 * through the plugin's record hooks (core/game.h). */
#include "workbench/record.h"

#include "cli/opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RECORD_MAX_BYTES (4u << 20)

/* Does path end in "." ext (any case)? */
static int record_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = ext ? strlen(ext) : 0;
    return e && n > e + 1 && path[n - e - 1] == '.' && !strcasecmp(path + n - e, ext);
}

/* The registered game whose record files end in path's extension: its
 * default variant opened into *out; 0 if none. */
static int record_game_for(const char *path, gv_t **out)
{
    for (int i = 0; gsw_games[i]; i++) {
        gv_t *v;
        err_t e;
        if (game_open(gsw_games[i]->name, &v, &e)) continue;
        if (v->ops->record_read && record_has_ext(path, v->ops->record_ext)) { *out = v; return 1; }
        game_close(v);
    }
    return 0;
}

int record_is_file(const char *arg)
{
    if (strchr(arg, '/')) return 1;
    gv_t *v;
    if (!record_game_for(arg, &v)) return 0;
    game_close(v);
    return 1;
}

/* The whole file as a string (heap; free it). */
static char *record_slurp(const char *path, err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) { err_set(err, GSW_EINPUT, "cannot read %s: %s", path, strerror(errno)); return NULL; }
    char *buf = malloc(RECORD_MAX_BYTES + 1);
    if (!buf) { fclose(f); err_set(err, GSW_EFAIL, "out of memory"); return NULL; }
    size_t n = fread(buf, 1, RECORD_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(buf); err_set(err, GSW_EINPUT, "cannot read %s: %s", path, strerror(errno)); return NULL; }
    if (n > RECORD_MAX_BYTES) {
        free(buf);
        err_set(err, GSW_EINPUT, "%s: over %u MB, too long for one game record", path, RECORD_MAX_BYTES >> 20);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

/* The games of a record file: each begins at a line "[Event " (PGN and
 * PDN tag pairs); the offset of game k (0-based) into *at, and the count
 * (1 for a file with no such line or one). */
static int record_games(const char *text, int k, const char **at)
{
    int n = 0;
    *at = text;
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "[Event ", 7)) continue;
        if (n == k) *at = p;
        n++;
    }
    return n > 1 ? n : 1;
}

int record_read_file(const gv_t *cur, const char *path, gv_t **out, void *start, move_t *moves, int max, int *n,
                     err_t *err)
{
    return record_read_game(cur, path, 0, out, start, moves, max, n, NULL, err);
}

int record_read_game(const gv_t *cur, const char *path, int which, gv_t **out, void *start, move_t *moves, int max,
                     int *n, int *ngames, err_t *err)
{
    gv_t *v = NULL;
    char spec[96];
    if (cur && (record_has_ext(path, cur->ops->record_ext) || !record_game_for(path, &v))) {
        game_spec(cur, spec, sizeof spec);
        if (!cur->ops->record_read)
            return err_set(err, GSW_EINPUT, "%s has no game record format, so %s cannot be read (load NAME loads a "
                                            "saved game)", spec, path);
        if (game_open(spec, &v, err)) return err->code;
    } else if (!cur && !record_game_for(path, &v)) {
        char exts[128] = "";
        size_t k = 0;
        for (int i = 0; gsw_games[i] && k < sizeof exts; i++) {   /* the record files gsw reads */
            gv_t *g;
            err_t e;
            if (game_open(gsw_games[i]->name, &g, &e)) continue;
            if (g->ops->record_read && g->ops->record_ext)
                k += (size_t)snprintf(exts + k, sizeof exts - k, "%s.%s for %s", k ? ", " : "", g->ops->record_ext,
                                      gsw_games[i]->name);
            game_close(g);
        }
        return err_set(err, GSW_EINPUT, "%s: no game reads records of that name (record files: %s)", path,
                       k ? exts : "none");
    }
    char *text = record_slurp(path, err);
    if (!text) { game_close(v); return err->code; }
    const char *at;
    int games = record_games(text, which > 0 ? which - 1 : 0, &at);
    if (ngames) *ngames = games;
    if (which > games) {
        free(text);
        game_close(v);
        return err_set(err, GSW_EINPUT, "%s holds %d game%s: there is no game %d", path, games, games == 1 ? "" : "s", which);
    }
    if (games > 1) {   /* that game alone */
        const char *end;
        if (record_games(text, which > 0 ? which : 1, &end) > (which > 0 ? which : 1)) ((char *)end)[0] = 0;
        memmove(text, at, strlen(at) + 1);
    }
    int rc = v->ops->record_read(v, text, start, moves, max, n, err);
    free(text);
    if (rc) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        game_close(v);
        return err_set(err, rc, "%s: %s", path, msg);
    }
    *out = v;
    return GSW_OK;
}

int record_load(session_t *s, const char *path, int which, int *nmoves, int *ngames, err_t *err)
{
    static move_t moves[SESSION_MAX_PLY];   /* (too big for the TUI thread's stack frame) */
    posbuf_t start, init;
    gv_t *v;
    int n = 0;
    if (record_read_game(s->v, path, which, &v, start.b, moves, SESSION_MAX_PLY, &n, ngames, err)) return err->code;
    /* the start as text for the session ("" for the game's own start) */
    char spec[96], stext[512] = "";
    game_spec(v, spec, sizeof spec);
    v->ops->pos_start(v, init.b);
    uint8_t k1[GSW_MAX_KEY], k2[GSW_MAX_KEY];
    size_t l1 = v->ops->pos_key(v, start.b, k1, NULL), l2 = v->ops->pos_key(v, init.b, k2, NULL);
    if (l1 != l2 || memcmp(k1, k2, l1)) v->ops->pos_format(v, start.b, stext, sizeof stext);
    game_close(v);
    lesson_free(s->lesson);
    s->lesson = NULL;
    if (session_new(s, spec, stext, err)) return err->code;
    for (int i = 0; i < n; i++) {
        err_t e;
        if (session_play(s, moves[i], &e)) return err_set(err, GSW_EINPUT, "%s: move %d: %s", path, i + 1, e.msg);
    }
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

/* Game record files (see record_file.h): the game a file is for, its
 * games, one read through the plugin's hook; files of moves. */
#include "games/record_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RECORD_MAX_BYTES (4u << 20)

int record_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = ext ? strlen(ext) : 0;
    return e && n > e + 1 && path[n - e - 1] == '.' && !strcasecmp(path + n - e, ext);
}

int record_game_for(const char *path, gv_t **out)
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
    return record_read_game_text(cur, path, which, out, start, moves, max, n, ngames, NULL, err);
}

int record_read_game_text(const gv_t *cur, const char *path, int which, gv_t **out, void *start, move_t *moves,
                          int max, int *n, int *ngames, char **gtext, err_t *err)
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
    if (!rc && gtext) *gtext = text;
    else free(text);
    if (rc) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        game_close(v);
        return err_set(err, rc, "%s: %s", path, msg);
    }
    *out = v;
    return GSW_OK;
}


/* One word of a moves file at *p (past separators and comments) into
 * word (n bytes); 0 at the end. A word too long is cut (and then fails
 * to parse as a move, said). */
static int record_word(const char **p, char *word, size_t n)
{
    const char *s = *p;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == ',') s++;
        if (*s != '#') break;
        while (*s && *s != '\n') s++;
    }
    size_t k = 0;
    while (*s && !strchr(" \t\r\n,#", *s)) {
        if (k + 1 < n) word[k++] = *s;
        s++;
    }
    word[k] = 0;
    *p = s;
    return k > 0;
}

int record_read_moves(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err)
{
    const game_ops_t *O = v->ops;
    O->pos_start(v, start);
    GSW_POSBUF pos[GSW_MAX_POS];
    memcpy(pos, start, O->pos_size);
    *n = 0;
    char word[64];
    for (const char *p = text; record_word(&p, word, sizeof word);) {
        move_t m;
        err_t e;
        /* the word a move, else a string of one-character moves */
        int whole = !O->move_parse(v, pos, word, &m, &e);
        for (size_t i = 0; whole ? i < 1 : word[i] != 0; i++) {
            if (!whole) {
                char one[2] = { word[i], 0 };
                if (O->move_parse(v, pos, one, &m, &e))
                    return err_set(err, GSW_EINPUT, "move %d (\"%s\"): %s", *n + 1, one, e.msg);
            }
            if (*n >= max) return err_set(err, GSW_EINPUT, "more than %d moves", max);
            moves[(*n)++] = m;
            O->play(v, pos, m);
        }
    }
    if (*n == 0) return err_set(err, GSW_EINPUT, "no moves");
    return GSW_OK;
}

int record_read_moves_file(const gv_t *v, const char *path, void *start, move_t *moves, int max, int *n, err_t *err)
{
    char *text = record_slurp(path, err);
    if (!text) return err->code;
    int rc = record_read_moves(v, text, start, moves, max, n, err);
    free(text);
    if (rc) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return err_set(err, rc, "%s: %s", path, msg);
    }
    return GSW_OK;
}

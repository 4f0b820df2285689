/* Openings for engine matches (see match.h): a built-in book of common
 * short lines and the reader of openings files. Generic over the game's
 * ops: positions by pos_parse, moves by move_parse. */
#include "protocol/match.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPENINGS_MAX_BYTES (16u << 20)
#define OPENINGS_MAX 100000

/* Common short lines, as UCI moves from the start (the book's own text is
 * read by the same parser as a file). */
static const char *const builtin_book =
    "# Ruy Lopez\n"
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6\n"
    "# Italian\n"
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6\n"
    "# Scotch\n"
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6\n"
    "# Petroff\n"
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4\n"
    "# King's Gambit\n"
    "e2e4 e7e5 f2f4 e5f4 g1f3 g7g5\n"
    "# Sicilian Najdorf\n"
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6\n"
    "# Sicilian, Taimanov\n"
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6\n"
    "# Sicilian, Alapin\n"
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5\n"
    "# French\n"
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7\n"
    "# Caro-Kann\n"
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5\n"
    "# Scandinavian\n"
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5\n"
    "# Alekhine\n"
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3\n"
    "# Pirc\n"
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6\n"
    "# Queen's Gambit Declined\n"
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7\n"
    "# Queen's Gambit Accepted\n"
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 e2e3 e7e6\n"
    "# Slav\n"
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4\n"
    "# King's Indian\n"
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6\n"
    "# Nimzo-Indian\n"
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8\n"
    "# Queen's Indian\n"
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8b7\n"
    "# Grunfeld\n"
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5\n"
    "# Benoni\n"
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6 b1c3 e6d5 c4d5 d7d6\n"
    "# Dutch\n"
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6 g1f3\n"
    "# London\n"
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6 e2e3 c7c5\n"
    "# English\n"
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3\n"
    "# Reti\n"
    "g1f3 d7d5 g2g3 g8f6 f1g2 c7c6 e1g1\n";

/* Skip a token that is no move: a move number ("1.", "12...", "3"), a
 * result ("1-0", "0-1", "1/2-1/2", "*"). */
static int is_filler(const char *t)
{
    if (!strcmp(t, "*") || !strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2")) return 1;
    const char *p = t;
    while (isdigit((unsigned char)*p)) p++;
    if (p == t) return 0;
    while (*p == '.') p++;
    return *p == 0;
}

/* One line (NUL-terminated, no newline) into o; GSW_OK or GSW_EINPUT. */
static int parse_line(const gv_t *v, char *s, int lineno, match_opening_t *o, err_t *err)
{
    const game_ops_t *O = v->ops;
    err_t e;
    memset(o, 0, sizeof *o);
    o->line = lineno;
    if (strchr(s, '/')) {   /* a FEN */
        if (game_pos_parse(v, s, o->start, &e)) return err_set(err, GSW_EINPUT, "line %d: %s", lineno, e.msg);
    } else {
        O->pos_start(v, o->start);
        GSW_POSBUF cur[GSW_MAX_POS];
        memcpy(cur, o->start, O->pos_size);
        char *save = NULL;
        for (char *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            if (is_filler(tok)) continue;
            if (isdigit((unsigned char)*tok)) {   /* "1.e4", "12...Nf6" */
                char *q = tok;
                while (isdigit((unsigned char)*q)) q++;
                if (*q == '.') {
                    while (*q == '.') q++;
                    tok = q;
                }
            }
            if (!*tok) continue;
            if (o->n >= MATCH_OPENING_PLIES)
                return err_set(err, GSW_EINPUT, "line %d: over %d moves", lineno, MATCH_OPENING_PLIES);
            move_t m;
            if (O->move_parse(v, cur, tok, &m, &e))
                return err_set(err, GSW_EINPUT, "line %d: move %d (%.40s): %s", lineno, o->n + 1, tok, e.msg);
            O->play(v, cur, m);
            o->moves[o->n++] = m;
        }
        if (!o->n) return err_set(err, GSW_EINPUT, "line %d: neither a FEN nor moves", lineno);
    }
    GSW_POSBUF end[GSW_MAX_POS];
    memcpy(end, o->start, O->pos_size);
    for (int i = 0; i < o->n; i++) O->play(v, end, o->moves[i]);
    val_t val;
    move_t mv[GSW_MAX_MOVES];
    if (O->terminal(v, end, &val) || O->moves(v, end, mv) == 0)
        return err_set(err, GSW_EINPUT, "line %d: the game is already over there", lineno);
    return GSW_OK;
}

int match_openings_parse(const gv_t *v, const char *text, match_opening_t **out, int *n, err_t *err)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    match_opening_t *list = NULL;
    const char *p = text;
    int lineno = 0;
    char name[48] = "";
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        lineno++;
        char *s = malloc(len + 1);
        if (!s) { free(list); return err_set(err, GSW_EFAIL, "out of memory"); }
        memcpy(s, p, len);
        s[len] = 0;
        p = eol ? eol + 1 : p + len;
        for (char *c = s; *c; c++)   /* \r, tabs and other control bytes are blanks */
            if ((unsigned char)*c < ' ') *c = ' ';
        char *b = s;
        while (*b == ' ') b++;
        char *e = b + strlen(b);
        while (e > b && e[-1] == ' ') *--e = 0;
        if (!*b) { free(s); continue; }
        if (*b == '#') {
            b++;
            while (*b == ' ') b++;
            snprintf(name, sizeof name, "%s", b);
            free(s);
            continue;
        }
        if ((size_t)*n >= cap) {
            if (*n >= OPENINGS_MAX) {
                free(s);
                free(list);
                return err_set(err, GSW_EINPUT, "over %d openings", OPENINGS_MAX);
            }
            cap = cap ? cap * 2 : 32;
            match_opening_t *nl = realloc(list, cap * sizeof *nl);
            if (!nl) { free(s); free(list); return err_set(err, GSW_EFAIL, "out of memory"); }
            list = nl;
        }
        int rc = parse_line(v, b, lineno, &list[*n], err);
        snprintf(list[*n].name, sizeof list[*n].name, "%s", name);
        name[0] = 0;
        free(s);
        if (rc) { free(list); *n = 0; return rc; }
        (*n)++;
    }
    if (!*n) { free(list); return err_set(err, GSW_EINPUT, "no openings (one a line: a FEN or moves)"); }
    *out = list;
    return GSW_OK;
}

int match_openings_builtin(const gv_t *v, match_opening_t **out, int *n, err_t *err)
{
    return match_openings_parse(v, builtin_book, out, n, err);
}

int match_openings_file(const gv_t *v, const char *path, match_opening_t **out, int *n, err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EINPUT, "--openings: cannot read %s", path);
    char *buf = malloc(OPENINGS_MAX_BYTES + 1);
    if (!buf) { fclose(f); return err_set(err, GSW_EFAIL, "out of memory"); }
    size_t len = fread(buf, 1, OPENINGS_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || len > OPENINGS_MAX_BYTES) {
        free(buf);
        return err_set(err, GSW_EINPUT, "--openings: %s: %s", path, bad ? "cannot read it" : "over 16 MB");
    }
    buf[len] = 0;
    if (memchr(buf, 0, len)) { free(buf); return err_set(err, GSW_EINPUT, "--openings: %s: not text", path); }
    err_t e;
    int rc = match_openings_parse(v, buf, out, n, &e);
    free(buf);
    if (rc) return err_set(err, rc, "--openings: %s: %s", path, e.msg);
    return GSW_OK;
}

int match_elo(int w, int d, int l, double *elo, double *margin)
{
    int n = w + d + l;
    *elo = 0;
    *margin = INFINITY;
    if (n <= 0) return 1;
    double s = (w + 0.5 * d) / n;
    if (s <= 0 || s >= 1) { *elo = s <= 0 ? -INFINITY : INFINITY; return 1; }
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    double se = sqrt(var / n);
#define ELO(x) (-400.0 * log10(1.0 / (x) - 1.0))
    *elo = ELO(s) + 0.0;
    if (fabs(*elo) < 0.05) *elo = 0;   /* (no "-0") */
    double lo = s - 1.959964 * se, hi = s + 1.959964 * se;
    if (lo <= 0 || hi >= 1) *margin = INFINITY;
    else *margin = (ELO(hi) - ELO(lo)) / 2;
#undef ELO
    return 0;
}

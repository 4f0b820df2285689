/* Checkers FEN and move text: the first line is a position; whatever
 * parses formats as text that parses to the same position (key and text).
 * Each later line is a move against the position reached: one that parses
 * is legal, formats as text that parses back to it, and is played. Every
 * legal move's own text parses back to it too (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

static gv_t *v;

static void same_key(const void *a, const void *b, const char *what)
{
    uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
    size_t la = v->ops->pos_key(v, a, ka, NULL), lb = v->ops->pos_key(v, b, kb, NULL);
    if (la != lb || memcmp(ka, kb, la)) { fprintf(stderr, "%s: not the same position\n", what); abort(); }
}

static void check_move(const void *pos, move_t m)
{
    char t[128];
    move_t back;
    err_t err;
    v->ops->move_format(v, pos, m, t, sizeof t);
    if (v->ops->move_parse(v, pos, t, &back, &err)) {
        fprintf(stderr, "move \"%s\" does not parse back: %s\n", t, err.msg);
        abort();
    }
    if (back != m) { fprintf(stderr, "move \"%s\" parses as another move\n", t); abort(); }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("checkers", &v, &err)) { fprintf(stderr, "checkers: %s\n", err.msg); abort(); }
    }
    char *s = fuzz_str(data, size);
    char *nl = strchr(s, '\n');
    char *rest = nl ? nl + 1 : NULL;
    if (nl) *nl = 0;
    GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    err_t err;
    if (game_pos_parse(v, s, a, &err)) { free(s); return 0; }
    char t1[1024], t2[1024];
    v->ops->pos_format(v, a, t1, sizeof t1);
    if (game_pos_parse(v, t1, b, &err)) {
        fprintf(stderr, "\"%s\" formats as \"%s\", which does not parse: %s\n", s, t1, err.msg);
        abort();
    }
    same_key(a, b, t1);
    v->ops->pos_format(v, b, t2, sizeof t2);
    if (strcmp(t1, t2)) { fprintf(stderr, "\"%s\" -> \"%s\" -> \"%s\"\n", s, t1, t2); abort(); }
    for (int lines = 0; rest && lines < 64; lines++) {
        char *line = rest;
        nl = strchr(line, '\n');
        rest = nl ? nl + 1 : NULL;
        if (nl) *nl = 0;
        move_t mv[GSW_MAX_MOVES], m;
        int n = v->ops->moves(v, a, mv);
        for (int i = 0; i < n; i++) check_move(a, mv[i]);
        if (v->ops->move_parse(v, a, line, &m, &err)) continue;
        int legal = 0;
        for (int i = 0; i < n && !legal; i++) legal = mv[i] == m;
        if (!legal) { fprintf(stderr, "\"%s\" parses as a move that is not legal\n", line); abort(); }
        check_move(a, m);
        v->ops->play(v, a, m);
    }
    free(s);
    return 0;
}

/* Every registered game's position and move text (core/game.h: pos_parse,
 * pos_format, move_parse, move_format), the games and their variants taken
 * from the registry (gsw_games and each game's test_variants), so a game
 * added there is fuzzed with no line here. The input's first byte picks the
 * game (its index in gsw_games, modulo their number), the second one of its
 * test variants (modulo their number); the rest is a position's text on its
 * first line ("" or "startpos": the start), then moves, a line each.
 * Whatever parses formats as text that parses to the same position (the
 * same text again, the same key, hash and side to move); every legal move
 * of it formats as text that parses back to that move; a move line that
 * parses is a legal move, is played, and the position it reaches is
 * checked the same way. A refusal comes with a message. abort() otherwise.
 * With GSW_FUZZ_LIST set, the first input prints the variants covered, one
 * "game:variant" a line (tests/games/test_add_game.sh reads it). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

#define MAX_VARIANTS 256

static gv_t *opened[MAX_VARIANTS];
static int first_of[MAX_VARIANTS + 1];   /* game g's variants: opened[first_of[g] .. first_of[g + 1]) */
static int ngames;

static void open_all(void)
{
    int n = 0;
    for (ngames = 0; gsw_games[ngames]; ngames++) {
        const game_t *g = gsw_games[ngames];
        if (ngames >= MAX_VARIANTS) abort();
        first_of[ngames] = n;
        const char *const *tv = g->test_variants;
        for (int i = 0; i == 0 || (tv && tv[i]); i++) {   /* none listed: the default variant */
            char spec[160];
            if (tv && tv[i]) snprintf(spec, sizeof spec, "%s:%s", g->name, tv[i]);
            else snprintf(spec, sizeof spec, "%s", g->name);
            err_t err;
            if (n >= MAX_VARIANTS) abort();
            if (game_open(spec, &opened[n], &err)) { fprintf(stderr, "%s: %s\n", spec, err.msg); abort(); }
            if (opened[n]->ops->pos_size > GSW_MAX_POS) { fprintf(stderr, "%s: pos_size\n", spec); abort(); }
            if (getenv("GSW_FUZZ_LIST")) {
                game_spec(opened[n], spec, sizeof spec);
                printf("%s\n", spec);
            }
            n++;
        }
    }
    first_of[ngames] = n;
    if (!ngames) abort();
    fflush(stdout);
}

static void die(const gv_t *v, const char *what, const char *pos, const char *text)
{
    char spec[160];
    game_spec(v, spec, sizeof spec);
    fprintf(stderr, "%s: position \"%s\": \"%s\": %s\n", spec, pos, text, what);
    abort();
}

static void same_key(const gv_t *v, const void *a, const void *b, const char *text)
{
    uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
    size_t la = v->ops->pos_key(v, a, ka, NULL), lb = v->ops->pos_key(v, b, kb, NULL);
    if (la > GSW_MAX_KEY || la != lb || memcmp(ka, kb, la)) die(v, "parses back with another key", text, text);
    if (v->ops->pos_hash(v, a) != v->ops->pos_hash(v, b)) die(v, "parses back with another hash", text, text);
    if (v->ops->pos_turn(v, a) != v->ops->pos_turn(v, b)) die(v, "parses back with the other side to move", text, text);
}

/* pos's text parses to the same position, whose text is the same; every
 * legal move's text parses back to the move. */
static void check_pos(const gv_t *v, const void *pos)
{
    const game_ops_t *O = v->ops;
    static char t1[8192], t2[8192];
    GSW_POSBUF back[GSW_MAX_POS];
    memset(back, 0, sizeof back);
    err_t err;
    O->pos_format(v, pos, t1, sizeof t1);
    if (game_pos_parse(v, t1, back, &err)) die(v, "the formatted text does not parse", t1, err.msg);
    O->pos_format(v, back, t2, sizeof t2);
    if (strcmp(t1, t2)) die(v, "formats as other text once parsed back", t1, t2);
    same_key(v, pos, back, t1);
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    if (n < 0 || n > GSW_MAX_MOVES) die(v, "a move count out of range", t1, "");
    for (int i = 0; i < n; i++) {
        char mt[256];
        move_t m;
        O->move_format(v, pos, mv[i], mt, sizeof mt);
        if (O->move_parse(v, pos, mt, &m, &err)) die(v, "a legal move's text does not parse", t1, mt);
        if (m != mv[i]) die(v, "a legal move's text parses as another move", t1, mt);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ngames) open_all();
    if (size < 2) return 0;
    int g = data[0] % ngames;
    const gv_t *v = opened[first_of[g] + data[1] % (first_of[g + 1] - first_of[g])];
    const game_ops_t *O = v->ops;
    char *s = fuzz_str(data + 2, size - 2);
    char *rest = strchr(s, '\n');
    if (rest) *rest++ = 0;
    GSW_POSBUF pos[GSW_MAX_POS];
    memset(pos, 0, sizeof pos);
    err_t err;
    err.msg[0] = 0;
    if (game_pos_parse(v, s, pos, &err)) {
        if (!err.msg[0]) die(v, "refused with no message", s, "");
        free(s);
        return 0;
    }
    check_pos(v, pos);
    for (int lines = 0; rest && lines < 32; lines++) {
        char *line = rest;
        rest = strchr(line, '\n');
        if (rest) *rest++ = 0;
        move_t m, mv[GSW_MAX_MOVES];
        err.msg[0] = 0;
        if (O->move_parse(v, pos, line, &m, &err)) {
            if (!err.msg[0]) die(v, "a move refused with no message", s, line);
            continue;
        }
        int n = O->moves(v, pos, mv), legal = 0;
        for (int i = 0; i < n && !legal; i++) legal = mv[i] == m;
        if (!legal) die(v, "parses as a move that is not legal", s, line);
        char mt[256];
        move_t again;
        O->move_format(v, pos, m, mt, sizeof mt);
        if (O->move_parse(v, pos, mt, &again, &err) || again != m) die(v, "the move's text does not parse back", s, mt);
        O->play(v, pos, m);
        check_pos(v, pos);
    }
    free(s);
    return 0;
}

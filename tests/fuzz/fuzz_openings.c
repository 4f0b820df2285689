/* Openings files for gsw match (protocol/match_openings.c): whatever parses is a
 * list of openings whose moves are legal from their start and leave a game
 * that is not over, and each opening written back as a line (its FEN, or
 * its moves in SAN) parses to the same start and moves; what does not
 * parse is refused with a message (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "protocol/match.h"

static gv_t *v;

/* o's moves legal from its start, and the game not over at the end. */
static void check_opening(const match_opening_t *o)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF p[GSW_MAX_POS];
    memcpy(p, o->start, O->pos_size);
    if (o->n < 0 || o->n > MATCH_OPENING_PLIES) abort();
    for (int i = 0; i < o->n; i++) {
        move_t mv[GSW_MAX_MOVES];
        int n = O->moves(v, p, mv), found = 0;
        for (int k = 0; k < n; k++) found |= mv[k] == o->moves[i];
        if (!found) { fprintf(stderr, "an opening's move %d is not legal\n", i + 1); abort(); }
        O->play(v, p, o->moves[i]);
    }
    move_t mv[GSW_MAX_MOVES];
    val_t val;
    if (O->terminal(v, p, &val) || O->moves(v, p, mv) == 0) { fprintf(stderr, "an opening ends the game\n"); abort(); }
}

/* o as a line the parser reads: its FEN (no moves), or its moves in SAN. */
static void opening_line(const match_opening_t *o, char *buf, size_t n)
{
    const game_ops_t *O = v->ops;
    if (!o->n) { O->pos_format(v, o->start, buf, n); return; }
    GSW_POSBUF p[GSW_MAX_POS];
    memcpy(p, o->start, O->pos_size);
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < o->n && k + 16 < n; i++) {
        char m[32];
        O->move_format(v, p, o->moves[i], m, sizeof m);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? " " : "", m);
        O->play(v, p, o->moves[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("chess", &v, &err)) { fprintf(stderr, "chess: %s\n", err.msg); abort(); }
    }
    char *s = fuzz_str(data, size);
    match_opening_t *list = NULL, *again = NULL;
    int n = 0, n2 = 0;
    err_t err;
    if (match_openings_parse(v, s, &list, &n, &err)) {
        if (!err.msg[0] || list || n) { fprintf(stderr, "a refusal with no message, or a list\n"); abort(); }
        free(s);
        return 0;
    }
    if (n < 1 || !list) abort();
    for (int i = 0; i < n; i++) {
        check_opening(&list[i]);
        char line[4096];
        opening_line(&list[i], line, sizeof line);
        if (match_openings_parse(v, line, &again, &n2, &err)) {
            fprintf(stderr, "an opening written back does not parse: %s\n%s\n", err.msg, line);
            abort();
        }
        uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
        size_t la = v->ops->pos_key(v, list[i].start, ka, NULL), lb = v->ops->pos_key(v, again[0].start, kb, NULL);
        if (n2 != 1 || la != lb || memcmp(ka, kb, la) || again[0].n != list[i].n ||
            memcmp(again[0].moves, list[i].moves, (size_t)list[i].n * sizeof list[i].moves[0])) {
            fprintf(stderr, "an opening written back reads as another:\n%s\n", line);
            abort();
        }
        free(again);
        again = NULL;
    }
    free(list);
    free(s);
    return 0;
}

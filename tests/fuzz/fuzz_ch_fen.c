/* Chess FEN and move text: the first line is a FEN; whatever parses
 * formats as text that parses to the same position (the same FEN again,
 * the same board, rights, key and clocks), and its derived fields are what
 * ch_refresh rebuilds. Every legal move (ch_moves, as many as ch_count
 * says, each ch_legal) formats in SAN and in UCI as text that parses back
 * to it; SAN's + and # say check and mate truly; played, the position's
 * incremental key is the one ch_refresh computes, and its FEN round-trips
 * too. Each later line is a move against the position reached: one that
 * parses is legal and is played (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "games/chess/ch.h"

static void die(const char *what, const char *fen, const char *text)
{
    fprintf(stderr, "%s: FEN \"%s\": \"%s\"\n", what, fen, text);
    abort();
}

/* The derived fields (bitboards, kings, key) are what sq[], side, rook[]
 * and ep make. */
static void check_derived(const ch_pos_t *p, const char *fen)
{
    ch_pos_t q = *p;
    ch_refresh(&q);
    if (memcmp(q.type, p->type, sizeof q.type) || memcmp(q.color, p->color, sizeof q.color))
        die("the bitboards are not what the board says", fen, "");
    if (q.king[0] != p->king[0] || q.king[1] != p->king[1]) die("the king squares are wrong", fen, "");
    if (q.key != p->key) die("the key is not what ch_refresh computes", fen, "");
}

/* (The Chess960 flag names castling moves: a FEN keeps it while a right
 * is left, and then it makes no difference.) */
static void same_pos(const ch_pos_t *a, const ch_pos_t *b, const char *fen)
{
    int rights = 0;
    for (int i = 0; i < 4; i++) rights |= a->rook[i] != CH_NOSQ;
    if (memcmp(a->sq, b->sq, sizeof a->sq) || memcmp(a->rook, b->rook, sizeof a->rook) || a->side != b->side ||
        a->ep != b->ep || a->key != b->key || a->halfmove != b->halfmove || a->fullmove != b->fullmove ||
        (rights && a->chess960 != b->chess960))
        die("the FEN parses back as another position", fen, "");
}

/* FEN of p -> parse -> the same position and the same FEN. */
static void fen_round_trip(const ch_pos_t *p, const char *from)
{
    char t1[256], t2[256];
    ch_pos_t b;
    err_t err;
    memset(&b, 0, sizeof b);
    ch_format_fen(p, t1, sizeof t1);
    if (ch_parse_fen(t1, &b, &err)) {
        fprintf(stderr, "\"%s\" formats as \"%s\", which does not parse: %s\n", from, t1, err.msg);
        abort();
    }
    same_pos(p, &b, t1);
    ch_format_fen(&b, t2, sizeof t2);
    if (strcmp(t1, t2)) { fprintf(stderr, "\"%s\" -> \"%s\" -> \"%s\"\n", from, t1, t2); abort(); }
}

static void check_moves(const ch_pos_t *p, const char *fen)
{
    move_t mv[GSW_MAX_MOVES];
    int n = ch_moves(p, mv);
    if (n < 0 || n > GSW_MAX_MOVES) die("ch_moves: a count out of range", fen, "");
    if (ch_count(p) != n) die("ch_count is not ch_moves' count", fen, "");
    if (ch_has_move(p) != (n > 0)) die("ch_has_move is not whether ch_moves found one", fen, "");
    {
        move_t c[GSW_MAX_MOVES];
        int nc = ch_captures(p, c), want = 0;
        for (int i = 0; i < n; i++) want += ch_captured(p, mv[i]) != 0 || ch_kind(mv[i]) == CH_PROMO;
        if (nc != want) die("ch_captures is not ch_moves' captures and promotions", fen, "");
    }
    for (int i = 0; i < n; i++) {
        move_t m = mv[i], back;
        err_t err;
        char san[64], uci[64];
        if (!ch_legal(p, m)) die("a listed move is not ch_legal", fen, "");
        for (int j = 0; j < i; j++)
            if (mv[j] == m) die("a move listed twice", fen, "");
        ch_format_uci(p, m, uci, sizeof uci);
        if (ch_parse_move(p, uci, &back, &err)) {
            fprintf(stderr, "FEN \"%s\": UCI \"%s\" does not parse back: %s\n", fen, uci, err.msg);
            abort();
        }
        if (back != m) die("UCI parses as another move", fen, uci);
        ch_format_san(p, m, san, sizeof san);
        if (ch_parse_move(p, san, &back, &err)) {
            fprintf(stderr, "FEN \"%s\": SAN \"%s\" does not parse back: %s\n", fen, san, err.msg);
            abort();
        }
        if (back != m) die("SAN parses as another move", fen, san);
        ch_pos_t c = *p;
        ch_play(&c, m);
        check_derived(&c, fen);
        if (c.side == p->side) die("the side to move did not change", fen, san);
        size_t k = strlen(san);
        int mark = k ? san[k - 1] : 0, check = ch_in_check(&c), mate = check && ch_count(&c) == 0;
        if (mate != (mark == '#') || (check && !mate) != (mark == '+')) die("SAN's check mark is wrong", fen, san);
        fen_round_trip(&c, fen);
    }
    /* the null move passes the turn and nothing else */
    if (!ch_in_check(p)) {
        ch_pos_t c = *p;
        ch_play(&c, MOVE_NONE);
        if (c.side == p->side || memcmp(c.sq, p->sq, sizeof c.sq)) die("the null move", fen, "");
        check_derived(&c, fen);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ch_init();
    char *s = fuzz_str(data, size);
    char *nl = strchr(s, '\n');
    char *rest = nl ? nl + 1 : NULL;
    if (nl) *nl = 0;
    ch_pos_t a;
    memset(&a, 0, sizeof a);
    err_t err;
    if (ch_parse_fen(s, &a, &err)) {
        if (!err.msg[0]) { fprintf(stderr, "FEN \"%s\" refused with no message\n", s); abort(); }
        free(s);
        return 0;
    }
    check_derived(&a, s);
    fen_round_trip(&a, s);
    char fen[256];
    ch_format_fen(&a, fen, sizeof fen);
    check_moves(&a, fen);
    for (int lines = 0; rest && lines < 16; lines++) {
        char *line = rest;
        nl = strchr(line, '\n');
        rest = nl ? nl + 1 : NULL;
        if (nl) *nl = 0;
        move_t m;
        if (ch_parse_move(&a, line, &m, &err)) continue;
        if (!ch_legal(&a, m)) die("parses as a move that is not legal", fen, line);
        ch_play(&a, m);
        ch_format_fen(&a, fen, sizeof fen);
        check_derived(&a, fen);
        fen_round_trip(&a, fen);
        check_moves(&a, fen);
    }
    free(s);
    return 0;
}

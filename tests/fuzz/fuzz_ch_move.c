/* Chess move text (ch_parse_move, SAN or UCI, lenient) against a few
 * fixed positions: the start, promotions (with captures), en passant (and
 * one that would expose the king), castling both ways for both sides, a
 * Chess960 castling position, a mate, and moves SAN must tell apart by
 * file, by rank and by both. The whole input, and each of its lines, is
 * tried on every position: it must not crash; a refusal carries a
 * message; a move it gives is legal, and its SAN and UCI parse back to it
 * (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "games/chess/ch.h"

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1b1r/1P1P2P1/8/2k5/8/8/4K3/8 w - - 0 40",          /* promotions, captures onto the back rank */
    "8/8/8/8/7k/8/1p6/R1N1K3 b - - 0 60",                   /* Black promotes on b1, or takes on a1 or c1 */
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",                    /* en passant */
    "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",                    /* en passant that would expose the king */
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",   /* castling both ways */
    "r3k2r/p6p/8/8/8/8/P6P/R3K2R b KQkq - 3 10",            /* Black castles */
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",             /* Chess960 rights (Shredder-FEN) */
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",   /* mate: no moves */
    "8/8/8/3k4/8/8/8/1N1K1N2 w - - 0 1",                    /* Nbd2 / Nfd2 */
    "8/4k3/8/R7/8/8/8/R2K4 w - - 0 1",                      /* R1a3 / R5a3 */
    "8/8/8/8/8/Q1Q5/8/Q1Q1K2k w - - 0 1",                   /* Qa1b2 */
};
#define NFENS (sizeof fens / sizeof fens[0])

static void check(const ch_pos_t *p, const char *fen, const char *text)
{
    move_t m, back;
    err_t err;
    memset(&err, 0, sizeof err);
    if (ch_parse_move(p, text, &m, &err)) {
        if (err.code != GSW_EINPUT || !err.msg[0]) {
            fprintf(stderr, "FEN \"%s\": \"%s\" refused with code %d, message \"%s\"\n", fen, text, err.code, err.msg);
            abort();
        }
        return;
    }
    if (!ch_legal(p, m)) { fprintf(stderr, "FEN \"%s\": \"%s\" parses as an illegal move\n", fen, text); abort(); }
    char t[64];
    ch_format_san(p, m, t, sizeof t);
    if (ch_parse_move(p, t, &back, &err) || back != m) {
        fprintf(stderr, "FEN \"%s\": \"%s\" gives a move whose SAN \"%s\" does not parse back\n", fen, text, t);
        abort();
    }
    ch_format_uci(p, m, t, sizeof t);
    if (ch_parse_move(p, t, &back, &err) || back != m) {
        fprintf(stderr, "FEN \"%s\": \"%s\" gives a move whose UCI \"%s\" does not parse back\n", fen, text, t);
        abort();
    }
    ch_pos_t c = *p;
    ch_play(&c, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ch_init();
    ch_pos_t pos[NFENS];
    for (size_t i = 0; i < NFENS; i++) {
        err_t err;
        if (ch_parse_fen(fens[i], &pos[i], &err)) { fprintf(stderr, "fixed FEN \"%s\": %s\n", fens[i], err.msg); abort(); }
    }
    char *s = fuzz_str(data, size);
    for (size_t i = 0; i < NFENS; i++) check(&pos[i], fens[i], s);
    char *rest = strchr(s, '\n') ? s : NULL;
    for (int lines = 0; rest && lines < 32; lines++) {
        char *line = rest, *nl = strchr(line, '\n');
        rest = nl ? nl + 1 : NULL;
        if (nl) *nl = 0;
        for (size_t i = 0; i < NFENS; i++) check(&pos[i], fens[i], line);
    }
    free(s);
    return 0;
}

/* A gsw tune --eval run's games.txt (protocol/tune_eval.c): what parses
 * holds positions whose FEN reads back to the same position, each with a
 * result of 0..2 and a game that is marked as there, as many games marked
 * as counted; its whole part (*good) parses again to the same; what does
 * not parse is refused with a message and keeps nothing; a file of another
 * engine's scores (rescored.txt) names it and its nodes (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "protocol/tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tune_games_t s, t;
    size_t good = 0, good2 = 0;
    err_t err;
    err.msg[0] = 0;
    if (tune_games_parse((const char *)data, size, &s, &good, &err)) {
        if (!err.msg[0] || s.n || s.pos || s.games) abort();
        return 0;
    }
    if (good > size || s.nodes < 1) abort();
    int marked = 0;
    for (int g = 0; g < s.done_cap; g++) marked += s.done[g] != 0;
    if (marked != s.games) abort();
    for (size_t i = 0; i < s.n; i++) {
        if (s.result[i] < 0 || s.result[i] > 2) abort();
        if (s.game[i] < 0 || s.game[i] >= s.done_cap || !s.done[s.game[i]]) abort();
        char fen[128];
        ch_pos_t q;
        ch_format_fen(&s.pos[i], fen, sizeof fen);
        if (ch_parse_fen(fen, &q, &err) || q.key != s.pos[i].key) abort();
    }
    if (tune_games_parse((const char *)data, good, &t, &good2, &err)) abort();
    if (good2 != good || t.n != s.n || t.games != s.games || t.nodes != s.nodes || t.seed != s.seed
        || t.rescored_nodes != s.rescored_nodes || strcmp(t.rescored_by, s.rescored_by))
        abort();
    if (!s.rescored_nodes != !s.rescored_by[0]) abort();   /* a rescored file names its engine */
    tune_games_free(&t);
    tune_games_free(&s);
    return 0;
}

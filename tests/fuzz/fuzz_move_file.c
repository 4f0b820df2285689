/* Files of moves as `gsw annotate` reads them for games with no record
 * format (games/record_file.c, record_read_moves): the input read as
 * Connect Four and checkers moves. What reads is every move legal in
 * turn, played from the start to the same position again; what fails
 * says why (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "games/record_file.h"

#define MAXMOVES 512

static const char *const specs[] = { "connect4:7x6", "connect4:10x4", "checkers" };
static gv_t *vs[3];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static move_t mv[MAXMOVES];
    if (!vs[0]) {
        err_t err;
        for (int i = 0; i < 3; i++)
            if (game_open(specs[i], &vs[i], &err)) { fprintf(stderr, "%s: %s\n", specs[i], err.msg); abort(); }
    }
    char *s = fuzz_str(data, size);
    for (int i = 0; i < 3; i++) {
        const gv_t *v = vs[i];
        const game_ops_t *O = v->ops;
        GSW_POSBUF start[GSW_MAX_POS], pos[GSW_MAX_POS];
        int n = -1;
        err_t err;
        err.msg[0] = 0;
        if (record_read_moves(v, s, start, mv, MAXMOVES, &n, &err)) {
            if (!err.msg[0]) { fprintf(stderr, "%s: an error with no message\n", specs[i]); abort(); }
            continue;
        }
        if (n < 1 || n > MAXMOVES) { fprintf(stderr, "%s: %d moves\n", specs[i], n); abort(); }
        memcpy(pos, start, O->pos_size);
        for (int k = 0; k < n; k++) {
            move_t legal[GSW_MAX_MOVES];
            int nl = O->moves(v, pos, legal), ok = 0;
            for (int j = 0; j < nl; j++) ok |= legal[j] == mv[k];
            if (!ok) { fprintf(stderr, "%s: move %d is not legal\n", specs[i], k + 1); abort(); }
            O->play(v, pos, mv[k]);
        }
    }
    free(s);
    return 0;
}

/* Record files as `load FILE [#N]` and `gsw play --file F [--game N]` read
 * them (games/record_file.c): the input written to a .pgn and a .pdn file,
 * then the games split at their "[Event " lines and game 0..3 read by the
 * game's own record reader. Every game said to be there reads or fails
 * with a message; the count is at least 1; a game past the count is an
 * error (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "games/record_file.h"

#define MAXMOVES 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static move_t mv[MAXMOVES];
    static const char *const ext[] = { ".pgn", ".pdn" };
    for (int e = 0; e < 2; e++) {
        char path[256];
        fuzz_path(path, sizeof path, "record", ext[e]);
        if (fuzz_write(path, data, size)) abort();
        int games = 0;
        for (int which = 0; which <= 3; which++) {
            gv_t *v = NULL;
            GSW_POSBUF start[GSW_MAX_POS];
            int n = 0, ng = -1;
            err_t err;
            err.msg[0] = 0;
            int rc = record_read_game(NULL, path, which, &v, start, mv, MAXMOVES, &n, &ng, &err);
            if (rc == GSW_OK) {
                if (!v || n < 0 || n > MAXMOVES || ng < 1) abort();
                game_close(v);
            } else if (!err.msg[0]) {
                fprintf(stderr, "an error with no message\n");
                abort();
            }
            if (ng >= 1) games = ng;
            if (rc == GSW_OK && which > games) {
                fprintf(stderr, "game %d of %d read\n", which, games);
                abort();
            }
        }
        unlink(path);
    }
    return 0;
}

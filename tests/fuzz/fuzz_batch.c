/* The batch file of `gsw solve --batch` (cli/batch.c) for connect4:7x6, read
 * from memory. */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "cli/batch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gv_t *v;
    err_t err;
    if (!v && game_open("connect4:7x6", &v, &err)) abort();
    if (!size) return 0;   /* fmemopen wants a buffer */
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    batch_line_t *lines = NULL;
    int n = 0;
    if (batch_parse(v, f, "fuzz", &lines, &n, &err) == GSW_OK) {
        for (int i = 0; i < n; i++) {
            GSW_POSBUF pos[GSW_MAX_POS];
            const char *moves = strcmp(lines[i].moves, "startpos") ? lines[i].moves : "";
            if (game_pos_parse(v, moves, pos, &err)) abort();   /* it parsed once */
            free(lines[i].moves);
        }
        free(lines);
    }
    fclose(f);
    return 0;
}

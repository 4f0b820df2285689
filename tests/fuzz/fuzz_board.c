/* Peg-solitaire board art (the --board FILE of `gsw puzzle`, the
 * "board=FILE" variant option; games/solitaire/sol_board.c): the input is
 * the file, opened as solitaire:board=FILE. What opens is used a little. */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[512], spec[600];
    fuzz_path(path, sizeof path, "board", ".txt");
    if (fuzz_write(path, data, size)) abort();
    snprintf(spec, sizeof spec, "solitaire:board=%s", path);
    gv_t *v = NULL;
    err_t err;
    if (game_open(spec, &v, &err) == GSW_OK) {
        GSW_POSBUF pos[GSW_MAX_POS];
        v->ops->pos_start(v, pos);
        char buf[4096];
        v->ops->pos_format(v, pos, buf, sizeof buf);
        GSW_POSBUF again[GSW_MAX_POS];
        if (game_pos_parse(v, buf, again, &err)) { fprintf(stderr, "start \"%s\": %s\n", buf, err.msg); abort(); }
        move_t mv[GSW_MAX_MOVES];
        int n = v->ops->moves(v, pos, mv);
        for (int i = 0; i < n; i++) v->ops->move_format(v, pos, mv[i], buf, sizeof buf);
        board_view_t *bv = malloc(sizeof *bv);
        if (!bv) abort();
        if (v->ops->view) v->ops->view(v, pos, bv);
        free(bv);
        uint8_t key[GSW_MAX_KEY];
        v->ops->pos_key(v, pos, key, NULL);
        game_close(v);
    }
    unlink(path);
    return 0;
}

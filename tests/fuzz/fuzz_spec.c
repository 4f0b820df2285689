/* Game specs and variants: the first line of the input is a spec for
 * game_open ("connect4:7x6", "solitaire:english,start=d4,goal=any"); a
 * second line, if any, a position parsed for it. Whatever opens is used a
 * little (start position, key, moves, text) and closed. */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_str(data, size);
    char *pos_text = strchr(s, '\n');
    if (pos_text) *pos_text++ = 0;
    if (fuzz_names_file(s)) { free(s); return 0; }
    gv_t *v = NULL;
    err_t err;
    if (game_open(s, &v, &err) == GSW_OK) {
        GSW_POSBUF pos[GSW_MAX_POS];
        memset(pos, 0, sizeof pos);
        if (v->ops->pos_size > GSW_MAX_POS) abort();
        v->ops->pos_start(v, pos);
        if (pos_text && game_pos_parse(v, pos_text, pos, &err)) v->ops->pos_start(v, pos);
        char buf[4096], spec[128];
        v->ops->pos_format(v, pos, buf, sizeof buf);
        game_spec(v, spec, sizeof spec);
        uint8_t key[GSW_MAX_KEY];
        int sym = 0;
        if (v->ops->pos_key(v, pos, key, &sym) > GSW_MAX_KEY) abort();
        move_t mv[GSW_MAX_MOVES];
        int n = v->ops->moves(v, pos, mv);
        if (n < 0 || n > GSW_MAX_MOVES) abort();
        for (int i = 0; i < n; i++) v->ops->move_format(v, pos, mv[i], buf, sizeof buf);
        if (v->ops->view) {
            board_view_t *bv = malloc(sizeof *bv);
            if (!bv) abort();
            v->ops->view(v, pos, bv);
            free(bv);
        }
        game_close(v);
    }
    free(s);
    return 0;
}

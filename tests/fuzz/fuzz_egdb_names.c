/* Endgame-database names: a checkers slice name (gsw egdb verify SLICE)
 * that parses is one the game writes back exactly, of a slice with
 * positions; a material (gsw egdb stats BK,BC,WK,WC) that parses has one
 * count per material name. A chess ending (gsw egdb stats chess KRK) that
 * parses names a covered ending with positions whose written name parses
 * back to it (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/retro.h"
#include "solve/egdb.h"

static gv_t *v, *chess;

static void chess_ending(const char *s)
{
    const retro_game_t *rg = chess->ops->retro;
    uint64_t slice, again;
    err_t err;
    if (rg->slice_parse(chess, s, &slice, &err) != GSW_OK) {
        if (!err.msg[0]) { fprintf(stderr, "a refused ending without a message\n"); abort(); }
        return;
    }
    char back[64];
    rg->slice_name(chess, slice, back, sizeof back);
    if (rg->slice_parse(chess, back, &again, &err) || again != slice) {
        fprintf(stderr, "ending \"%s\" writes back as \"%s\", which does not parse to it\n", s, back);
        abort();
    }
    if (!rg->slice_size(chess, slice) || rg->slice_pieces(chess, slice) > rg->max_pieces) {
        fprintf(stderr, "ending \"%s\": no positions or too many pieces\n", s);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("checkers", &v, &err)) { fprintf(stderr, "checkers: %s\n", err.msg); abort(); }
        if (game_open("chess", &chess, &err)) { fprintf(stderr, "chess: %s\n", err.msg); abort(); }
    }
    const retro_game_t *rg = v->ops->retro;
    char *s = fuzz_str(data, size);
    uint64_t slice;
    err_t err;
    if (rg->slice_parse(v, s, &slice, &err) == GSW_OK) {
        char back[64];
        rg->slice_name(v, slice, back, sizeof back);
        if (strcmp(back, s)) { fprintf(stderr, "slice \"%s\" writes back as \"%s\"\n", s, back); abort(); }
        if (!rg->slice_size(v, slice)) { fprintf(stderr, "slice \"%s\" has no positions\n", s); abort(); }
    } else if (!err.msg[0]) { fprintf(stderr, "a refused slice name without a message\n"); abort(); }
    int c[RETRO_MAX_COUNTS];
    int n = egdb_material_parse(v, s, c, &err);
    if (n >= 0) {
        int names = 0;
        while (rg->material_names[names]) names++;
        if (n != names) { fprintf(stderr, "material \"%s\": %d counts\n", s, n); abort(); }
        for (int i = 0; i < n; i++)
            if (c[i] < 0 || c[i] > 32) { fprintf(stderr, "material \"%s\": count %d\n", s, c[i]); abort(); }
    } else if (!err.msg[0]) { fprintf(stderr, "a refused material without a message\n"); abort(); }
    chess_ending(s);
    free(s);
    return 0;
}

/* Endgame-database names: a slice name (gsw egdb verify SLICE) that parses
 * is one the game writes back exactly, of a slice with positions; a
 * material (gsw egdb stats BK,BC,WK,WC) that parses has one count per
 * material name (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/retro.h"
#include "solve/egdb.h"

static gv_t *v;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("checkers", &v, &err)) { fprintf(stderr, "checkers: %s\n", err.msg); abort(); }
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
    free(s);
    return 0;
}

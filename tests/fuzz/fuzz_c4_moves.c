/* Connect Four move strings on a few boards: whatever game_pos_parse
 * accepts, pos_format writes back as text that parses to the same
 * position (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

static const char *const specs[] = { "connect4:7x6", "connect4:10x4", "connect4:4x4" };
static gv_t *vs[3];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!vs[0]) {
        err_t err;
        for (int i = 0; i < 3; i++)
            if (game_open(specs[i], &vs[i], &err)) { fprintf(stderr, "%s: %s\n", specs[i], err.msg); abort(); }
    }
    char *s = fuzz_str(data, size);
    for (int i = 0; i < 3; i++) {
        const gv_t *v = vs[i];
        GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        err_t err;
        if (game_pos_parse(v, s, a, &err)) continue;
        char t1[1024], t2[1024];
        v->ops->pos_format(v, a, t1, sizeof t1);
        if (game_pos_parse(v, t1, b, &err)) {
            fprintf(stderr, "%s: \"%s\" formats as \"%s\", which does not parse: %s\n", specs[i], s, t1, err.msg);
            abort();
        }
        v->ops->pos_format(v, b, t2, sizeof t2);
        if (strcmp(t1, t2) || memcmp(a, b, v->ops->pos_size)) {
            fprintf(stderr, "%s: \"%s\" -> \"%s\" -> \"%s\": not the same position\n", specs[i], s, t1, t2);
            abort();
        }
    }
    free(s);
    return 0;
}

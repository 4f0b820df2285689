/* Game records (PDN, the checkers plugin's record_read): whatever reads
 * writes back (record_write) as a record that reads to the same start and
 * the same moves; the written length is what record_write said it needs
 * (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"

#define MAXMOVES 1024

static gv_t *v;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("checkers", &v, &err)) { fprintf(stderr, "checkers: %s\n", err.msg); abort(); }
    }
    static move_t mv[MAXMOVES], mv2[MAXMOVES];
    char *s = fuzz_str(data, size);
    GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    int n = 0, n2 = 0;
    err_t err;
    if (v->ops->record_read(v, s, a, mv, MAXMOVES, &n, &err)) {
        if (!err.msg[0]) { fprintf(stderr, "a record refused with no message\n"); abort(); }
        free(s);
        return 0;
    }
    static const char *const results[] = { "*", "1-0", "0-1", "1/2-1/2" };
    const char *result = results[size % 4];
    size_t need = v->ops->record_write(v, a, mv, n, result, NULL, 0);
    char *rec = malloc(need + 1);
    if (!rec) abort();
    size_t got = v->ops->record_write(v, a, mv, n, result, rec, need + 1);
    if (got != need || strlen(rec) != need) { fprintf(stderr, "record_write: %zu, then %zu\n", need, got); abort(); }
    if (v->ops->record_read(v, rec, b, mv2, MAXMOVES, &n2, &err)) {
        fprintf(stderr, "the written record does not read: %s\n%s\n", err.msg, rec);
        abort();
    }
    uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
    size_t la = v->ops->pos_key(v, a, ka, NULL), lb = v->ops->pos_key(v, b, kb, NULL);
    if (la != lb || memcmp(ka, kb, la) || n != n2 || memcmp(mv, mv2, (size_t)n * sizeof mv[0])) {
        fprintf(stderr, "the written record reads as another game:\n%s\n", rec);
        abort();
    }
    free(rec);
    free(s);
    return 0;
}

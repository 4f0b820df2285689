/* Chess game records (PGN, the chess plugin's record_read): whatever reads
 * writes back (record_write) as a record that reads to the same start (its
 * FEN, key and Chess960 flag) and the same moves; the written length is
 * what record_write said it needs, and a short buffer gets the same
 * length and a cut, terminated text (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "core/game.h"
#include "games/chess/ch.h"

#define MAXMOVES 1024

static gv_t *v;

static void same_start(const ch_pos_t *a, const ch_pos_t *b, const char *rec)
{
    char fa[256], fb[256];
    ch_format_fen(a, fa, sizeof fa);
    ch_format_fen(b, fb, sizeof fb);
    if (strcmp(fa, fb) || a->key != b->key || a->chess960 != b->chess960) {
        fprintf(stderr, "the written record starts elsewhere: \"%s\", then \"%s\"\n%s\n", fa, fb, rec);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!v) {
        err_t err;
        if (game_open("chess", &v, &err)) { fprintf(stderr, "chess: %s\n", err.msg); abort(); }
        if (v->ops->record_read != ch_record_read || v->ops->record_write != ch_record_write) {
            fprintf(stderr, "chess: the record hooks are not ch_pgn.c's\n");
            abort();
        }
    }
    static move_t mv[MAXMOVES], mv2[MAXMOVES];
    char *s = fuzz_str(data, size);
    GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    int n = 0, n2 = 0;
    err_t err;
    memset(&err, 0, sizeof err);
    if (v->ops->record_read(v, s, a, mv, MAXMOVES, &n, &err)) {
        if (err.code != GSW_EINPUT || !err.msg[0]) {
            fprintf(stderr, "a record refused with code %d, message \"%s\"\n", err.code, err.msg);
            abort();
        }
        free(s);
        return 0;
    }
    if (n < 0 || n > MAXMOVES) { fprintf(stderr, "record_read: %d moves\n", n); abort(); }
    static const char *const results[] = { "*", "1-0", "0-1", "1/2-1/2" };
    const char *result = results[size % 4];
    size_t need = v->ops->record_write(v, a, mv, n, result, NULL, 0);
    char *rec = malloc(need + 1);
    if (!rec) abort();
    size_t got = v->ops->record_write(v, a, mv, n, result, rec, need + 1);
    if (got != need || strlen(rec) != need) { fprintf(stderr, "record_write: %zu, then %zu\n", need, got); abort(); }
    for (const char *p = rec, *nl; *p; p = nl + 1) {   /* lines under 80 columns, each ended */
        nl = strchr(p, '\n');
        if (!nl || nl - p > 79) { fprintf(stderr, "a line of %zu characters:\n%s\n", strlen(p), rec); abort(); }
    }
    char small[48];
    if (v->ops->record_write(v, a, mv, n, result, small, sizeof small) != need ||
        strncmp(small, rec, sizeof small - 1) || strlen(small) != (need < sizeof small ? need : sizeof small - 1)) {
        fprintf(stderr, "record_write into %zu bytes: \"%s\"\n", sizeof small, small);
        abort();
    }
    if (v->ops->record_read(v, rec, b, mv2, MAXMOVES, &n2, &err)) {
        fprintf(stderr, "the written record does not read: %s\n%s\n", err.msg, rec);
        abort();
    }
    same_start((const ch_pos_t *)a, (const ch_pos_t *)b, rec);
    if (n != n2 || memcmp(mv, mv2, (size_t)n * sizeof mv[0])) {
        fprintf(stderr, "the written record reads as other moves (%d, then %d):\n%s\n", n, n2, rec);
        abort();
    }
    free(rec);
    free(s);
    return 0;
}

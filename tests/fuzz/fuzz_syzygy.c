/* Syzygy folders (games/chess/ch_syzygy.c): a file named as a table, its
 * bytes the input, in a folder of its own (the first byte says which kind
 * of table, WDL or DTZ, and which ending; bit 2: the same bytes are also
 * the memo of tables checked before, beside the cache). Opening the
 * folder either refuses it with a reason or opens tables that are sound:
 * their kind's first bytes, a size of 16 past a multiple of 64, and the
 * checksum they carry (a memo of any content vouches for nothing else).
 * An open table is probed (its insides, Fathom's to read, are whole), and
 * the tables close again. abort() otherwise. */
#include "tests/fuzz/fuzz_util.h"

#include <sys/stat.h>

#include "games/chess/ch_syzygy.h"
#include "games/chess/ch_sz_sum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz" };
    if (size < 1) return 0;
    char dir[256], path[512], db[300], memo[320];
    fuzz_path(dir, sizeof dir, "syzygy", "");
    mkdir(dir, 0777);
    fuzz_path(db, sizeof db, "syzygy-db", "");   /* the memo beside a scratch cache */
    mkdir(db, 0777);
    snprintf(memo, sizeof memo, "%s/syzygy-checked.txt", db);
    unlink(memo);
    if (data[0] & 4) fuzz_write(memo, data + 1, size - 1);
    snprintf(db + strlen(db), sizeof db - strlen(db), "/cache.sqlite");
    setenv("GSW_DB", db, 1);
    for (int i = 0; i < 4; i++) {   /* the last input's file gone */
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/%s", dir, names[data[0] & 3]);
    if (fuzz_write(path, data + 1, size - 1)) return 0;
    err_t err;
    err.msg[0] = 0;
    int wdl = !(data[0] & 1);
    uint32_t magic = size >= 5 ? (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24 : 0;
    int sound = magic == (wdl ? 0x5d23e871u : 0xa50c66d7u) && ((size - 1) & 63) == 16;
    if (sound && ch_sz_check_file(path, &err)) sound = 0;
    err.msg[0] = 0;
    if (ch_syzygy_open(dir, NULL, &err)) {
        if (!err.msg[0]) { fprintf(stderr, "a refused folder without a reason\n"); abort(); }
        if (sound && wdl) { fprintf(stderr, "a sound WDL table refused: %s\n", err.msg); abort(); }
    } else {
        if (!sound) { fprintf(stderr, "an unsound table opened\n"); abort(); }
        ch_pos_t p;
        int r;
        if (ch_parse_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1", &p, &err) == GSW_OK) (void)ch_syzygy_wdl(&p, &r);
        if (ch_syzygy_open(NULL, NULL, &err)) abort();
    }
    return 0;
}

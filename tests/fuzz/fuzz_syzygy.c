/* Syzygy folders (games/chess/ch_syzygy.c): a file named as a table, its
 * bytes the input, in a folder of its own (the first byte says which kind
 * of table, WDL or DTZ, and which ending). Opening the folder either
 * refuses it with a reason or opens tables whose frame is sound (their
 * kind's first bytes, a size of 16 past a multiple of 64); either way the
 * tables close again (abort() otherwise). Only the frame is gsw's: the
 * inside of a table is Fathom's to read, on a probe, which this never
 * makes. */
#include "tests/fuzz/fuzz_util.h"

#include <sys/stat.h>

#include "games/chess/ch_syzygy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz" };
    if (size < 1) return 0;
    char dir[256], path[512];
    fuzz_path(dir, sizeof dir, "syzygy", "");
    mkdir(dir, 0777);
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
    if (ch_syzygy_open(dir, &err)) {
        if (!err.msg[0]) { fprintf(stderr, "a refused folder without a reason\n"); abort(); }
        if (sound && wdl) { fprintf(stderr, "a sound WDL frame refused: %s\n", err.msg); abort(); }
    } else {
        if (!sound) { fprintf(stderr, "an unsound frame opened\n"); abort(); }
        if (ch_syzygy_open(NULL, &err)) abort();
    }
    return 0;
}

/* BDD files (db/bddfile.c): the input read as a whole file, and the input
 * as the payload of a file made valid around it (magic, zstd frame,
 * trailer checksum), so the checks of the node array itself are reached.
 * What reads counts as it says, evaluates without leaving the array, and
 * writes back to a file that reads to the same nodes (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "db/bddfile.h"
#include "tests/fuzz/fuzz_frame.h"

static void check(const bddf_t *b)
{
    u256_t c;
    if (bddf_count(b, &c) || u256_cmp(&c, &b->count)) abort();
    uint8_t bits[BDDF_MAX_VARS];
    for (int pattern = 0; pattern < 3; pattern++) {
        for (uint32_t i = 0; i < b->nvars; i++) bits[i] = (uint8_t)(pattern == 2 ? (int)(i & 1) : pattern);
        int r = bddf_eval(b, bits);
        if (r != 0 && r != 1) abort();
    }
    char path[256];
    fuzz_path(path, sizeof path, "bddfile", ".bdd");
    err_t err;
    uint64_t s1, s2;
    if (bddf_write(path, b, &s1, &err)) return;   /* a full disk is not the reader's fault */
    bddf_t again;
    if (bddf_read(path, &again, &s2, &err) || s1 != s2 || again.nnodes != b->nnodes || again.root != b->root ||
        (b->nnodes && memcmp(again.node, b->node, sizeof *b->node * b->nnodes)) || strcmp(again.tag, b->tag))
        abort();
    bddf_free(&again);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bddf_t b;
    err_t err;
    if (!bddf_read_mem(data, size, "input", &b, &err)) {
        check(&b);
        bddf_free(&b);
    } else if (!err.msg[0]) {
        abort();
    }
    /* the input as the decompressed payload */
    size_t fn;
    uint8_t *file = fuzz_frame("GSWBDD1\n", data, size, &fn);
    if (!bddf_read_mem(file, fn, "payload", &b, &err)) {
        check(&b);
        bddf_free(&b);
    } else if (!err.msg[0]) {
        abort();
    }
    free(file);
    return 0;
}

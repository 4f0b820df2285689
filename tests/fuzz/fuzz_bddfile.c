/* BDD files (db/bddfile.c): the input read as a whole file, and the input
 * as the payload of a file made valid around it (magic, zstd frame,
 * trailer checksum), so the checks of the node array itself are reached.
 * What reads counts as it says, evaluates without leaving the array, and
 * writes back to a file that reads to the same nodes; and its parts by the
 * first two variables (bddf_prefix) count up to it, and hold what it holds
 * on the patterns tried (abort() otherwise). The framed payload is also
 * read as a file of known checksum (bddf_read_known): refused under
 * another checksum; under its own, what it takes evaluates within its
 * nodes, and what the full reader takes it takes as the same nodes. The
 * files written are read a frame at a time too (bddf_lazy), and the
 * payload is cut into tiny frames for it: the same members, or a refusal. */
#include "tests/fuzz/fuzz_util.h"

#include "db/bddfile.h"
#include "db/dbfile.h"
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
    int n = b->nvars < 2 ? (int)b->nvars : 2;
    u256_t sum = u256_of(0);
    for (unsigned part = 0; part < 1u << n; part++) {
        bddf_t p;
        if (bddf_prefix(b, n, part, &p)) return;   /* (out of memory) */
        u256_add(&sum, &p.count);
        for (int pattern = 0; pattern < 3; pattern++) {
            for (uint32_t i = 0; i < b->nvars; i++) bits[i] = (uint8_t)(pattern == 2 ? (int)(i & 1) : pattern);
            for (int i = 0; i < n; i++) bits[i] = (uint8_t)((part >> i) & 1);
            if (bddf_eval(&p, bits) != bddf_eval(b, bits)) abort();
            bits[0] ^= (uint8_t)(n > 0);   /* another part's pattern: not in this one */
            if (n > 0 && bddf_eval(&p, bits)) abort();
        }
        bddf_free(&p);
    }
    if (u256_cmp(&sum, &b->count)) abort();
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
    /* read a frame at a time, the same members */
    bddf_lazy_t l;
    if (bddf_lazy_open(path, &l, &err) || l.fd < 0 || l.nnodes != b->nnodes || l.root != b->root) abort();
    for (int pattern = 0; pattern < 3; pattern++) {
        for (uint32_t i = 0; i < b->nvars; i++) bits[i] = (uint8_t)(pattern == 2 ? (int)(i & 1) : pattern);
        if (bddf_lazy_eval(&l, bits, &err) != bddf_eval(b, bits)) abort();
    }
    bddf_lazy_close(&l);
    unlink(path);
}

/* The input as the payload of a file cut into frames of two nodes (after
 * a head of the size its tag length says): opened a frame at a time, it is
 * refused with a message, or walks end in 0 or 1, and where the whole
 * reader takes the payload too, the same ones. */
static void check_lazy(const uint8_t *data, size_t size, const bddf_t *full)
{
    char path[256];
    fuzz_path(path, sizeof path, "bddlazy", ".bdd");
    size_t head = size >= 48 ? 48 + (data[44] | (size_t)data[45] << 8) : size;
    if (head > size) head = size;
    err_t err;
    if (db_frame_write_seekable(path, "GSWBDD1\n", data, size, 1, head, 24, NULL, &err)) return;   /* (a full disk) */
    bddf_lazy_t l;
    if (bddf_lazy_open(path, &l, &err)) {
        if (!err.msg[0] || strchr(err.msg, '\n')) abort();
    } else if (l.fd >= 0) {
        uint8_t bits[BDDF_MAX_VARS];
        for (int pattern = 0; pattern < 3; pattern++) {
            for (uint32_t i = 0; i < l.nvars; i++) bits[i] = (uint8_t)(pattern == 2 ? (int)(i & 1) : pattern);
            int r = bddf_lazy_eval(&l, bits, &err);
            if (r != 0 && r != 1 && (r != -1 || !err.msg[0])) abort();
            if (full && r != bddf_eval(full, bits)) abort();
        }
        bddf_lazy_close(&l);
    }
    unlink(path);
}

static void check_known(const uint8_t *file, size_t fn, const bddf_t *full)
{
    char path[256];
    fuzz_path(path, sizeof path, "bddknown", ".bdd");
    FILE *f = fopen(path, "wb");
    if (!f) return;
    int ok = fwrite(file, 1, fn, f) == fn;
    if (fclose(f) || !ok) {
        unlink(path);
        return;   /* (a full disk) */
    }
    uint64_t sum = bddf_fnv(file, fn, BDDF_FNV_INIT);
    bddf_t b;
    err_t err;
    if (!bddf_read_known(path, sum + 1, &b, &err) || !err.msg[0]) abort();
    if (!bddf_read_known(path, sum, &b, &err)) {
        uint8_t bits[BDDF_MAX_VARS];
        for (int pattern = 0; pattern < 3; pattern++) {
            for (uint32_t i = 0; i < b.nvars; i++) bits[i] = (uint8_t)(pattern == 2 ? (int)(i & 1) : pattern);
            int r = bddf_eval(&b, bits);
            if (r != 0 && r != 1) abort();
            if (full && r != bddf_eval(full, bits)) abort();
        }
        if (full && (b.nnodes != full->nnodes || b.root != full->root || strcmp(b.tag, full->tag) ||
                     u256_cmp(&b.count, &full->count) ||
                     (b.nnodes && memcmp(b.node, full->node, sizeof *b.node * b.nnodes))))
            abort();
        bddf_free(&b);
    } else if (!err.msg[0] || full) {
        abort();
    }
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
        check_known(file, fn, &b);
        check_lazy(data, size, &b);
        bddf_free(&b);
    } else if (!err.msg[0]) {
        abort();
    } else {
        check_known(file, fn, NULL);
        check_lazy(data, size, NULL);
    }
    free(file);
    return 0;
}

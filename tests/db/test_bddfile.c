/* BDD files (db/bddfile.c) cut into frames, read a frame at a time
 * (bddf_lazy): a random BDD of three frames and more, written and read
 * back whole and lazily, holds the same members on random assignments;
 * one membership test reads a few frames, not all; a file in one frame
 * (as written before) opens as such; a damaged frame, seek table or head
 * is refused with a one-line message, never a wrong answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "db/bddfile.h"
#include "db/dbfile.h"
#include "tests/test_tmpdir.h"

#define NV 64
#define NN (3 * BDDF_SEEK_NODES + 1234)

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int setup(void **s)
{
    (void)s;
    return test_tmpdir_make("gsw-bddfile");
}

static int teardown(void **s)
{
    (void)s;
    return test_tmpdir_remove();
}

/* A random reduced-enough BDD: node i's variable below its children's,
 * its children earlier nodes or terminals, never the same two. */
static void random_bdd(bddf_t *b)
{
    memset(b, 0, sizeof *b);
    b->nvars = NV;
    b->nnodes = NN;
    b->node = malloc(sizeof *b->node * NN);
    assert_non_null(b->node);
    /* variables fall as the index grows (the root, last, has the lowest);
       below[v]: the nodes before the first of variable v (all of higher ones) */
    uint32_t below[NV + 1];
    for (int v = 0; v <= NV; v++) below[v] = NN;
    for (uint32_t i = NN; i-- > 0;) below[(NN - 1 - i) * (uint64_t)NV / NN] = i;
    for (uint32_t i = 0; i < NN; i++) {
        uint32_t var = (uint32_t)((uint64_t)(NN - 1 - i) * NV / NN), lim = below[var];
        uint32_t c[2];
        do {   /* a child: a terminal, or one of the last nodes of higher variables */
            for (int k = 0; k < 2; k++) {
                uint64_t r = next();
                uint32_t win = lim < 3000 ? lim : 3000;
                c[k] = (r & 15) == 0 || !win ? (uint32_t)(r >> 8 & 1) : 2 + lim - 1 - (uint32_t)((r >> 8) % win);
            }
        } while (c[0] == c[1]);
        b->node[i] = (bddf_node_t){ var, c[0], c[1] };
    }
    b->root = NN + 1;
    snprintf(b->tag, sizeof b->tag, "test bdd");
    assert_int_equal(bddf_count(b, &b->count), 0);
}

static void test_lazy_same(void **state)
{
    (void)state;
    bddf_t b, w;
    random_bdd(&b);
    char path[600];
    snprintf(path, sizeof path, "%s/a.bdd", dir);
    err_t err;
    uint64_t sum;
    assert_int_equal(bddf_write(path, &b, &sum, &err), GSW_OK);
    assert_int_equal(bddf_read(path, &w, NULL, &err), GSW_OK);   /* whole, every check */
    assert_int_equal(w.nnodes, b.nnodes);
    assert_memory_equal(w.node, b.node, sizeof *b.node * NN);
    bddf_lazy_t l;
    assert_int_equal(bddf_lazy_open(path, &l, &err), GSW_OK);
    assert_true(l.fd >= 0);
    assert_int_equal(l.nnodes, NN);
    assert_int_equal(l.root, NN + 1);
    assert_int_equal(l.seek.nframes, 1 + (NN + BDDF_SEEK_NODES - 1) / BDDF_SEEK_NODES);
    assert_string_equal(l.tag, "test bdd");
    assert_int_equal(u256_cmp(&l.count, &b.count), 0);
    uint8_t bits[NV];
    int in = 0, deep = 0;
    for (int t = 0; t < 20000; t++) {
        for (int v = 0; v < NV; v++) bits[v] = (uint8_t)(next() & 1);
        int a = bddf_eval(&b, bits), c = bddf_lazy_eval(&l, bits, &err);
        assert_int_equal(c, a);
        in += a;
        if (t < 50) {   /* a fresh open for each of the first walks: the frames one walk reads */
            int got = (int)l.frames_read;
            assert_true(got >= 1);
            if (!deep || got < deep) deep = got;
            bddf_lazy_close(&l);
            assert_int_equal(bddf_lazy_open(path, &l, &err), GSW_OK);
        }
    }
    /* both answers met, and a walk read some frames, not all */
    assert_true(in > 0 && in < 20000);
    assert_true(deep >= 1 && deep < (int)l.seek.nframes - 1);
    bddf_lazy_close(&l);
    assert_int_equal(l.fd, -1);
    bddf_free(&w);

    /* a file in one frame, as written before: opened as such (fd -1) */
    char old[600];
    snprintf(old, sizeof old, "%s/old.bdd", dir);
    size_t raw = 48 + 8 + (size_t)12 * NN;
    uint8_t *buf = calloc(1, raw);
    assert_non_null(buf);
    buf[0] = NV;
    memcpy(buf + 4, &(uint32_t){ NN }, 4);
    uint32_t root = NN + 1;
    memcpy(buf + 8, &root, 4);
    memcpy(buf + 12, b.count.w, 32);
    buf[44] = 8;
    memcpy(buf + 48, "test bdd", 8);
    memcpy(buf + 56, b.node, (size_t)12 * NN);
    assert_int_equal(db_frame_write(old, "GSWBDD1\n", buf, raw, 1, NULL, &err), GSW_OK);
    free(buf);
    assert_int_equal(bddf_lazy_open(old, &l, &err), GSW_OK);
    assert_int_equal(l.fd, -1);
    assert_int_equal(bddf_read(old, &w, NULL, &err), GSW_OK);
    assert_memory_equal(w.node, b.node, sizeof *b.node * NN);
    bddf_free(&w);
    bddf_free(&b);
}

/* bits leading from b's root to a node of index lo .. hi - 1 (1), or 0 */
static int path_into(const bddf_t *b, uint32_t lo, uint32_t hi, uint8_t *bits)
{
    uint32_t *from = calloc(NN + 2, sizeof *from), *stack = malloc(sizeof *stack * (NN + 2));
    uint8_t *seen = calloc(NN + 2, 1);
    assert_true(from && stack && seen);
    int n = 0, found = 0;
    stack[n++] = b->root;
    seen[b->root] = 1;
    uint32_t hit = 0;
    while (n && !found) {
        uint32_t r = stack[--n];
        if (r - 2 >= lo && r - 2 < hi) found = 1, hit = r;
        for (int k = 0; k < 2 && !found; k++) {
            uint32_t c = k ? b->node[r - 2].hi : b->node[r - 2].lo;
            if (c >= 2 && !seen[c]) seen[c] = 1, from[c] = r, stack[n++] = c;
        }
    }
    for (uint32_t r = hit; found && r != b->root; r = from[r]) {
        const bddf_node_t *p = &b->node[from[r] - 2];
        bits[p->var] = p->hi == r;
    }
    free(from);
    free(stack);
    free(seen);
    return found;
}

/* the file at path with the byte at off (from the end when negative)
 * flipped */
static void flip(const char *path, long off)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, off, off < 0 ? SEEK_END : SEEK_SET), 0);
    long at = ftell(f);
    int c = fgetc(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static void test_lazy_damage(void **state)
{
    (void)state;
    bddf_t b;
    random_bdd(&b);
    char path[600];
    snprintf(path, sizeof path, "%s/d.bdd", dir);
    err_t err;
    uint8_t bits[NV];
    bddf_lazy_t l;
    /* a byte in the middle of each node frame: some walk meets it */
    for (int f = 1; f <= 4; f++) {
        assert_int_equal(bddf_write(path, &b, NULL, &err), GSW_OK);
        assert_int_equal(bddf_lazy_open(path, &l, &err), GSW_OK);
        long mid = (long)(l.seek.off[f] + l.seek.off[f + 1]) / 2;
        bddf_lazy_close(&l);
        flip(path, mid);
        assert_int_equal(bddf_lazy_open(path, &l, &err), GSW_OK);   /* (the head is whole) */
        for (int t = 0; t < 200; t++) {   /* a walk not through it: right */
            for (int v = 0; v < NV; v++) bits[v] = (uint8_t)(next() & 1);
            int r = bddf_lazy_eval(&l, bits, &err);
            if (r >= 0) assert_int_equal(r, bddf_eval(&b, bits));
        }
        /* a walk through it: refused */
        for (int v = 0; v < NV; v++) bits[v] = 0;
        if (!path_into(&b, (uint32_t)(f - 1) * BDDF_SEEK_NODES, (uint32_t)f * BDDF_SEEK_NODES, bits)) fail_msg("frame %d unreachable", f);
        bddf_lazy_close(&l);
        assert_int_equal(bddf_lazy_open(path, &l, &err), GSW_OK);   /* (no frame held) */
        assert_int_equal(bddf_lazy_eval(&l, bits, &err), -1);
        assert_non_null(strstr(err.msg, "damaged"));
        assert_null(strchr(err.msg, '\n'));
        bddf_lazy_close(&l);
        bddf_t w;
        assert_int_not_equal(bddf_read(path, &w, NULL, &err), GSW_OK);   /* and whole */
    }
    /* the seek table (a frame's size, the words after them) and the head */
    long where[] = { -8 - 28 - 4, -8 - 28 + 3, -8 - 20, 12 };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(bddf_write(path, &b, NULL, &err), GSW_OK);
        flip(path, where[i]);
        int rc = bddf_lazy_open(path, &l, &err);
        if (!rc && l.fd < 0) continue;   /* (the table's tag hit: read whole, and refused there) */
        if (!rc) {   /* the open passed: a walk does not */
            int bad = 0;
            for (int t = 0; t < 2000 && !bad; t++) {
                for (int v = 0; v < NV; v++) bits[v] = (uint8_t)(next() & 1);
                bad = bddf_lazy_eval(&l, bits, &err) < 0;
            }
            bddf_lazy_close(&l);
            assert_true(bad);
        }
        assert_non_null(strstr(err.msg, "damaged"));
    }
    bddf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lazy_same),
        cmocka_unit_test(test_lazy_damage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

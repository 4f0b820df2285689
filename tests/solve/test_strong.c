/* Connect Four on BDDs: position counts against the published table and
 * against a plain enumeration, ply by ply, in both encodings and orders;
 * BDD files (round trip, damage); the strong solution against alpha-beta on
 * every position of the first plies and on random positions of every ply,
 * and the set-pruned search's distances against the plain search's.
 * GSW_STRONG_6X4=1 adds the 6x4 board (opt-in: ctest -L slow). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "db/bddfile.h"
#include "games/connect4/c4.h"
#include "games/connect4/c4_bdd.h"
#include "solve/solver.h"
#include "solve/strong.h"
#include "tests/test_rng.h"
#include "tests/test_tmpdir.h"

static int setup(void **st)
{
    (void)st;
    return test_tmpdir_make("gsw-strong");
}

static int teardown(void **st)
{
    (void)st;
    return test_tmpdir_remove();
}

/* --- a plain enumeration: distinct positions by ply (no symmetry) --- */

typedef struct pset {
    uint64_t *key;
    size_t cap, n;
} pset_t;

static int pset_add(pset_t *s, uint64_t k)   /* k != 0; 1 when new */
{
    if (2 * (s->n + 1) > s->cap) {
        pset_t t = { calloc(s->cap ? 2 * s->cap : 1024, sizeof(uint64_t)), s->cap ? 2 * s->cap : 1024, 0 };
        assert_non_null(t.key);
        for (size_t i = 0; i < s->cap; i++)
            if (s->key[i]) pset_add(&t, s->key[i]);
        free(s->key);
        *s = t;
    }
    size_t i = (size_t)(k * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);
    while (s->key[i]) {
        if (s->key[i] == k) return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->key[i] = k;
    s->n++;
    return 1;
}

/* cells[c * h + r]: 0, 1 (first player), 2 (second), from the board view */
static void cells_of(const gv_t *v, const void *pos, int8_t *cells)
{
    static board_view_t view;
    const c4v_t *d = v->data;
    v->ops->view(v, pos, &view);
    for (int c = 0; c < d->w; c++)
        for (int r = 0; r < d->h; r++) {
            const view_cell_t *x = &view.cell[(d->h - 1 - r) * d->w + c];
            cells[c * d->h + r] = x->kind == VIEW_PIECE ? (int8_t)(1 + x->owner) : 0;
        }
}

static uint64_t key_of(const gv_t *v, const void *pos)
{
    int8_t cells[64];
    const c4v_t *d = v->data;
    cells_of(v, pos, cells);
    uint64_t k = 1;
    for (int i = 0; i < d->cells; i++) k = k * 3 + (uint64_t)cells[i];
    return k;
}

/* positions and ended ones by ply, breadth first */
static void enumerate(const gv_t *v, uint64_t *positions, uint64_t *ended)
{
    const game_ops_t *O = v->ops;
    const c4v_t *d = v->data;
    size_t ps = O->pos_size;
    char *layer = malloc(ps), *next = NULL;
    assert_non_null(layer);
    O->pos_start(v, layer);
    size_t n = 1;
    for (int k = 0; k <= d->cells; k++) {
        positions[k] = n;
        ended[k] = 0;
        pset_t seen = { 0 };
        size_t nn = 0, cap = 0;
        for (size_t i = 0; i < n; i++) {
            const char *p = layer + i * ps;
            val_t tv;
            if (O->terminal(v, p, &tv)) {
                if (tv < 0) ended[k]++;
                continue;
            }
            move_t mv[GSW_MAX_MOVES];
            int nm = O->moves(v, p, mv);
            for (int j = 0; j < nm; j++) {
                if (nn == cap) {
                    cap = cap ? 2 * cap : 1024;
                    next = realloc(next, cap * ps);
                    assert_non_null(next);
                }
                char *c = next + nn * ps;
                memcpy(c, p, ps);
                O->play(v, c, mv[j]);
                if (pset_add(&seen, key_of(v, c))) nn++;
            }
        }
        free(seen.key);
        char *t = layer;
        layer = next;
        next = t;
        n = nn;
    }
    free(layer);
    free(next);
}

typedef struct rows {
    uint64_t positions[129], ended[129];
    int n;
} rows_t;

static void collect(void *ctx, const c4b_ply_t *p)
{
    rows_t *r = ctx;
    assert_int_equal(p->ply, r->n);
    assert_true(p->positions.w[1] == 0 && p->positions.w[2] == 0 && p->positions.w[3] == 0);
    r->positions[r->n] = p->positions.w[0];
    r->ended[r->n] = p->terminal.w[0];
    r->n++;
}

static void bdd_rows_by(int w, int h, c4b_encoding_t e, c4b_order_t o, int per_move, long memo_cap, rows_t *r)
{
    c4b_spec_t spec = { w, h, e, o, per_move, memo_cap };
    c4b_t *b;
    err_t err;
    memset(r, 0, sizeof *r);
    assert_int_equal(c4b_open(&b, &spec, 0.25, &err), GSW_OK);
    assert_int_equal(c4b_forward(b, 0, collect, r, NULL, &err), GSW_OK);
    assert_int_equal(r->n, w * h + 1);
    assert_true(c4b_peak_nodes(b) > 0);
    c4b_close(b);
}

static void bdd_rows(int w, int h, c4b_encoding_t e, c4b_order_t o, rows_t *r)
{
    bdd_rows_by(w, h, e, o, 0, 0, r);
}

static uint64_t total(const rows_t *r)
{
    uint64_t t = 0;
    for (int k = 0; k < r->n; k++) t += r->positions[k];
    return t;
}

/* the published table (FACTS: Tromp's / the BDD solver's counts) */
static void test_published_counts(void **st)
{
    (void)st;
    static const struct { int w, h; uint64_t n; } t[] = { { 4, 4, 161029 }, { 5, 4, 3945711 }, { 4, 5, 1706255 } };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rows_t r;
        bdd_rows(t[i].w, t[i].h, C4B_COMPRESSED, C4B_COLUMN, &r);
        assert_int_equal(total(&r), t[i].n);
    }
}

/* every encoding and order, per ply, against the enumeration: boards where
 * no four fits in some direction (or in any) included */
static void test_counts_by_enumeration(void **st)
{
    (void)st;
    static const char *const boards[] = { "4x4", "3x3", "1x5", "5x1", "4x2", "2x4", "3x5", "5x3", "4x3", "1x1" };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        gv_t *v;
        err_t err;
        char spec[32];
        snprintf(spec, sizeof spec, "connect4:%s", boards[i]);
        assert_int_equal(game_open(spec, &v, &err), GSW_OK);
        const c4v_t *d = v->data;
        static uint64_t pos[129], ended[129];
        enumerate(v, pos, ended);
        /* each encoding and order; compressed in column order twice more:
         * one drop at a time, and the walk with a memo of 50 entries */
        for (int run = 0; run < 6; run++) {
            c4b_encoding_t e = run < 4 ? (c4b_encoding_t)(run / 2) : C4B_COMPRESSED;
            c4b_order_t o = run < 4 ? (c4b_order_t)(run % 2) : C4B_COLUMN;
            rows_t r;
            bdd_rows_by(d->w, d->h, e, o, run == 4, run == 5 ? 50 : 0, &r);
            for (int k = 0; k <= d->cells; k++) {
                if (r.positions[k] != pos[k] || r.ended[k] != ended[k])
                    fail_msg("%s %s/%s%s ply %d: BDD %llu (%llu ended), enumeration %llu (%llu)", boards[i],
                             c4b_encoding_name(e), c4b_order_name(o),
                             run == 4 ? " per move" : run == 5 ? " small memo" : "", k,
                             (unsigned long long)r.positions[k], (unsigned long long)r.ended[k],
                             (unsigned long long)pos[k], (unsigned long long)ended[k]);
            }
        }
        game_close(v);
    }
}

/* every ply's won, drawn and lost sets of 4x4: the walk with a memo of 50
 * entries (emptied thousands of times) gives the same counts as with its
 * full memo and as one drop at a time */
static void solve_counts(long memo_cap, int per_move, u256_t out[17][3], long *flushes)
{
    c4b_spec_t spec = { 4, 4, C4B_COMPRESSED, C4B_COLUMN, per_move, memo_cap };
    c4b_t *b;
    err_t err;
    assert_int_equal(c4b_open(&b, &spec, 0.004, &err), GSW_OK);   /* garbage collections between flushes */
    assert_int_equal(c4b_forward(b, 1, NULL, NULL, NULL, &err), GSW_OK);
    for (int k = 16; k >= 0; k--) {
        assert_int_equal(c4b_solve_ply(b, k, NULL, &err), GSW_OK);
        for (int x = 0; x < 3; x++) {
            bddf_t f;
            assert_int_equal(c4b_export(b, k, x, &f, &err), GSW_OK);
            out[k][x] = f.count;
            bddf_free(&f);
        }
    }
    *flushes = c4b_memo_flushes(b);
    c4b_close(b);
}

/* c4b_solve_ply_io's sets, kept in memory in place of files: every set
 * of 4x4 by ply (won, drawn, lost, go, ended), and how many were read */
static bddf_t io_sets[17][5];
static int io_reads;

static void io_copy(bddf_t *to, const bddf_t *from)
{
    *to = *from;
    to->node = malloc(sizeof *to->node * (from->nnodes ? from->nnodes : 1));
    assert_non_null(to->node);
    if (from->nnodes) memcpy(to->node, from->node, sizeof *to->node * from->nnodes);
}

static int io_fwd_save(void *ctx, const c4b_ply_t *p, const bddf_t *go, const bddf_t *ended, err_t *err)
{
    (void)ctx, (void)err;
    io_copy(&io_sets[p->ply][C4B_GO], go);
    io_copy(&io_sets[p->ply][C4B_ENDED], ended);
    return GSW_OK;
}

static int io_load(void *ctx, int k, int set, int part, bddf_t *f, err_t *err)
{
    (void)ctx;
    assert_int_equal(part, -1);
    if (!io_sets[k][set].node) return err_set(err, GSW_EFAIL, "ply %d set %d was not made", k, set);
    io_reads++;
    io_copy(f, &io_sets[k][set]);
    return GSW_OK;
}

static int io_save(void *ctx, int k, int value, int part, const bddf_t *f, err_t *err)
{
    (void)ctx, (void)err;
    assert_int_equal(part, -1);
    io_copy(&io_sets[k][value], f);
    return GSW_OK;
}

/* a set of about 25,000 nodes: levels of up to 1,500 distinct nodes, each
 * a pair of different nodes of the level below or leaves */
static bddf_t io_bigset;

static void io_big(int nvars)
{
    bddf_t *f = &io_bigset;
    memset(f, 0, sizeof *f);
    f->nvars = (uint32_t)nvars;
    f->node = malloc(sizeof *f->node * 1500 * (size_t)nvars);
    assert_non_null(f->node);
    uint32_t below[1502], nb = 2, level[1500];
    below[0] = BDDF_FALSE, below[1] = BDDF_TRUE;
    for (int v = nvars - 1; v >= 0; v--) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < nb && n < 1500; i++)
            for (uint32_t j = 0; j < nb && n < 1500; j++) {
                if (i == j) continue;
                f->node[f->nnodes] = (bddf_node_t){ (uint32_t)v, below[i], below[j] };
                level[n++] = 2 + f->nnodes++;
            }
        memcpy(below + 2, level, n * sizeof *level);   /* the leaves stay */
        nb = n + 2;
    }
    f->root = below[2];
}

static int io_load_big(void *ctx, int k, int set, int part, bddf_t *f, err_t *err)
{
    (void)ctx, (void)k, (void)set, (void)part, (void)err;
    io_copy(f, &io_bigset);
    return GSW_OK;
}

static void test_small_memo(void **st)
{
    (void)st;
    static u256_t full[17][3], small[17][3], moves[17][3];
    long f0, f1, f2;
    solve_counts(0, 0, full, &f0);
    solve_counts(50, 0, small, &f1);
    solve_counts(0, 1, moves, &f2);
    assert_int_equal(f0, 0);
    assert_true(f1 > 100);
    for (int k = 0; k <= 16; k++)
        for (int x = 0; x < 3; x++) {
            if (u256_cmp(&full[k][x], &small[k][x]) || u256_cmp(&full[k][x], &moves[k][x]))
                fail_msg("ply %d set %d: the counts differ", k, x);
        }
    /* from files to files (here: copies in memory), nothing held between
     * plies: the same counts, every set read as it is needed */
    c4b_spec_t spec = { 4, 4, C4B_COMPRESSED, C4B_COLUMN, 0, 0 };
    c4b_t *b;
    err_t err;
    assert_int_equal(c4b_open(&b, &spec, 0.004, &err), GSW_OK);
    c4b_fwd_t fo = { .save = io_fwd_save };
    assert_int_equal(c4b_forward_run(b, &fo, NULL, &err), GSW_OK);
    c4b_solve_io_t io = { io_load, io_save, NULL, NULL, 0, 0 };
    assert_int_equal(c4b_solve_ply_io(b, 3, &io, NULL, &err), GSW_EFAIL);   /* ply 4 is not solved */
    for (int k = 16; k >= 0; k--) assert_int_equal(c4b_solve_ply_io(b, k, &io, NULL, &err), GSW_OK);
    c4b_close(b);
    assert_int_equal(io_reads, 1 + 2 + 16 * 4);   /* the failed start read ply 3's go-on set */
    /* a set too large for the table while it is read: a clean error, what
       was half read freed (the ASan build checks) */
    assert_int_equal(c4b_open(&b, &spec, 1e-6, &err), GSW_OK);   /* 10,000 nodes */
    io_big(c4b_nvars(&spec));
    c4b_solve_io_t big = { io_load_big, io_save, NULL, NULL, 0, 0 };
    assert_int_equal(c4b_solve_ply_io(b, 8, &big, NULL, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "node table is full"));
    c4b_close(b);
    bddf_free(&io_bigset);
    for (int k = 0; k <= 16; k++) {
        u256_t sum = u256_of(0);
        for (int x = 0; x < 3; x++) {
            if (u256_cmp(&full[k][x], &io_sets[k][x].count)) fail_msg("ply %d set %d: from files, another count", k, x);
            u256_add(&sum, &io_sets[k][x].count);
        }
        u256_t all = io_sets[k][C4B_GO].count;
        u256_add(&all, &io_sets[k][C4B_ENDED].count);
        if (u256_cmp(&sum, &all)) fail_msg("ply %d: won, drawn and lost are not the ply's positions", k);
        for (int x = 0; x < 5; x++) bddf_free(&io_sets[k][x]);
    }
}

/* a table too small for the board: a clean error, not a crash */
static void test_memory_limit(void **st)
{
    (void)st;
    c4b_spec_t spec = { 6, 5, C4B_COMPRESSED, C4B_COLUMN, 0, 0 };
    c4b_t *b;
    err_t err;
    assert_int_equal(c4b_open(&b, &spec, 0.0003, &err), GSW_OK);
    assert_int_equal(c4b_forward(b, 0, NULL, NULL, NULL, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "--memory"));
    c4b_close(b);
    /* and the package can be used again */
    rows_t r;
    bdd_rows(4, 4, C4B_COMPRESSED, C4B_COLUMN, &r);
    assert_int_equal(total(&r), 161029);
}

/* --- 256-bit counts and BDD files --- */

static void test_u256(void **st)
{
    (void)st;
    u256_t a = u256_of(1), b;
    char buf[96];
    assert_int_equal(u256_shl(&a, 200), 0);
    u256_text(&a, buf, sizeof buf);
    assert_string_equal(buf, "1606938044258990275541962092341162602522202993782792835301376");
    assert_int_equal(u256_parse(buf, &b), 0);
    assert_int_equal(u256_cmp(&a, &b), 0);
    assert_int_equal(u256_shl(&a, 56), 1);   /* 2^256: over */
    a = u256_of(UINT64_MAX);
    b = u256_of(1);
    assert_int_equal(u256_add(&a, &b), 0);
    assert_true(a.w[0] == 0 && a.w[1] == 1);
    assert_int_not_equal(u256_parse("12x", &b), 0);
    assert_int_not_equal(u256_parse("", &b), 0);
    assert_int_not_equal(u256_parse("1" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000"
                                    "0000000000" "0000000000",
                                    &b), 0);   /* 10^80 > 2^256 */
}

static void test_bddfile(void **st)
{
    (void)st;
    /* x0 and (x1 or x2) over 4 variables: 3 of 8 assignments of x0..x2, x3 free: 6 */
    bddf_node_t nodes[] = { { 2, 0, 1 }, { 1, 2, 1 }, { 0, 0, 3 } };
    bddf_t f = { .nvars = 4, .nnodes = 3, .root = 4, .node = nodes };
    snprintf(f.tag, sizeof f.tag, "test");
    assert_int_equal(bddf_count(&f, &f.count), 0);
    assert_int_equal(f.count.w[0], 6);
    err_t err;
    const char *path = tmp_path("t.bdd");
    uint64_t s1, s2;
    assert_int_equal(bddf_write(path, &f, &s1, &err), GSW_OK);
    bddf_t g;
    assert_int_equal(bddf_read(path, &g, &s2, &err), GSW_OK);
    assert_true(s1 == s2);
    assert_int_equal(g.nnodes, 3);
    assert_string_equal(g.tag, "test");
    for (int x = 0; x < 16; x++) {
        uint8_t bits[4] = { (uint8_t)(x & 1), (uint8_t)(x >> 1 & 1), (uint8_t)(x >> 2 & 1), (uint8_t)(x >> 3 & 1) };
        assert_int_equal(bddf_eval(&g, bits), bits[0] && (bits[1] || bits[2]));
    }
    bddf_free(&g);
    /* read under its known checksum: the same nodes; under another, refused */
    assert_int_equal(bddf_read_known(path, s1, &g, &err), GSW_OK);
    assert_int_equal(g.nnodes, 3);
    assert_int_equal(g.root, 4);
    assert_int_equal(g.count.w[0], 6);
    assert_string_equal(g.tag, "test");
    assert_memory_equal(g.node, nodes, sizeof nodes);
    bddf_free(&g);
    assert_int_equal(bddf_read_known(path, s1 ^ 1, &g, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "checksum differs"));
    /* truncated: refused with the file's name */
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    uint8_t buf[4096];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    for (size_t cut = 0; cut < n; cut++) {
        assert_int_equal(bddf_read_mem(buf, cut, "t.bdd", &g, &err), GSW_EFAIL);
        assert_non_null(strstr(err.msg, "t.bdd"));
    }
    /* every single flipped bit is caught (magic, frame, checksum) */
    for (size_t i = 0; i < n; i++)
        for (int bit = 0; bit < 8; bit++) {
            buf[i] ^= (uint8_t)(1 << bit);
            int rc = bddf_read_mem(buf, n, "t.bdd", &g, &err);
            if (rc == GSW_OK) {   /* only a flip the content checksum cannot see may pass: none should */
                bddf_free(&g);
                fail_msg("a flipped bit %zu.%d was read as a good file", i, bit);
            }
            buf[i] ^= (uint8_t)(1 << bit);
        }
    /* a stored count that is not the set's is refused, whether the count is
       made while reading (up to 63 variables) or after (more); the three
       ways of counting agree: 3 << (nvars - 3) */
    for (int nv = 4; nv <= 260; nv = nv < 60 ? 60 : nv < 63 ? 63 : nv < 64 ? 64 : nv < 126 ? 126 : nv < 127 ? 127 : 260) {
        bddf_t w = { .nvars = (uint32_t)nv, .nnodes = 3, .root = 4, .node = nodes };
        if (nv > 255) w.nvars = 200;
        u256_t want = u256_of(3);
        assert_int_equal(u256_shl(&want, (int)w.nvars - 3), 0);
        assert_int_equal(bddf_count(&w, &w.count), 0);
        assert_int_equal(u256_cmp(&w.count, &want), 0);
        assert_int_equal(bddf_write(path, &w, NULL, &err), GSW_OK);
        assert_int_equal(bddf_read(path, &g, NULL, &err), GSW_OK);
        bddf_free(&g);
        u256_t one = u256_of(1);
        u256_add(&w.count, &one);
        assert_int_equal(bddf_write(path, &w, NULL, &err), GSW_OK);
        assert_int_equal(bddf_read(path, &g, NULL, &err), GSW_EFAIL);
        if (!strstr(err.msg, "bad count")) fail_msg("%d variables: %s", (int)w.nvars, err.msg);
        if (nv > 255) break;
    }
    /* a node array out of order is refused */
    bddf_node_t bad[] = { { 2, 0, 1 }, { 2, 2, 1 } };
    bddf_t h = { .nvars = 4, .nnodes = 2, .root = 3, .node = bad };
    h.count = u256_of(0);
    assert_int_equal(bddf_write(path, &h, NULL, &err), GSW_OK);
    assert_int_equal(bddf_read(path, &g, NULL, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "damaged"));
    /* under a known checksum the order is not checked, but a child that is
       not below its node still is (an evaluation would leave the array) */
    bddf_node_t loop[] = { { 2, 0, 1 }, { 1, 3, 1 } };
    bddf_t l = { .nvars = 4, .nnodes = 2, .root = 3, .node = loop };
    assert_int_equal(bddf_write(path, &l, &s1, &err), GSW_OK);
    assert_int_equal(bddf_read_known(path, s1, &g, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "bad node"));
}

/* --- the strong solution against alpha-beta --- */

static const char *wdl_name(int x) { return x == C4B_WON ? "won" : x == C4B_DRAWN ? "drawn" : "lost"; }

static int ab_class(solver_t *s, const void *pos)
{
    answer_t a;
    err_t err;
    assert_int_equal(solver_run(s, pos, &a, &err), GSW_OK);
    assert_int_equal(a.r.aborted, 0);
    assert_true(a.r.lo > 0 || a.r.hi < 0 || (a.r.lo == 0 && a.r.hi == 0));
    return a.r.lo > 0 ? C4B_WON : a.r.hi < 0 ? C4B_LOST : C4B_DRAWN;
}

static void check_pos(solver_t *s, strong_t *st, const gv_t *v, const void *pos, const char *where)
{
    err_t err;
    int x = strong_value(st, pos, &err);
    assert_true(x >= 0);
    val_t tv;
    int y = v->ops->terminal(v, pos, &tv) ? (tv < 0 ? C4B_LOST : C4B_DRAWN) : ab_class(s, pos);
    if (x != y) {
        char text[256];
        v->ops->pos_format(v, pos, text, sizeof text);
        fail_msg("%s %s: the strong solution says %s, alpha-beta %s", where, text, wdl_name(x), wdl_name(y));
    }
}

/* all positions of plies 0..full (depth first, every line), then random
 * games through every ply */
static int walk(solver_t *s, strong_t *st, const gv_t *v, const void *pos, int left)
{
    check_pos(s, st, v, pos, "line");
    val_t tv;
    if (!left || v->ops->terminal(v, pos, &tv)) return 1;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv), count = 1;
    for (int i = 0; i < n; i++) {
        GSW_POSBUF c[GSW_MAX_POS];
        memcpy(c, pos, v->ops->pos_size);
        v->ops->play(v, c, mv[i]);
        count += walk(s, st, v, c, left - 1);
    }
    return count;
}

static void strong_board(const char *spec, int full, int games, c4b_encoding_t enc)
{
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    const char *sdir = tmp_path(enc == C4B_CELLWISE ? "strong-cw" : "strong");
    strong_build_options_t bo = { .dir = sdir, .enc = enc, .order = C4B_COLUMN, .memory_gb = 0.5 };
    strong_report_t *rep = calloc(1, sizeof *rep);
    assert_non_null(rep);
    if (strong_build(v, &bo, rep, &err)) fail_msg("%s", err.msg);
    const c4v_t *d = v->data;
    for (int k = 0; k <= d->cells; k++) {   /* the sets add up to the counted positions */
        u256_t sum = u256_of(0);
        for (int x = 0; x < 3; x++) u256_add(&sum, &rep->m.ply[k].count[x]);
        assert_int_equal(u256_cmp(&sum, &rep->m.ply[k].positions), 0);
    }
    free(rep);
    strong_t *st;
    assert_int_equal(strong_open(&st, v, sdir, &err), 1);
    solver_t s;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    v->ops->pos_start(v, pos);
    int n = walk(&s, st, v, pos, full);
    assert_true(n > 100);
    /* random games: every ply they reach; the set-pruned search's exact
     * values against the plain search's on some of them */
    solver_t p;
    assert_int_equal(solver_init(&p, v, 16, NULL, &err), GSW_OK);
    p.ab.oracle = &st->oracle;
    uint64_t rng = 12345;
    for (int g = 0; g < games; g++) {
        v->ops->pos_start(v, pos);
        val_t tv;
        for (;;) {
            check_pos(&s, st, v, pos, "game");
            if (v->ops->terminal(v, pos, &tv)) break;
            if (test_splitmix(&rng) % 4 == 0) {
                answer_t a, b;
                solver_clear(&s);
                solver_clear(&p);
                assert_int_equal(solver_run(&s, pos, &a, &err), GSW_OK);
                assert_int_equal(solver_run(&p, pos, &b, &err), GSW_OK);
                assert_int_equal(a.r.lo, a.r.hi);
                assert_int_equal(b.r.lo, b.r.hi);
                assert_int_equal(a.r.lo, b.r.lo);
            }
            move_t mv[GSW_MAX_MOVES];
            int nm = v->ops->moves(v, pos, mv);
            v->ops->play(v, pos, mv[test_splitmix(&rng) % (uint64_t)nm]);
        }
    }
    assert_int_equal(st->damage[0], 0);
    solver_free(&s);
    solver_free(&p);
    strong_close(st);
    game_close(v);
}

static void test_strong_4x4(void **st)
{
    (void)st;
    strong_board("connect4:4x4", 6, 40, C4B_COMPRESSED);
    strong_board("connect4:4x4", 4, 10, C4B_CELLWISE);
}

static void test_strong_5x4(void **st)
{
    (void)st;
    strong_board("connect4:5x4", 4, 30, C4B_COMPRESSED);
}

static void test_strong_6x4(void **st)
{
    (void)st;
    if (!getenv("GSW_STRONG_6X4")) skip();
    strong_board("connect4:6x4", 4, 60, C4B_COMPRESSED);
}


/* A build of the last plies (--from-ply): 5x4 from ply 10 in its own
 * folder, after a count there (the forward sets reused), against the full
 * build: the same won, drawn and lost counts on plies 10 to 20, nothing
 * below; positions of those plies against alpha-beta, the others refused. */
static void test_from_ply(void **st)
{
    (void)st;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("connect4:5x4", &v, &err), GSW_OK);
    const char *full = tmp_path("fp-full"), *part = tmp_path("fp-part");
    strong_build_options_t bo = { .dir = full, .enc = C4B_COMPRESSED, .order = C4B_COLUMN, .memory_gb = 0.5 };
    strong_report_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    if (strong_build(v, &bo, a, &err)) fail_msg("%s", err.msg);
    bo.dir = part;
    bo.forward_only = 1;   /* a count first */
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_int_equal(b->forward_from, -1);
    assert_int_equal(strong_forward_done(&b->m), 20);
    assert_int_equal(strong_lowest_solved(&b->m), 21);
    bo.forward_only = 0;
    bo.from_ply = 10;
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_int_equal(b->forward_from, 20);   /* the count's sets, not made again */
    assert_int_equal(strong_lowest_solved(&b->m), 10);
    assert_false(b->m.complete);
    for (int k = 0; k <= 20; k++)
        for (int x = 0; x < 3; x++) {
            if (k < 10) {
                assert_false(b->m.ply[k].have[x]);
                continue;
            }
            assert_true(b->m.ply[k].have[x]);
            assert_int_equal(u256_cmp(&a->m.ply[k].count[x], &b->m.ply[k].count[x]), 0);
            assert_int_equal(a->m.ply[k].checksum[x], b->m.ply[k].checksum[x]);   /* the same files */
        }
    strong_t *sp;
    assert_int_equal(strong_open(&sp, v, part, &err), 1);
    assert_int_equal(sp->lowest, 10);
    solver_t s;
    assert_int_equal(solver_init(&s, v, 16, NULL, &err), GSW_OK);
    uint64_t rng = 777;
    int checked = 0;
    GSW_POSBUF pos[GSW_MAX_POS];
    for (int g = 0; g < 40; g++) {
        v->ops->pos_start(v, pos);
        val_t tv;
        for (int k = 0;; k++) {
            if (k >= 10) {
                check_pos(&s, sp, v, pos, "from ply 10");
                checked++;
            } else {
                assert_int_equal(strong_value(sp, pos, &err), -1);
                assert_non_null(strstr(err.msg, "holds plies 10 to 20"));
            }
            if (v->ops->terminal(v, pos, &tv)) break;
            move_t mv[GSW_MAX_MOVES];
            int nm = v->ops->moves(v, pos, mv);
            v->ops->play(v, pos, mv[test_splitmix(&rng) % (uint64_t)nm]);
        }
    }
    assert_true(checked > 40);
    /* and the rest: a full build there goes on from ply 10 */
    bo.from_ply = 0;
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_int_equal(b->resumed_from, 10);
    assert_true(b->m.complete);
    for (int k = 0; k <= 20; k++)
        for (int x = 0; x < 3; x++) assert_int_equal(a->m.ply[k].checksum[x], b->m.ply[k].checksum[x]);
    solver_free(&s);
    strong_close(sp);
    free(a);
    free(b);
    game_close(v);
}


/* --- a ply's sets in parts (issue 56 item 2) --- */

typedef struct part_log {
    int filled, before, stopped;
    const char *stop_at;     /* set the stop flag on the line holding this */
    gsw_flag_t *stop;
} part_log_t;

static void part_progress(void *ctx, const char *line)
{
    part_log_t *l = ctx;
    if (strstr(line, "filled the node table")) l->filled++;
    if (strstr(line, "was made before")) l->before++;
    if (l->stop_at && strstr(line, l->stop_at) && !l->stopped) *l->stop = 1, l->stopped = 1;
}

/* every ply's counts of a and b the same from ply `from` up */
static void same_counts(const strong_manifest_t *a, const strong_manifest_t *b, int from, int cells)
{
    for (int k = from; k <= cells; k++)
        for (int x = 0; x < 3; x++) {
            assert_true(a->ply[k].have[x] && b->ply[k].have[x]);
            if (u256_cmp(&a->ply[k].count[x], &b->ply[k].count[x])) fail_msg("ply %d set %d: the counts differ", k, x);
        }
}

/* random games' positions from ply `from` on: the same value from a whole
 * solution and from one in parts, the latter read from a part's file */
static void same_values(const gv_t *v, strong_t *whole, strong_t *parts, int from, int games, uint64_t seed)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    err_t err;
    int checked = 0;
    for (int g = 0; g < games; g++) {
        v->ops->pos_start(v, pos);
        val_t tv;
        for (int k = 0;; k++) {
            if (k >= from) {
                char path[1200];
                int a = strong_value(whole, pos, &err), b = strong_value_file(parts, pos, path, sizeof path, &err);
                if (b < 0) fail_msg("%s", err.msg);
                assert_true(a >= 0);
                if (a != b) fail_msg("ply %d: whole %d, in parts %d", k, a, b);
                if (parts->m.ply[k].split && !strstr(path, "-part")) fail_msg("ply %d: read from %s", k, path);
                checked++;
            }
            if (v->ops->terminal(v, pos, &tv)) break;
            move_t mv[GSW_MAX_MOVES];
            int nm = v->ops->moves(v, pos, mv);
            v->ops->play(v, pos, mv[test_splitmix(&seed) % (uint64_t)nm]);
        }
    }
    assert_true(checked > games);
}

/* 5x4 made whole, and again with plies 20 to 12 in 4 parts, 11 to 6 in 8
 * (each part reading the parts of the 4 its positions reach) and 5 to 0 in
 * 2 (reading those of the 8): the same counts, the same value of every
 * position of random games, each read from its part's files. Then the
 * parts' own paths: a table too small for a whole ply (made again in more
 * parts, until it fits), and a stop half way through a ply (the parts made
 * before are kept, checked and not made again). */
static void test_parts(void **st)
{
    (void)st;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("connect4:5x4", &v, &err), GSW_OK);
    const char *whole = tmp_path("pt-whole"), *dp = tmp_path("pt-parts"), *dt = tmp_path("pt-tight"),
               *ds = tmp_path("pt-stop");
    strong_build_options_t bo = { .dir = whole, .enc = C4B_COMPRESSED, .order = C4B_COLUMN, .memory_gb = 0.5 };
    strong_report_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    if (strong_build(v, &bo, a, &err)) fail_msg("%s", err.msg);
    long whole_peak = a->peak_nodes;
    bo.dir = dp;
    static const int split[3] = { 2, 3, 1 }, to[3] = { 12, 6, 0 };
    for (int i = 0; i < 3; i++) {
        bo.split = split[i];
        bo.from_ply = to[i];
        if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    }
    assert_true(b->m.complete);
    same_counts(&a->m, &b->m, 0, 20);
    char bdir[1200];
    strong_board_dir(v, dp, bdir, sizeof bdir);
    for (int k = 0; k <= 20; k++) {
        assert_int_equal(b->m.ply[k].split, k >= 12 ? 2 : k >= 6 ? 3 : 1);
        for (int x = 0; x < 3; x++) {
            u256_t sum = u256_of(0);
            for (int i = 0; i < strong_files(&b->m, k, x); i++) {
                assert_true(strong_file_listed(&b->m, k, x, i));
                struct strong_part r = strong_file_rec(&b->m, k, x, i);
                u256_add(&sum, &r.count);
                if (strong_set_check(bdir, &b->m, k, x, i, &err)) fail_msg("%s", err.msg);
            }
            assert_int_equal(u256_cmp(&sum, &a->m.ply[k].count[x]), 0);
        }
    }
    /* the manifest read back says the same */
    strong_manifest_t *m2 = calloc(1, sizeof *m2);
    assert_non_null(m2);
    assert_int_equal(strong_manifest_load(bdir, m2, &err), 1);
    same_counts(&a->m, m2, 0, 20);
    assert_int_equal(strong_set_check(bdir, m2, 13, C4B_WON, 3, &err), GSW_OK);
    assert_int_equal(strong_set_check(bdir, m2, 7, C4B_LOST, 7, &err), GSW_OK);
    free(m2);
    strong_t *sw, *sp;
    assert_int_equal(strong_open(&sw, v, whole, &err), 1);
    assert_int_equal(strong_open(&sp, v, dp, &err), 1);
    same_values(v, sw, sp, 0, 60, 99);
    strong_close(sp);

    /* a whole solution cut into parts afterwards (gsw strong split): plies
       8 to 20 in 8 parts each, the same counts and values */
    const char *dx = tmp_path("pt-split");
    bo = (strong_build_options_t){ .dir = dx, .enc = C4B_COMPRESSED, .order = C4B_COLUMN, .memory_gb = 0.5 };
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    bo.split_only = 1;
    bo.split = 3;
    bo.from_ply = 8;
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_true(b->m.complete);
    same_counts(&a->m, &b->m, 0, 20);
    for (int k = 0; k <= 20; k++) assert_int_equal(b->m.ply[k].split, k >= 8 ? 3 : 0);
    strong_board_dir(v, dx, bdir, sizeof bdir);
    char gone[1300];
    snprintf(gone, sizeof gone, "%s/ply12-won.bdd", bdir);
    assert_null(fopen(gone, "rb"));   /* the whole files are removed */
    assert_int_equal(strong_open(&sp, v, dx, &err), 1);
    same_values(v, sw, sp, 0, 30, 8);
    strong_close(sp);
    /* ... and cut again, finer: plies 12 up from 8 parts into 16 (each
       part of 8 by the column's next cell), 8 to 11 left in 8 */
    bo.split = 4;
    bo.from_ply = 12;
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    same_counts(&a->m, &b->m, 0, 20);
    for (int k = 0; k <= 20; k++) assert_int_equal(b->m.ply[k].split, k >= 12 ? 4 : k >= 8 ? 3 : 0);
    for (int k = 12; k <= 20; k++)
        for (int x = 0; x < 3; x++)
            for (int i = 0; i < 16; i++)
                if (strong_set_check(bdir, &b->m, k, x, i, &err)) fail_msg("%s", err.msg);
    snprintf(gone, sizeof gone, "%s/ply12-won-part03of08.bdd", bdir);
    assert_null(fopen(gone, "rb"));   /* the coarser parts are removed */
    snprintf(gone, sizeof gone, "%s/ply11-won-part03of08.bdd", bdir);
    FILE *kept = fopen(gone, "rb");   /* (below --from-ply: as they were) */
    assert_non_null(kept);
    fclose(kept);
    assert_int_equal(strong_open(&sp, v, dx, &err), 1);
    same_values(v, sw, sp, 0, 30, 8);
    strong_close(sp);
    bo.dir = tmp_path("pt-none");   /* nothing there: refused, no folder made */
    assert_int_equal(strong_build(v, &bo, b, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "no strong solution"));

    /* a table too small for ply 17 whole: made again in parts */
    part_log_t log = { 0 };
    bo = (strong_build_options_t){ .dir = dt, .enc = C4B_COMPRESSED, .order = C4B_COLUMN, .memory_gb = 0.5,
                                   .forward_only = 1, .progress = part_progress, .ctx = &log };
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    bo.forward_only = 0;
    bo.memory_gb = 0.004;
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_true(log.filled >= 1);
    assert_true(b->m.ply[0].split >= 1);
    assert_true(b->peak_nodes < whole_peak);
    same_counts(&a->m, &b->m, 0, 20);
    assert_int_equal(strong_open(&sp, v, dt, &err), 1);
    same_values(v, sw, sp, 0, 20, 5);
    strong_close(sp);

    /* a stop after ply 15's second part: the first two are kept */
    gsw_flag_t stop = 0;
    log = (part_log_t){ .stop_at = "ply 15: lost set made (part 2 of 4)", .stop = &stop };
    bo = (strong_build_options_t){ .dir = ds, .enc = C4B_COMPRESSED, .order = C4B_COLUMN, .memory_gb = 0.5,
                                   .split = 2, .stop = &stop, .progress = part_progress, .ctx = &log };
    assert_int_equal(strong_build(v, &bo, b, &err), GSW_EFAIL);
    assert_true(log.stopped);
    assert_int_equal(strong_lowest_solved(&b->m), 16);
    stop = 0;
    log = (part_log_t){ 0 };
    bo.split = 0;   /* (the parts made before say how many) */
    if (strong_build(v, &bo, b, &err)) fail_msg("%s", err.msg);
    assert_int_equal(log.before, 2);
    assert_int_equal(b->resumed_from, 16);
    assert_int_equal(b->m.ply[15].split, 2);
    same_counts(&a->m, &b->m, 0, 20);
    assert_int_equal(strong_open(&sp, v, ds, &err), 1);
    same_values(v, sw, sp, 0, 20, 6);
    strong_close(sp);
    strong_close(sw);
    free(a);
    free(b);
    game_close(v);
}

/* The manifest's part lines: read back as written, and refused where they
 * cannot be (a part before its split, past its count or twice, a whole
 * value set of a ply in parts, a split larger than the board allows). */
static void test_parts_manifest(void **st)
{
    (void)st;
    static strong_manifest_t m;
    err_t err;
    const char *head = "gsw-strong 1\nboard connect4 5x4\nencoding compressed column\n";
    const char *part = "part 3 won 1 12 4 00000000000000aa\n";
    char text[1024];
    snprintf(text, sizeof text, "%ssplit 3 2\n%s", head, part);
    assert_int_equal(strong_manifest_parse(text, strlen(text), "m", &m, &err), GSW_OK);
    assert_int_equal(m.ply[3].split, 2);
    assert_true(m.ply[3].part[C4B_WON][1].have);
    assert_int_equal(m.ply[3].part[C4B_WON][1].checksum, 0xaa);
    assert_false(m.ply[3].have[C4B_WON]);   /* three parts missing */
    assert_int_equal(strong_files(&m, 3, C4B_WON), 4);
    assert_int_equal(strong_files(&m, 3, STRONG_GO), 1);
    char name[64];
    strong_file_name(&m, 3, C4B_WON, 1, name, sizeof name);
    assert_string_equal(name, "ply03-won-part01of04.bdd");
    const char *bad[] = {
        "part 3 won 1 12 4 00000000000000aa\n",                                       /* no split */
        "split 3 2\npart 3 won 4 12 4 00000000000000aa\n",                            /* past 4 parts */
        "split 3 2\npart 3 won 1 12 4 00000000000000aa\npart 3 won 1 12 4 00000000000000aa\n",   /* twice */
        "split 3 2\nset 3 won 12 4 00000000000000aa\n",                               /* whole, in parts */
        "set 3 won 12 4 00000000000000aa\nsplit 3 2\n",
        "split 3 6\n",                                                                /* 5x4: 5 cells at most */
        "split 3 2\nsplit 3 2\n",
        "split 3 0\n",
        "split 3 2\npart 3 go 1 12 4 00000000000000aa\n",                             /* a forward set */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i]);
        if (strong_manifest_parse(text, strlen(text), "m", &m, &err) != GSW_EFAIL) fail_msg("accepted: %s", bad[i]);
        assert_non_null(strstr(err.msg, "damaged"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u256),
        cmocka_unit_test(test_bddfile),
        cmocka_unit_test(test_published_counts),
        cmocka_unit_test(test_counts_by_enumeration),
        cmocka_unit_test(test_small_memo),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_strong_4x4),
        cmocka_unit_test(test_strong_5x4),
        cmocka_unit_test(test_from_ply),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_parts_manifest),
        cmocka_unit_test(test_strong_6x4),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Endgame-database files (db/egdb.c): round trips for 2- and 8-bit codes with
 * exceptions, truncated and damaged files refused with their path named,
 * failed writes leaving nothing behind, the probe cache across files and
 * reopened files, and blocks read from several threads at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/egdb.h"
#include "tests/test_rng.h"

/* the layout egdb.c documents: header, block table entries, exception entries */
#define HDR 128
#define BENT 32
#define XENT 10
#define N_ODD 200003                /* three full blocks and a short one */

#include "tests/test_tmpdir.h"

static int setup(void **s)
{
    (void)s;
    return test_tmpdir_make("gsw-egdb");
}

static int teardown(void **s)
{
    (void)s;
    return test_tmpdir_remove();
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

typedef struct data {
    egdb_info_t info;
    uint8_t *codes;
    uint64_t *xi;
    uint16_t *xv;
} data_t;

/* n random codes of the given width (seeded) and about n / 200 exceptions (one every 150 to 249) */
static data_t make_data(uint64_t n, uint8_t bits, uint64_t seed)
{
    data_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.info.game, sizeof d.info.game, "checkers");
    snprintf(d.info.slice, sizeof d.info.slice, "k2v1-%llu", (unsigned long long)seed);
    d.info.metric = 1;
    d.info.bits = bits;
    d.info.n = n;
    d.codes = malloc(n ? n : 1);
    d.xi = malloc((n / 150 + 1) * sizeof *d.xi);
    d.xv = malloc((n / 150 + 1) * sizeof *d.xv);
    assert_non_null(d.codes);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = test_splitmix(&seed);
        d.codes[i] = (uint8_t)(bits == 2 ? r & 3 : r);
    }
    for (uint64_t i = 7; i < n; i += 150 + test_splitmix(&seed) % 100) {
        d.xi[d.info.nexc] = i;
        d.xv[d.info.nexc++] = (uint16_t)test_splitmix(&seed);
    }
    return d;
}

static void free_data(data_t *d)
{
    free(d->codes);
    free(d->xi);
    free(d->xv);
}

static void write_ok(const char *p, const data_t *d)
{
    err_t err;
    if (egdb_write(p, &d->info, d->codes, d->xi, d->xv, &err)) fail_msg("%s", err.msg);
}

static egdb_file_t *open_ok(const char *p)
{
    egdb_file_t *f = NULL;
    err_t err;
    if (egdb_open(p, &f, &err)) fail_msg("%s", err.msg);
    return f;
}

static uint8_t *slurp(const char *p, size_t *len)
{
    FILE *fp = fopen(p, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return b;
}

/* (a new file each time: ext4 flushes a file truncated and rewritten on close) */
static void spit(const char *p, const uint8_t *b, size_t len)
{
    unlink(p);
    FILE *fp = fopen(p, "wb");
    assert_non_null(fp);
    if (len) assert_int_equal(fwrite(b, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void verify(egdb_file_t *f, const data_t *d)
{
    err_t err;
    const egdb_info_t *in = egdb_file_info(f);
    assert_string_equal(in->game, d->info.game);
    assert_string_equal(in->slice, d->info.slice);
    assert_int_equal(in->metric, d->info.metric);
    assert_int_equal(in->bits, d->info.bits);
    assert_int_equal(in->n, d->info.n);
    assert_int_equal(in->nexc, d->info.nexc);
    if (egdb_check(f, &err)) fail_msg("%s", err.msg);
    uint64_t nb = (d->info.n + EGDB_BLOCK - 1) / EGDB_BLOCK;
    uint8_t *blk = malloc(EGDB_BLOCK);
    for (uint64_t b = 0; b < nb; b++) {
        if (egdb_read_block(f, b, blk, &err)) fail_msg("%s", err.msg);
        uint64_t cnt = d->info.n - b * EGDB_BLOCK < EGDB_BLOCK ? d->info.n - b * EGDB_BLOCK : EGDB_BLOCK;
        assert_memory_equal(blk, d->codes + b * EGDB_BLOCK, cnt);
    }
    assert_int_equal(egdb_read_block(f, nb, blk, &err), GSW_EINPUT);
    free(blk);
    egdb_cache_t *c = egdb_cache_new(1);
    assert_non_null(c);
    for (uint64_t i = 0; i < d->info.n; i++) {
        uint8_t code = 0xee;
        if (egdb_get(c, f, i, &code, &err)) fail_msg("%s", err.msg);
        if (code != d->codes[i]) fail_msg("position %llu: %u, not %u", (unsigned long long)i, code, d->codes[i]);
    }
    uint8_t code;
    assert_int_equal(egdb_get(c, f, d->info.n, &code, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, egdb_file_path(f)));
    egdb_cache_forget(c, f);
    egdb_cache_free(c);
    /* exceptions: every one found, the positions between them not */
    for (uint64_t k = 0; k < d->info.nexc; k++) {
        uint16_t v = 0;
        assert_int_equal(egdb_exception(f, d->xi[k], &v), 1);
        assert_int_equal(v, d->xv[k]);
        assert_int_equal(egdb_exception(f, d->xi[k] + 1, &v), 0);
        if (d->xi[k]) assert_int_equal(egdb_exception(f, d->xi[k] - 1, &v), 0);
    }
    uint16_t v;
    assert_int_equal(egdb_exception(f, 0, &v), 0);
    assert_int_equal(egdb_exception(f, d->info.n, &v), 0);
    assert_int_equal(egdb_exception(f, UINT64_MAX, &v), 0);
}

static void round_trip(uint8_t bits)
{
    data_t d = make_data(N_ODD, bits, bits);
    assert_true(d.info.nexc > 100);
    const char *p = tmp_path(bits == 2 ? "rt2.egdb" : "rt8.egdb");
    write_ok(p, &d);
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    assert_false(exists(tmp));
    egdb_file_t *f = open_ok(p);
    assert_string_equal(egdb_file_path(f), p);
    verify(f, &d);
    egdb_close(f);
    free_data(&d);
}

static void test_round_trip_2(void **s)
{
    (void)s;
    round_trip(2);
}

static void test_round_trip_8(void **s)
{
    (void)s;
    round_trip(8);
}

/* short files: no positions at all, one position, exactly one block */
static void test_small_sizes(void **s)
{
    (void)s;
    const uint64_t sizes[] = { 0, 1, 3, 4, 5, EGDB_BLOCK, EGDB_BLOCK + 1 };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (uint8_t bits = 2; bits <= 8; bits += 6) {
            data_t d = make_data(sizes[k], bits, 100 + k);
            const char *p = tmp_path("small.egdb");
            write_ok(p, &d);
            egdb_file_t *f = open_ok(p);
            verify(f, &d);
            egdb_close(f);
            free_data(&d);
        }
}

/* The file must be refused: by egdb_open, or (damage inside a block) by
 * egdb_check and by reading that block; every message names the file.
 * Returns 1 when egdb_open refused it. */
static int refused(const char *p, const uint8_t *b, size_t len)
{
    spit(p, b, len);
    egdb_file_t *f = NULL;
    err_t err;
    memset(&err, 0, sizeof err);
    if (egdb_open(p, &f, &err)) {
        assert_null(f);
        assert_int_equal(err.code, GSW_EFAIL);
        if (!strstr(err.msg, p)) fail_msg("message without the path: %s", err.msg);
        return 1;
    }
    int rc = egdb_check(f, &err);
    if (rc == GSW_OK) fail_msg("%s: damage (%zu bytes) not found", p, len);
    assert_int_equal(rc, GSW_EFAIL);
    if (!strstr(err.msg, p) || !strstr(err.msg, "block")) fail_msg("message without path or block: %s", err.msg);
    /* the same failure through the cache and every block read; never a crash */
    egdb_cache_t *c = egdb_cache_new(0);
    int failed = 0;
    uint8_t *blk = malloc(EGDB_BLOCK);
    for (uint64_t b = 0; b * EGDB_BLOCK < egdb_file_info(f)->n; b++) {
        uint8_t code;
        int r1 = egdb_read_block(f, b, blk, &err);
        int r2 = egdb_get(c, f, b * EGDB_BLOCK, &code, &err);
        assert_int_equal(r1, r2);
        if (r1) {
            failed++;
            assert_non_null(strstr(err.msg, p));
        }
    }
    assert_true(failed > 0);
    free(blk);
    egdb_cache_forget(c, f);
    egdb_cache_free(c);
    egdb_close(f);
    return 0;
}

static void test_truncated(void **s)
{
    (void)s;
    data_t d = make_data(N_ODD, 2, 7);
    const char *good = tmp_path("good.egdb"), *p = tmp_path("cut.egdb");
    write_ok(good, &d);
    size_t len;
    uint8_t *b = slurp(good, &len);
    uint64_t nb = 4, tables = HDR + nb * BENT + d.info.nexc * XENT;
    const size_t cuts[] = { 0, 1, 7, 8, 100, HDR - 1, HDR, HDR + 30, HDR + nb * BENT, tables - 1, tables,
                            tables + 1, (tables + len) / 2, len - 1 };
    for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
        assert_true(refused(p, b, cuts[k]));
    }
    /* the example message: cut inside the data, the block named */
    spit(p, b, len - 1);
    egdb_file_t *f = NULL;
    err_t err;
    assert_int_equal(egdb_open(p, &f, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "truncated (block 3 runs past the end of the file)"));
    /* trailing bytes are refused too */
    uint8_t *more = malloc(len + 3);
    memcpy(more, b, len);
    memset(more + len, 0, 3);
    assert_true(refused(p, more, len + 3));
    free(more);
    free(b);
    free_data(&d);
}

static void test_damaged(void **s)
{
    (void)s;
    data_t d = make_data(N_ODD, 8, 9);
    const char *good = tmp_path("good8.egdb"), *p = tmp_path("bad8.egdb");
    write_ok(good, &d);
    size_t len;
    uint8_t *b = slurp(good, &len);
    uint64_t nb = 4, xt = HDR + nb * BENT, data = xt + d.info.nexc * XENT;
    /* every header byte, every byte of the block table, some of the exception table */
    for (size_t i = 0; i < xt; i++) {
        b[i] ^= 0x10;
        assert_true(refused(p, b, len));
        b[i] ^= 0x10;
    }
    for (size_t i = xt; i < data; i += 7) {
        b[i] ^= 0x01;
        assert_true(refused(p, b, len));
        b[i] ^= 0x01;
    }
    /* inside the compressed blocks: opens, but checking finds it */
    for (size_t i = data + 5; i < len; i += len / 13) {
        b[i] ^= 0x04;
        refused(p, b, len);
        b[i] ^= 0x04;
    }
    size_t mid = data + (len - data) / 2;
    b[mid] ^= 0xff;
    assert_false(refused(p, b, len));
    b[mid] ^= 0xff;
    spit(p, b, len);
    egdb_file_t *f = open_ok(p);   /* undamaged again */
    err_t err;
    assert_int_equal(egdb_check(f, &err), GSW_OK);
    egdb_close(f);
    free(b);
    free_data(&d);
}

/* a small file: flipping any one byte anywhere is always found */
static void test_every_byte(void **s)
{
    (void)s;
    for (uint8_t bits = 2; bits <= 8; bits += 6) {
        data_t d = make_data(3000, bits, 11);
        /* compressible, so zstd really compresses (no raw block) */
        for (uint64_t i = 0; i < d.info.n; i++) d.codes[i] = (uint8_t)(i % 97 < 80 ? 1 : d.codes[i]);
        const char *good = tmp_path("tiny.egdb"), *p = tmp_path("tiny-bad.egdb");
        write_ok(good, &d);
        size_t len;
        uint8_t *b = slurp(good, &len);
        for (size_t i = 0; i < len; i++)
            for (int bit = 0; bit < 8; bit += 3) {
                b[i] ^= (uint8_t)(1 << bit);
                refused(p, b, len);
                b[i] ^= (uint8_t)(1 << bit);
            }
        free(b);
        free_data(&d);
    }
}

static void test_open_errors(void **s)
{
    (void)s;
    egdb_file_t *f = (egdb_file_t *)&f;
    err_t err;
    const char *p = tmp_path("none.egdb");
    assert_int_equal(egdb_open(p, &f, &err), GSW_EFAIL);
    assert_null(f);
    assert_non_null(strstr(err.msg, p));
    assert_int_equal(egdb_open(dir, &f, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, dir));
    p = tmp_path("text.egdb");
    const char *text = "this is not an endgame database at all, but it is long enough to hold a header......"
                       "................................................................................";
    spit(p, (const uint8_t *)text, strlen(text));
    assert_int_equal(egdb_open(p, &f, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "not an endgame-database file"));
    /* a newer format version */
    data_t d = make_data(10, 8, 1);
    write_ok(p, &d);
    size_t len;
    uint8_t *b = slurp(p, &len);
    b[7] = 2;
    spit(p, b, len);
    assert_int_equal(egdb_open(p, &f, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, "version 2"));
    free(b);
    free_data(&d);
}

static void test_write_errors(void **s)
{
    (void)s;
    data_t d = make_data(1000, 2, 3);
    err_t err;
    /* a folder that does not exist */
    char p[520], missing[300], tmp[540];
    snprintf(missing, sizeof missing, "%s/no/such", dir);
    snprintf(p, sizeof p, "%s/x.egdb", missing);
    assert_int_equal(egdb_write(p, &d.info, d.codes, d.xi, d.xv, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, p));
    assert_false(exists(missing));
    /* the path is a folder: the rename fails and the .tmp goes */
    snprintf(p, sizeof p, "%s/isdir", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    spit(tmp_path("isdir/inside"), (const uint8_t *)"x", 1);
    assert_int_equal(egdb_write(p, &d.info, d.codes, d.xi, d.xv, &err), GSW_EFAIL);
    assert_non_null(strstr(err.msg, p));
    snprintf(tmp, sizeof tmp, "%s.tmp", p);
    assert_false(exists(tmp));
    /* an unwritable folder (root writes anyway) */
    if (geteuid() != 0) {
        snprintf(p, sizeof p, "%s/ro", dir);
        assert_int_equal(mkdir(p, 0555), 0);
        snprintf(p, sizeof p, "%s/ro/x.egdb", dir);
        assert_int_equal(egdb_write(p, &d.info, d.codes, d.xi, d.xv, &err), GSW_EFAIL);
        assert_non_null(strstr(err.msg, p));
    }
    /* bad arguments: nothing written */
    const char *q = tmp_path("bad.egdb");
    snprintf(tmp, sizeof tmp, "%s.tmp", q);
    egdb_info_t in = d.info;
    in.bits = 4;
    assert_int_equal(egdb_write(q, &in, d.codes, d.xi, d.xv, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, q));
    d.codes[500] = 4;
    assert_int_equal(egdb_write(q, &d.info, d.codes, d.xi, d.xv, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "position 500"));
    d.codes[500] = 3;
    uint64_t keep = d.xi[1];
    d.xi[1] = d.xi[0];
    assert_int_equal(egdb_write(q, &d.info, d.codes, d.xi, d.xv, &err), GSW_EINPUT);
    d.xi[1] = keep;
    in = d.info;
    in.nexc = 1;
    uint64_t far = 1000;
    assert_int_equal(egdb_write(q, &in, d.codes, &far, d.xv, &err), GSW_EINPUT);
    assert_false(exists(q));
    assert_false(exists(tmp));
    /* 8-bit codes may use the whole byte */
    in = d.info;
    in.bits = 8;
    d.codes[1] = 255;
    write_ok(q, &(data_t){ in, d.codes, d.xi, d.xv });
    egdb_file_t *f = open_ok(q);
    uint8_t blk[1000];
    assert_int_equal(egdb_read_block(f, 0, blk, &err), GSW_OK);
    assert_int_equal(blk[1], 255);
    egdb_close(f);
    free_data(&d);
}

/* two files probed in turn through a small cache (8 blocks for 8 blocks of data) */
static void test_cache_two_files(void **s)
{
    (void)s;
    data_t a = make_data(N_ODD, 2, 21), b = make_data(N_ODD, 8, 22);
    const char *pa = tmp_path("a.egdb"), *pb = tmp_path("b.egdb");
    write_ok(pa, &a);
    write_ok(pb, &b);
    egdb_file_t *fa = open_ok(pa), *fb = open_ok(pb);
    egdb_cache_t *c = egdb_cache_new(0);
    err_t err;
    uint64_t seed = 5;
    for (int i = 0; i < 300000; i++) {
        uint64_t k = test_splitmix(&seed) % N_ODD;
        int which = (int)(k & 1);
        uint8_t code;
        if (egdb_get(c, which ? fb : fa, k, &code, &err)) fail_msg("%s", err.msg);
        assert_int_equal(code, which ? b.codes[k] : a.codes[k]);
    }
    egdb_cache_forget(c, fa);
    egdb_cache_forget(c, fb);
    egdb_cache_free(c);
    egdb_close(fa);
    egdb_close(fb);
    free_data(&a);
    free_data(&b);
}

/* a file closed and another opened (likely at the same address): never the
 * old codes, with egdb_cache_forget and even without it */
static void test_cache_reopen(void **s)
{
    (void)s;
    egdb_cache_t *c = egdb_cache_new(2);
    err_t err;
    for (int round = 0; round < 6; round++) {
        data_t d = make_data(3 * EGDB_BLOCK, 8, 40 + (uint64_t)round);
        const char *p = tmp_path("re.egdb");
        write_ok(p, &d);
        egdb_file_t *f = open_ok(p);
        for (uint64_t k = 0; k < d.info.n; k += 997) {
            uint8_t code;
            if (egdb_get(c, f, k, &code, &err)) fail_msg("%s", err.msg);
            assert_int_equal(code, d.codes[k]);
        }
        if (round % 2 == 0) egdb_cache_forget(c, f);
        egdb_close(f);
        free_data(&d);
    }
    egdb_cache_free(c);
}

typedef struct job {
    egdb_file_t *f;
    const data_t *d;
    uint64_t seed;
    int bad;
} job_t;

static void *reader(void *arg)
{
    job_t *j = arg;
    uint8_t *blk = malloc(EGDB_BLOCK);
    egdb_cache_t *c = egdb_cache_new(0);
    err_t err;
    for (int i = 0; i < 40; i++) {
        uint64_t b = test_splitmix(&j->seed) % 4;
        uint64_t cnt = b == 3 ? N_ODD - 3 * EGDB_BLOCK : EGDB_BLOCK;
        if (egdb_read_block(j->f, b, blk, &err) || memcmp(blk, j->d->codes + b * EGDB_BLOCK, cnt)) j->bad++;
        uint64_t k = test_splitmix(&j->seed) % N_ODD;
        uint8_t code;
        if (egdb_get(c, j->f, k, &code, &err) || code != j->d->codes[k]) j->bad++;
    }
    egdb_cache_free(c);
    free(blk);
    return NULL;
}

static void test_threads(void **s)
{
    (void)s;
    data_t d = make_data(N_ODD, 2, 31);
    const char *p = tmp_path("mt.egdb");
    write_ok(p, &d);
    egdb_file_t *f = open_ok(p);
    pthread_t t[4];
    job_t j[4];
    for (int i = 0; i < 4; i++) {
        j[i] = (job_t){ f, &d, (uint64_t)i, 0 };
        assert_int_equal(pthread_create(&t[i], NULL, reader, &j[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(j[i].bad, 0);
    }
    egdb_close(f);
    free_data(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_2),
        cmocka_unit_test(test_round_trip_8),
        cmocka_unit_test(test_small_sizes),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_every_byte),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_cache_two_files),
        cmocka_unit_test(test_cache_reopen),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

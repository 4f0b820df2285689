/* Manifests (db/manifest.c): SHA-256 against the standard's vectors, a
 * manifest written, read back and written again saying the same, build
 * records and inputs kept and pruned, malformed lines refused with their
 * number, verify's four answers, and two writers of one folder (folded
 * records, and two processes updating at once) keeping each other's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "db/manifest.h"
#include "tests/test_tmpdir.h"

static int setup(void **s)
{
    (void)s;
    return test_tmpdir_make("gsw-manifest");
}

static int teardown(void **s)
{
    (void)s;
    return test_tmpdir_remove();
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_sha256(void **s)
{
    (void)s;
    char hex[MANIFEST_SHA_HEX];
    manifest_sha256("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    manifest_sha256("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* a file longer than the 1 MiB the reader takes at a time */
    const char *p = tmp_path("big");
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    size_t n = (3u << 20) + 17;
    char *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++) data[i] = (char)(i * 7 + (i >> 9));
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
    char a[MANIFEST_SHA_HEX], b[MANIFEST_SHA_HEX];
    err_t err;
    assert_int_equal(manifest_sha256_file(p, a, &err), GSW_OK);
    manifest_sha256(data, n, b);
    assert_string_equal(a, b);
    free(data);
    assert_int_not_equal(manifest_sha256_file(tmp_path("none"), a, &err), GSW_OK);
    assert_non_null(strstr(err.msg, "none"));
}

static const char *H1 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
static const char *H2 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

static void test_round_trip(void **s)
{
    (void)s;
    manifest_t m;
    memset(&m, 0, sizeof m);
    char *argv[] = {"gsw", "egdb", "build", "checkers", "--pieces", "3", "a b", "it's"};
    int b1 = manifest_build_begin(&m, 8, argv);
    assert_int_equal(b1, 1);
    assert_string_equal(m.build[0].command, "gsw egdb build checkers --pieces 3 'a b' 'it'\\''s'");
    assert_string_equal(m.build[0].version, manifest_gsw_version());
    assert_string_equal(m.build[0].commit, manifest_gsw_commit());
    assert_true(m.build[0].cores >= 1);
    assert_int_equal(manifest_set_file(&m, b1, "a.egdb", H1, 10), GSW_OK);
    assert_int_equal(manifest_set_file(&m, b1, "b.egdb", H2, 20), GSW_OK);
    assert_int_equal(manifest_add_input(&m, "b.egdb", "a.egdb", H1), GSW_OK);
    /* what would not read back is refused: a space, an absolute path, a short hash */
    assert_int_equal(manifest_set_file(&m, b1, "a b.egdb", H1, 1), GSW_EINPUT);
    assert_int_equal(manifest_set_file(&m, b1, "/a.egdb", H1, 1), GSW_EINPUT);
    assert_int_equal(manifest_set_file(&m, b1, "c.egdb", "abc", 1), GSW_EINPUT);
    assert_int_equal(manifest_add_input(&m, "b.egdb", "/etc/passwd", H1), GSW_EINPUT);
    manifest_build_done(&m, b1, 1.23456);
    int b2 = manifest_build_begin(&m, 2, argv);
    assert_int_equal(b2, 2);
    manifest_build_done(&m, b2, 0.5);
    err_t err;
    assert_int_equal(manifest_write(dir, &m, &err), GSW_OK);

    manifest_t r;
    assert_int_equal(manifest_load(dir, &r, &err), 1);
    assert_int_equal(r.nbuild, 2);
    assert_int_equal(r.nfile, 2);
    assert_int_equal(r.ninput, 1);
    assert_string_equal(r.build[0].command, m.build[0].command);
    assert_true(r.build[0].seconds == 1.235);
    assert_string_equal(r.build[0].date, m.build[0].date);
    const manifest_file_t *f = manifest_find(&r, "b.egdb");
    assert_non_null(f);
    assert_int_equal(f->positions, 20);
    assert_true(f->bytes == MANIFEST_NO_BYTES);
    assert_string_equal(f->sha256, H2);
    assert_null(manifest_find(&r, "c.egdb"));
    assert_string_equal(r.input[0].input, "a.egdb");

    /* build 2 wrote nothing: prune forgets it; a file set again loses its inputs */
    manifest_prune(&r);
    assert_int_equal(r.nbuild, 1);
    assert_int_equal(manifest_set_file(&r, b1, "b.egdb", H1, 21), GSW_OK);
    assert_int_equal(r.ninput, 0);
    assert_int_equal(manifest_remove_file(&r, "a.egdb"), 1);
    assert_int_equal(manifest_remove_file(&r, "a.egdb"), 0);
    assert_int_equal(r.nfile, 1);

    /* a real file recorded with its size; written twice, the same text */
    put_file(tmp_path("abc"), "abc");
    assert_int_equal(manifest_record_file(&r, b1, dir, "abc", 3, &err), GSW_OK);
    f = manifest_find(&r, "abc");
    assert_string_equal(f->sha256, H1);
    assert_int_equal(f->bytes, 3);
    assert_int_equal(manifest_write(dir, &r, &err), GSW_OK);
    manifest_t r2;
    assert_int_equal(manifest_load(dir, &r2, &err), 1);
    assert_int_equal(r2.nfile, 2);
    assert_int_equal(manifest_find(&r2, "abc")->bytes, 3);
    assert_int_equal(r2.build[0].id, r.build[0].id);
    manifest_free(&r2);
    manifest_free(&r);
    manifest_free(&m);

    /* thousands of files: each found by name (the index), one removed, one added */
    char sub[400];
    manifest_t big;
    memset(&big, 0, sizeof big);
    int bb = manifest_build_begin(&big, 1, argv);
    char nm[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(nm, sizeof nm, "f%d.egdb", i);
        assert_int_equal(manifest_set_file(&big, bb, nm, H1, (uint64_t)i), GSW_OK);
        if (i % 100 == 7) assert_non_null(manifest_find(&big, nm));
    }
    for (int i = 0; i < 3000; i += 37) {
        snprintf(nm, sizeof nm, "f%d.egdb", i);
        assert_int_equal(manifest_find(&big, nm)->positions, i);
    }
    assert_int_equal(manifest_remove_file(&big, "f5.egdb"), 1);
    assert_null(manifest_find(&big, "f5.egdb"));
    assert_int_equal(manifest_find(&big, "f2999.egdb")->positions, 2999);
    assert_int_equal(manifest_set_file(&big, bb, "f5.egdb", H2, 5), GSW_OK);
    assert_string_equal(manifest_find(&big, "f5.egdb")->sha256, H2);
    assert_null(manifest_find(&big, "f3000.egdb"));
    /* an input added twice (not right after its file): written once */
    assert_int_equal(manifest_add_input(&big, "f1.egdb", "f0.egdb", H1), GSW_OK);
    assert_int_equal(manifest_add_input(&big, "f5.egdb", "f0.egdb", H1), GSW_OK);
    assert_int_equal(manifest_add_input(&big, "f1.egdb", "f0.egdb", H2), GSW_OK);
    snprintf(sub, sizeof sub, "%s/bigdir", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_int_equal(manifest_write(sub, &big, &err), GSW_OK);
    manifest_t bg;
    assert_int_equal(manifest_load(sub, &bg, &err), 1);
    assert_int_equal(bg.nfile, 3000);
    assert_int_equal(bg.ninput, 2);
    assert_string_equal(bg.input[0].sha256, H2);   /* (the later of the twins) */
    manifest_free(&bg);
    manifest_free(&big);

    /* no MANIFEST: 0 */
    snprintf(sub, sizeof sub, "%s/nothing", dir);
    assert_int_equal(manifest_load(sub, &r, &err), 0);
}

/* text must be refused, naming "line N" */
static void refused(const char *text, int line)
{
    manifest_t m;
    err_t err;
    err.msg[0] = 0;
    assert_int_not_equal(manifest_parse(text, strlen(text), "M", &m, &err), GSW_OK);
    char want[32];
    snprintf(want, sizeof want, "line %d", line);
    if (!strstr(err.msg, want)) fail_msg("\"%s\" does not name %s", err.msg, want);
    assert_null(m.build);
}

static void test_malformed(void **s)
{
    (void)s;
    char good[2000];
    snprintf(good, sizeof good,
             "gsw-manifest 1\n"
             "# a comment\n"
             "build 1 version 0.1.0 commit abc1234 date 2026-12-02T10:00:00Z cores 2 seconds 0.500\n"
             "command 1 gsw egdb build checkers --pieces 3\n"
             "\n"
             "file a.egdb sha256 %s bytes 3 positions 7 build 1\n"
             "file b.egdb sha256 %s positions 8 build 1\n"
             "from b.egdb a.egdb sha256 %s\n"
             "from b.egdb ../wld/b.egdb sha256 %s\n",
             H1, H2, H1, H2);
    manifest_t m;
    err_t err;
    assert_int_equal(manifest_parse(good, strlen(good), "M", &m, &err), GSW_OK);
    assert_int_equal(m.nfile, 2);
    assert_int_equal(manifest_find(&m, "a.egdb")->bytes, 3);
    assert_int_equal(m.ninput, 2);
    assert_string_equal(m.input[1].input, "../wld/b.egdb");
    manifest_free(&m);

    const char *B = "build 1 version 0.1.0 commit abc date 2026-12-02T10:00:00Z cores 2 seconds 0.5\n";
    const char *C = "command 1 gsw x\n";
    char t[2000];
    refused("gsw-manifest 2\n", 1);
    refused("# c\nnot a manifest\n", 2);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sbogus line\n", B, C);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\nbuild 1 version 0.1.0 commit abc date yesterday cores 2 seconds 0.5\n");
    refused(t, 2);
    snprintf(t, sizeof t, "gsw-manifest 1\nbuild 1 version v commit c date 2026-12-02T10:00:00Z cores 2 seconds -1\n");
    refused(t, 2);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%s%s", B, C, B);                 /* a build twice */
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\ncommand 1 gsw\n");                 /* a command before its build */
    refused(t, 2);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 2\n", B, C, H1);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %.63s positions 1 build 1\n", B, C, H1);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions -1 build 1\n", B, C, H1);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile ../a sha256 %s positions 1 build 1\n", B, C, H1);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 1 more\n", B, C, H1);
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 1\nfile a sha256 %s positions 1 build 1\n",
             B, C, H1, H1);
    refused(t, 5);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 1\nfrom a /etc/b sha256 %s\n", B, C,
             H1, H1);
    refused(t, 5);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfrom a b sha256 %s\n", B, C, H1);  /* inputs of no file */
    refused(t, 4);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 1\nfile b sha256 %s positions 1 build 1\n"
             "from a c sha256 %s\n", B, C, H1, H1, H1);   /* a's inputs after b's line */
    refused(t, 6);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 1 build 1\nfrom a c sha256 %s\nfrom a c sha256 %s\n",
             B, C, H1, H1, H2);
    refused(t, 6);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s%sfile a sha256 %s positions 99999999999999999999 build 1\n", B, C, H1);
    refused(t, 4);
    refused("gsw-manifest 1\nbuild 1 version v commit c date 2026-12-02T10:00:00Z cores 2 seconds 1\ncommand 1 a\tb\n", 3);
    static const char nul[] = "gsw-manifest 1\n# a\0b\n";
    manifest_t y;
    assert_int_not_equal(manifest_parse(nul, sizeof nul - 1, "M", &y, &err), GSW_OK);
    assert_non_null(strstr(err.msg, "line 2"));
    /* a build without its command */
    manifest_t x;
    assert_int_not_equal(manifest_parse(B, strlen(B), "M", &x, &err), GSW_OK);
    snprintf(t, sizeof t, "gsw-manifest 1\n%s", B);
    assert_int_not_equal(manifest_parse(t, strlen(t), "M", &x, &err), GSW_OK);
    assert_non_null(strstr(err.msg, "no command"));
    assert_int_not_equal(manifest_parse("", 0, "M", &x, &err), GSW_OK);
}

typedef struct seen {
    char text[2000];
} seen_t;

static void note(void *ctx, const char *name, int status)
{
    seen_t *s = ctx;
    size_t k = strlen(s->text);
    snprintf(s->text + k, sizeof s->text - k, "%s: %s\n", name, manifest_status_name(status));
}

static int egdb_only(const char *name)
{
    size_t k = strlen(name);
    return k > 5 && !strcmp(name + k - 5, ".egdb");
}

static void test_verify(void **s)
{
    (void)s;
    char d[400];
    snprintf(d, sizeof d, "%s/v", dir);
    assert_int_equal(mkdir(d, 0777), 0);
    char p[500];
    snprintf(p, sizeof p, "%s/a.egdb", d), put_file(p, "abc");
    snprintf(p, sizeof p, "%s/b.egdb", d), put_file(p, "bbbb");
    snprintf(p, sizeof p, "%s/c.egdb", d), put_file(p, "cc");
    manifest_t m;
    memset(&m, 0, sizeof m);
    char *argv[] = {"gsw"};
    int b = manifest_build_begin(&m, 1, argv);
    err_t err;
    assert_int_equal(manifest_record_file(&m, b, d, "a.egdb", 1, &err), GSW_OK);
    assert_int_equal(manifest_record_file(&m, b, d, "b.egdb", 1, &err), GSW_OK);
    assert_int_equal(manifest_record_file(&m, b, d, "c.egdb", 1, &err), GSW_OK);
    assert_int_equal(manifest_write(d, &m, &err), GSW_OK);
    seen_t seen = {""};
    assert_int_equal(manifest_verify(d, &m, egdb_only, note, &seen, &err), 0);
    assert_string_equal(seen.text, "a.egdb: ok\nb.egdb: ok\nc.egdb: ok\n");
    assert_int_equal(manifest_check_size(d, &m, "a.egdb", &err), GSW_OK);

    snprintf(p, sizeof p, "%s/b.egdb", d), put_file(p, "bbbc");    /* same size, one byte changed */
    snprintf(p, sizeof p, "%s/c.egdb", d), remove(p);
    snprintf(p, sizeof p, "%s/a.egdb", d), put_file(p, "abcd");    /* grown */
    snprintf(p, sizeof p, "%s/z.egdb", d), put_file(p, "z");
    snprintf(p, sizeof p, "%s/notes.txt", d), put_file(p, "z");
    seen.text[0] = 0;
    assert_int_equal(manifest_verify(d, &m, egdb_only, note, &seen, &err), 4);
    assert_string_equal(seen.text, "a.egdb: differs from the manifest\nb.egdb: differs from the manifest\n"
                                   "c.egdb: missing\nz.egdb: not in the manifest\n");
    assert_int_not_equal(manifest_check_size(d, &m, "a.egdb", &err), GSW_OK);
    assert_non_null(strstr(err.msg, "a.egdb"));
    assert_int_equal(manifest_check_size(d, &m, "b.egdb", &err), GSW_OK);   /* the cheap check misses it */
    assert_int_not_equal(manifest_check_size(d, &m, "z.egdb", &err), GSW_OK);
    assert_non_null(strstr(err.msg, "not in"));
    assert_int_not_equal(manifest_check_size(d, &m, "c.egdb", &err), GSW_OK);
    assert_non_null(strstr(err.msg, "missing"));
    manifest_free(&m);
}

/* manifest_fold's change: fold's files, build record and inputs */
typedef struct fold_ctx {
    manifest_t *mine;
    int build;
    const int *files;
    int nfiles;
} fold_ctx_t;

static int fold_in(void *ctx, manifest_t *m, err_t *err)
{
    fold_ctx_t *f = ctx;
    (void)err;
    return manifest_fold(m, f->mine, f->build, f->files, f->nfiles);
}

static int file_index(const manifest_t *m, const char *name)
{
    const manifest_file_t *f = manifest_find(m, name);
    assert_non_null(f);
    return (int)(f - m->file);
}

static void test_two_writers(void **s)
{
    (void)s;
    char d[400], p[500];
    snprintf(d, sizeof d, "%s/two", dir);
    assert_int_equal(mkdir(d, 0777), 0);
    const char *names[] = {"a.egdb", "b.egdb", "c.egdb", "x.egdb"};
    for (int i = 0; i < 4; i++) snprintf(p, sizeof p, "%s/%s", d, names[i]), put_file(p, names[i]);
    /* A and B both began before either wrote: each holds its own copy */
    manifest_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    char *argv_a[] = {"gsw", "egdb", "build", "A"}, *argv_b[] = {"gsw", "egdb", "build", "B"};
    int ba = manifest_build_begin(&a, 4, argv_a), bb = manifest_build_begin(&b, 4, argv_b);
    assert_int_equal(ba, 1);
    assert_int_equal(bb, 1);   /* (the same id in their own copies) */
    err_t err;
    assert_int_equal(manifest_record_file(&a, ba, d, "a.egdb", 10, &err), GSW_OK);
    assert_int_equal(manifest_add_input(&a, "a.egdb", "x.egdb", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), GSW_OK);
    assert_int_equal(manifest_record_file(&b, bb, d, "b.egdb", 20, &err), GSW_OK);
    int fa[1] = {file_index(&a, "a.egdb")};
    fold_ctx_t ca = {&a, ba, fa, 1}, cb = {&b, bb, NULL, 0};
    assert_int_equal(manifest_update(d, fold_in, &ca, &err), GSW_OK);
    assert_int_equal(manifest_update(d, fold_in, &cb, &err), GSW_OK);
    /* A again with c only: a stays, A's build keeps its id */
    assert_int_equal(manifest_record_file(&a, ba, d, "c.egdb", 30, &err), GSW_OK);
    int fc[1] = {file_index(&a, "c.egdb")};
    ca.files = fc;
    manifest_build_done(&a, ba, 2.5);
    assert_int_equal(manifest_update(d, fold_in, &ca, &err), GSW_OK);
    manifest_t r;
    assert_int_equal(manifest_load(d, &r, &err), 1);
    assert_int_equal(r.nfile, 3);
    assert_int_equal(r.nbuild, 2);
    const manifest_file_t *fa2 = manifest_find(&r, "a.egdb"), *fb2 = manifest_find(&r, "b.egdb"),
                          *fc2 = manifest_find(&r, "c.egdb");
    assert_non_null(fa2);
    assert_non_null(fb2);
    assert_non_null(fc2);
    assert_int_equal(fa2->build, fc2->build);
    assert_int_not_equal(fa2->build, fb2->build);
    assert_int_equal(fb2->positions, 20);
    assert_int_equal(fa2->bytes, 6);
    int seen_a = 0;
    for (int i = 0; i < r.nbuild; i++)
        if (r.build[i].id == fa2->build) {
            assert_non_null(strstr(r.build[i].command, "build A"));
            assert_true(r.build[i].seconds == 2.5);
            seen_a = 1;
        }
    assert_true(seen_a);
    assert_int_equal(r.ninput, 1);
    assert_string_equal(r.input[0].name, "a.egdb");
    assert_string_equal(r.input[0].input, "x.egdb");
    manifest_free(&r);
    /* B rebuilds a: A's record of it goes, A's build stays for c */
    assert_int_equal(manifest_record_file(&b, bb, d, "a.egdb", 11, &err), GSW_OK);
    int fb[1] = {file_index(&b, "a.egdb")};
    cb.files = fb, cb.nfiles = 1;
    assert_int_equal(manifest_update(d, fold_in, &cb, &err), GSW_OK);
    assert_int_equal(manifest_load(d, &r, &err), 1);
    assert_int_equal(manifest_find(&r, "a.egdb")->build, manifest_find(&r, "b.egdb")->build);
    assert_int_equal(manifest_find(&r, "a.egdb")->positions, 11);
    assert_int_equal(r.ninput, 0);
    assert_int_equal(r.nbuild, 2);
    manifest_free(&r);
    manifest_free(&a);
    manifest_free(&b);
}

/* one writer's share of test_concurrent: a file recorded an update at a
 * time, each under its own build */
static int add_one(void *ctx, manifest_t *m, err_t *err)
{
    const char **name = ctx;
    char *argv[] = {"gsw", (char *)*name};
    int b = manifest_build_begin(m, 2, argv);
    (void)err;
    return b < 0 ? GSW_EFAIL
                 : manifest_set_file(m, b, *name, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", 1);
}

static void test_concurrent(void **s)
{
    (void)s;
    char d[400];
    snprintf(d, sizeof d, "%s/both", dir);
    assert_int_equal(mkdir(d, 0777), 0);
    enum { EACH = 150 };
    pid_t kid[2];
    for (int k = 0; k < 2; k++) {
        kid[k] = fork();
        assert_true(kid[k] >= 0);
        if (kid[k]) continue;
        int bad = 0;
        for (int i = 0; i < EACH; i++) {
            char name[40];
            const char *np = name;
            snprintf(name, sizeof name, "w%d-%03d.egdb", k, i);
            err_t err;
            bad |= manifest_update(d, add_one, &np, &err) != GSW_OK;
        }
        _exit(bad);
    }
    for (int k = 0; k < 2; k++) {
        int st;
        assert_int_equal(waitpid(kid[k], &st, 0), kid[k]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    manifest_t r;
    err_t err;
    assert_int_equal(manifest_load(d, &r, &err), 1);
    assert_int_equal(r.nfile, 2 * EACH);   /* none lost to the other writer */
    assert_int_equal(r.nbuild, 2 * EACH);
    manifest_free(&r);
    char p[500];
    snprintf(p, sizeof p, "%s/MANIFEST.tmp", d);
    assert_int_not_equal(access(p, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_verify),
        cmocka_unit_test(test_two_writers),
        cmocka_unit_test(test_concurrent),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

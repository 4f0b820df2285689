/* Manifests (db/manifest.c): what parses writes back as text that parses
 * to the same manifest, and a refusal says why (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include <sys/stat.h>

#include "db/manifest.h"

static int same(const manifest_t *a, const manifest_t *b)
{
    return a->nbuild == b->nbuild && a->nfile == b->nfile && a->ninput == b->ninput &&
           (!a->nbuild || !memcmp(a->build, b->build, (size_t)a->nbuild * sizeof *a->build)) &&
           (!a->nfile || !memcmp(a->file, b->file, (size_t)a->nfile * sizeof *a->file)) &&
           (!a->ninput || !memcmp(a->input, b->input, (size_t)a->ninput * sizeof *a->input));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    manifest_t a, b;
    err_t err;
    err.msg[0] = 0;
    if (manifest_parse((const char *)data, size, "input", &a, &err)) {
        if (!err.msg[0] || a.build || a.file || a.input) abort();
        return 0;
    }
    char dir[256];
    fuzz_path(dir, sizeof dir, "manifest", "");
    mkdir(dir, 0777);
    if (manifest_write(dir, &a, &err)) {
        manifest_free(&a);
        return 0;
    }
    if (manifest_load(dir, &b, &err) != 1) {
        fprintf(stderr, "written manifest refused: %s\n", err.msg);
        abort();
    }
    if (!same(&a, &b)) {
        fprintf(stderr, "the manifest changed on its way through a file\n");
        abort();
    }
    /* what the builders do to it keeps it writable and readable */
    manifest_prune(&b);
    for (int i = 0; i < a.nfile; i++) manifest_find(&b, a.file[i].name);
    manifest_free(&a);
    manifest_free(&b);
    return 0;
}

/* The manifest of a strong solution (solve/strong.c): what parses writes
 * back as text that parses to the same manifest, and a refusal says why
 * (abort() otherwise). */
#include "tests/fuzz/fuzz_util.h"

#include "solve/strong.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static strong_manifest_t a, b;
    err_t err;
    err.msg[0] = 0;
    if (strong_manifest_parse((const char *)data, size, "input", &a, &err)) {
        if (!err.msg[0]) abort();
        return 0;
    }
    char path[256];
    fuzz_path(path, sizeof path, "manifest", "");
    if (strong_manifest_write(path, &a, &err)) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    unlink(path);
    if (strong_manifest_parse(text, n, "written", &b, &err)) {
        fprintf(stderr, "written manifest refused: %s\n", err.msg);
        abort();
    }
    if (memcmp(&a, &b, sizeof a)) {
        fprintf(stderr, "the manifest changed on its way through a file\n");
        abort();
    }
    return 0;
}

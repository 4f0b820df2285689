/* Helpers shared by the fuzz targets (tests/fuzz/fuzz_*.c): the input as a
 * C string, and the input written to a scratch file for the parsers that
 * read a path. Each target defines LLVMFuzzerTestOneInput; libFuzzer or
 * replay_main.c calls it. */
#ifndef GSW_FUZZ_UTIL_H
#define GSW_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (cut at its first NUL); free it. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* A scratch path of this process ending in suffix (made once): the folder
 * is $TMPDIR or /tmp, the name holds the pid so parallel fuzzers do not
 * meet. */
static inline const char *fuzz_path(char *buf, size_t n, const char *what, const char *suffix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, n, "%s/gsw-fuzz-%s-%ld%s", tmp && *tmp ? tmp : "/tmp", what, (long)getpid(), suffix);
    return buf;
}

/* Write the input to path; 0 on success. */
static inline int fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int bad = size && fwrite(data, 1, size, f) != size;
    return fclose(f) || bad ? -1 : 0;
}

/* Inputs naming a file to read (a solitaire "board=FILE" option) are left
 * out: the fuzzer would read whatever the name finds, /dev/stdin included. */
static inline int fuzz_names_file(const char *s)
{
    return strstr(s, "board=") != NULL;
}

#endif

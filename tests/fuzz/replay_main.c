/* Runs fuzz inputs through a target without libFuzzer: every file named on
 * the command line, and every file in each folder named (not recursive),
 * through LLVMFuzzerTestOneInput. Used by the fuzz_replay_* tests of the
 * default build (the corpora and the regression inputs, under ASan too). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "replay: out of memory\n"); return 1; }
    /* an exact-size copy, so ASan sees reads past the end as libFuzzer would */
    uint8_t *data = malloc(n ? n : 1);
    if (!data) { free(buf); return 1; }
    memcpy(data, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int bad = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) { fprintf(stderr, "replay: no such file %s\n", argv[i]); bad++; continue; }
        if (!S_ISDIR(st.st_mode)) { bad += run_file(argv[i]); runs++; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { fprintf(stderr, "replay: cannot read %s\n", argv[i]); bad++; continue; }
        char **names = NULL;
        int n = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char **nn = realloc(names, (size_t)(n + 1) * sizeof *nn);
            if (!nn) break;
            names = nn;
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            if (!(names[n] = malloc(len))) break;
            snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        if (n) qsort(names, (size_t)n, sizeof *names, cmp);
        for (int k = 0; k < n; k++) {
            struct stat fs;
            if (!stat(names[k], &fs) && S_ISREG(fs.st_mode)) { bad += run_file(names[k]); runs++; }
            free(names[k]);
        }
        free(names);
    }
    printf("replay: %d inputs, %d unreadable\n", runs, bad);
    return bad ? 1 : 0;
}

/* A gsw tune run's generation file (db/tunelog.c, gen-0001.csv), read from
 * a scratch folder: a refusal says why; what reads has every value in its
 * range and draws as a text chart and an SVG file. */
#include "tests/fuzz/fuzz_util.h"

#include <math.h>
#include <sys/stat.h>

#include "db/tunelog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[256], path[300];
    fuzz_path(dir, sizeof dir, "tunelog", "");
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/gen-0001.csv", dir);
    if (fuzz_write(path, data, size)) abort();
    tune_gen_t *h = NULL;
    int n = 0;
    err_t err;
    err.msg[0] = 0;
    if (tune_history(dir, &h, &n, &err)) {
        if (!err.msg[0] || h || n) abort();   /* a refusal says why, and keeps nothing */
    } else {
        if (n != 1 || h[0].gen != 1 || h[0].n < 1) abort();
        for (int a = 0; a < TUNE_PIECES; a++)
            if (!isfinite(h[0].elite[a]) || !isfinite(h[0].median[a]) || h[0].elite[a] < 0 || h[0].median[a] < 0) abort();
        if (tunelog_write_svg(dir, h, n, &err)) abort();
        char *text = NULL;
        if (tune_chart_text(dir, 40, 8, &text, &err) || !text || !strstr(text, "generation 1")) abort();
        free(text);
        free(h);
        snprintf(path, sizeof path, "%s/%s", dir, TUNE_SVG);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/gen-0001.csv", dir);
    unlink(path);
    return 0;
}

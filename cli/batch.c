/* The batch file reader (see batch.h). */
#include "cli/batch.h"

#include <stdlib.h>
#include <string.h>

int batch_read(const gv_t *gv, const char *path, batch_line_t **out, int *count, err_t *err)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) return err_set(err, GSW_EINPUT, "cannot open batch file %s", path);
    int rc = batch_parse(gv, f, path, out, count, err);
    if (f != stdin) fclose(f);
    return rc;
}

int batch_parse(const gv_t *gv, FILE *f, const char *path, batch_line_t **out, int *count, err_t *err)
{
    batch_line_t *v = NULL;
    int n = 0, cap = 0, lineno = 0, rc = GSW_OK;
    char line[4096];
    GSW_POSBUF pos[GSW_MAX_POS];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = err_set(err, GSW_EINPUT, "%s:%d: line too long", path, lineno);
            break;
        }
        char *save, *tok = strtok_r(line, " \t\r\n", &save);
        if (!tok || tok[0] == '#') continue;
        char *exp = strtok_r(NULL, " \t\r\n", &save);
        char *extra = exp ? strtok_r(NULL, " \t\r\n", &save) : NULL;
        if (extra) { rc = err_set(err, GSW_EINPUT, "%s:%d: unexpected \"%s\" (expected MOVES [SCORE])", path, lineno, extra); break; }
        const char *moves = strcmp(tok, "startpos") ? tok : "";
        err_t e;
        if (game_pos_parse(gv, moves, pos, &e)) { rc = err_set(err, GSW_EINPUT, "%s:%d: %s", path, lineno, e.msg); break; }
        batch_line_t b = { strdup(tok), 0, 0 };
        if (exp) {
            char *end;
            long x = strtol(exp, &end, 10);
            if (*end || end == exp) {
                free(b.moves);
                rc = err_set(err, GSW_EINPUT, "%s:%d: bad expected score \"%s\"", path, lineno, exp);
                break;
            }
            b.has_expected = 1;
            b.expected = (int)x;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            batch_line_t *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) { free(b.moves); rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
            v = nv;
        }
        v[n++] = b;
    }
    if (rc) {
        for (int i = 0; i < n; i++) free(v[i].moves);
        free(v);
        return rc;
    }
    *out = v;
    *count = n;
    return GSW_OK;
}

/* JSON writer for the CLI's --json output (see json.h). */
#include "cli/json.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

static int json_docs_on_stdout;   /* documents written to stdout by this process */

/* Room for one more level; the writer never fails a caller: without memory
 * the flags of the deepest levels are shared (the output stays readable). */
static void json_grow(json_t *j)
{
    if ((size_t)j->depth + 1 < j->cap) return;
    size_t cap = j->cap ? j->cap * 2 : 64;
    unsigned char *nf = realloc(j->first, cap);
    if (!nf) return;
    j->first = nf;
    j->cap = cap;
}

static unsigned char *json_first(json_t *j)
{
    static unsigned char spare;
    return (size_t)j->depth < j->cap ? &j->first[j->depth] : &spare;
}

static void json_sep(json_t *j, const char *k)
{
    unsigned char *first = json_first(j);
    if (!*first) fputc(',', j->f);
    *first = 0;
    if (k) {
        fputc('"', j->f);
        for (const char *p = k; *p; p++) fputc(*p, j->f);
        fputs("\":", j->f);
    }
}

static void json_open(json_t *j, const char *k, char c)
{
    json_sep(j, k);
    fputc(c, j->f);
    json_grow(j);
    j->depth++;
    *json_first(j) = 1;
}

void json_begin(json_t *j, FILE *f)
{
    j->out = f;
    j->buf = NULL;
    j->len = 0;
    j->f = open_memstream(&j->buf, &j->len);
    if (!j->f) j->f = f;   /* no memory for a buffer: straight out */
    j->depth = 0;
    j->first = NULL;
    j->cap = 0;
    json_grow(j);
    *json_first(j) = 1;
    json_open(j, NULL, '{');
}

static void json_release(json_t *j)
{
    if (j->f != j->out) fclose(j->f);
    free(j->buf);
    free(j->first);
    j->buf = NULL;
    j->first = NULL;
    j->cap = 0;
    j->f = NULL;
}

void json_end(json_t *j)
{
    json_close(j, '}');
    if (j->f != j->out) {
        fflush(j->f);
        fwrite(j->buf, 1, j->len, j->out);
    }
    fputc('\n', j->out);
    fflush(j->out);
    if (j->out == stdout) {   /* one document per process on stdout */
        assert(json_docs_on_stdout == 0);
        json_docs_on_stdout++;
    }
    json_release(j);
}

void json_discard(json_t *j)
{
    if (j->f) json_release(j);
}

void json_key(json_t *j, const char *k) { json_sep(j, k); }
void json_obj(json_t *j, const char *k) { json_open(j, k, '{'); }
void json_arr(json_t *j, const char *k) { json_open(j, k, '['); }

void json_close(json_t *j, char c)
{
    fputc(c, j->f);
    if (j->depth > 0) j->depth--;
}

void json_str(json_t *j, const char *k, const char *s)
{
    json_sep(j, k);
    fputc('"', j->f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(j->f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", j->f);
        else if (*p == '\t') fputs("\\t", j->f);
        else if (*p < 0x20 || *p == 0x7f) fprintf(j->f, "\\u%04x", *p);
        else fputc(*p, j->f);
    }
    fputc('"', j->f);
}

void json_int(json_t *j, const char *k, int64_t v) { json_sep(j, k); fprintf(j->f, "%lld", (long long)v); }

void json_num(json_t *j, const char *k, double v)
{
    json_sep(j, k);
    if (isfinite(v)) fprintf(j->f, "%.3f", v);
    else fputs("null", j->f);
}

void json_bool(json_t *j, const char *k, int v) { json_sep(j, k); fputs(v ? "true" : "false", j->f); }
void json_null(json_t *j, const char *k) { json_sep(j, k); fputs("null", j->f); }
void json_digits(json_t *j, const char *k, const char *digits) { json_sep(j, k); fputs(digits, j->f); }

/* JSON writer for the CLI's --json output (see json.h). */
#include "ui/json.h"

static void json_sep(json_t *j, const char *k)
{
    if (!j->first[j->depth]) fputc(',', j->f);
    j->first[j->depth] = 0;
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
    if (j->depth < 31) j->depth++;
    j->first[j->depth] = 1;
}

void json_begin(json_t *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    json_open(j, NULL, '{');
}

void json_end(json_t *j)
{
    json_close(j, '}');
    fputc('\n', j->f);
    fflush(j->f);
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
        else if (*p < 0x20) fprintf(j->f, "\\u%04x", *p);
        else fputc(*p, j->f);
    }
    fputc('"', j->f);
}

void json_int(json_t *j, const char *k, int64_t v) { json_sep(j, k); fprintf(j->f, "%lld", (long long)v); }
void json_num(json_t *j, const char *k, double v) { json_sep(j, k); fprintf(j->f, "%.3f", v); }
void json_bool(json_t *j, const char *k, int v) { json_sep(j, k); fputs(v ? "true" : "false", j->f); }
void json_null(json_t *j, const char *k) { json_sep(j, k); fputs("null", j->f); }

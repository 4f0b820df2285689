/* The text of PGN-family game records: the shared reader and writer
 * (games/record_text.h) of chess's PGN and checkers' PDN. */
#include "games/record_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rec_reader_init(rec_reader_t *r, const char *text, const char *fmt)
{
    r->s = text;
    r->line = 1;
    r->bol = 1;
    r->fmt = fmt;
    if (!strncmp(r->s, "\xEF\xBB\xBF", 3)) r->s += 3;
}

void rec_advance(rec_reader_t *r)
{
    r->bol = *r->s == '\n';
    if (*r->s == '\n') r->line++;
    r->s++;
}

/* Up to the end of the line (not past the '\n'). */
static void rec_skip_line(rec_reader_t *r)
{
    while (*r->s && *r->s != '\n') rec_advance(r);
}

/* A {comment}; 0, or 1 when it is never closed. */
static int rec_skip_comment(rec_reader_t *r)
{
    while (*r->s && *r->s != '}') rec_advance(r);
    if (!*r->s) return 1;
    rec_advance(r);
    return 0;
}

int rec_skip(rec_reader_t *r, err_t *err)
{
    for (;;) {
        unsigned char c = (unsigned char)*r->s;
        if (c == '%' && r->bol) { rec_skip_line(r); continue; }
        if (isspace(c)) { rec_advance(r); continue; }
        if (c == '{') {
            int line = r->line;
            if (rec_skip_comment(r))
                return err_set(err, GSW_EINPUT, "%s: line %d: a comment '{' with no closing '}'", r->fmt, line);
            continue;
        }
        if (c == ';') { rec_skip_line(r); continue; }
        if (c == '(') {   /* a variation: skipped, with what it holds */
            int line = r->line, depth = 0;
            while (*r->s) {
                if (*r->s == '{') {
                    if (rec_skip_comment(r))
                        return err_set(err, GSW_EINPUT, "%s: line %d: a comment '{' with no closing '}'", r->fmt, line);
                    continue;
                }
                if (*r->s == ';') { rec_skip_line(r); continue; }
                if (*r->s == '(') depth++;
                else if (*r->s == ')') depth--;
                rec_advance(r);
                if (!depth) break;
            }
            if (depth > 0)
                return err_set(err, GSW_EINPUT, "%s: line %d: a variation '(' with no closing ')'", r->fmt, line);
            continue;
        }
        return GSW_OK;
    }
}

int rec_tag(rec_reader_t *r, char *name, size_t nn, char *val, size_t vn, int *cut, err_t *err)
{
    int line = r->line;
    rec_advance(r);   /* '[' */
    while (*r->s == ' ' || *r->s == '\t') rec_advance(r);
    size_t k = 0;
    while (isalnum((unsigned char)*r->s) || *r->s == '_') {
        if (k + 1 < nn) name[k++] = *r->s;
        rec_advance(r);
    }
    name[k] = 0;
    if (!k) return err_set(err, GSW_EINPUT, "%s: line %d: a tag with no name (expected [Name \"value\"])", r->fmt, line);
    while (*r->s == ' ' || *r->s == '\t') rec_advance(r);
    if (*r->s != '"')
        return err_set(err, GSW_EINPUT, "%s: line %d: tag %s has no quoted value (expected [%s \"value\"])", r->fmt,
                       line, name, name);
    rec_advance(r);
    k = 0;
    *cut = 0;
    while (*r->s && *r->s != '"' && *r->s != '\n') {
        if (*r->s == '\\' && r->s[1] && r->s[1] != '\n') rec_advance(r);
        if (k + 1 < vn) val[k++] = *r->s;
        else *cut = 1;
        rec_advance(r);
    }
    val[k] = 0;
    if (*r->s != '"')
        return err_set(err, GSW_EINPUT, "%s: line %d: the value of tag %s has no closing '\"'", r->fmt, line, name);
    rec_advance(r);
    while (*r->s == ' ' || *r->s == '\t') rec_advance(r);
    if (*r->s != ']') return err_set(err, GSW_EINPUT, "%s: line %d: tag %s has no closing ']'", r->fmt, line, name);
    rec_advance(r);
    return GSW_OK;
}

int rec_token_char(char c)
{
    return c && !isspace((unsigned char)c) && !strchr("{}()[];\"$", c);
}

void rec_skip_nag(rec_reader_t *r)
{
    rec_advance(r);
    while (isdigit((unsigned char)*r->s)) rec_advance(r);
}

void rec_put(rec_writer_t *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = w->used < w->len ? w->len - w->used : 0;
    int k = vsnprintf(room ? w->buf + w->used : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0) w->used += (size_t)k;
}

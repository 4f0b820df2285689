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

int rec_read_moves(rec_reader_t *r, const rec_moves_fmt_t *f, const gv_t *v, const void *start, int tags,
                   move_t *moves, int max, int *n, err_t *err)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS];
    memcpy(pos, start, O->pos_size);
    int ended = 0, nm = 0;
    for (;;) {
        if (rec_skip(r, err)) return err->code;
        if (!*r->s || *r->s == '[') break;
        if (*r->s == '$') {   /* a NAG: $ and digits */
            rec_skip_nag(r);
            continue;
        }
        char mname[24];
        f->move_name(start, nm, mname, sizeof mname);
        if (!rec_token_char(*r->s)) {   /* '}', ')', ']' or '"' */
            if (!nm)
                return err_set(err, GSW_EINPUT, "%s: line %d: unexpected '%c' before the first move", r->fmt, r->line,
                               *r->s);
            f->move_name(start, nm - 1, mname, sizeof mname);
            return err_set(err, GSW_EINPUT, "%s: line %d: unexpected '%c' after move %s", r->fmt, r->line, *r->s, mname);
        }
        const char *t0 = r->s;
        while (rec_token_char(*r->s)) rec_advance(r);
        char tok[REC_TOK_MAX];
        size_t tl = (size_t)(r->s - t0);
        if (tl >= f->tok_max || tl >= sizeof tok)
            return err_set(err, GSW_EINPUT, "%s: line %d, move %s %.20s...: not a move (too long)", r->fmt, r->line,
                           mname, t0);
        memcpy(tok, t0, tl);
        tok[tl] = 0;
        if (f->is_result(tok)) { ended = 1; break; }
        char *t = tok;
        /* a move number: digits and dots ("12." "12..."), maybe joined to
         * the move */
        char *d = t;
        while (isdigit((unsigned char)*d)) d++;
        if (d > t && (*d == '.' || (f->pgn_numbers && !*d))) {
            while (*d == '.') d++;
            t = d;
        }
        if (f->pgn_numbers)
            while (*t == '.') t++;   /* "..." alone, or dots before a move */
        /* annotation glyphs after the move, or alone (! ? !! ?? !? ?!), and
         * check marks, right or not: the position says */
        char shown[REC_TOK_MAX];
        snprintf(shown, sizeof shown, "%s", t);
        size_t k = strlen(t);
        while (k && strchr("!?+#", t[k - 1])) t[--k] = 0;
        if (!*t || (f->no_move && f->no_move(t))) continue;
        if (nm >= max)
            return err_set(err, GSW_EINPUT, "%s: move %s %s: the record has more than %d moves", r->fmt, mname, shown,
                           max);
        move_t m;
        err_t e;
        if (O->move_parse(v, pos, t, &m, &e))
            return err_set(err, GSW_EINPUT, "%s: line %d, move %s %s: %s", r->fmt, r->line, mname, shown, e.msg);
        moves[nm++] = m;
        O->play(v, pos, m);
    }
    if (!ended && !nm && !tags)
        return err_set(err, GSW_EINPUT, "%s: no game in the record (no tags, no moves)", r->fmt);
    *n = nm;
    return GSW_OK;
}

void rec_write_moves(rec_writer_t *w, const rec_moves_fmt_t *f, const gv_t *v, const void *start, const char *fen,
                     const move_t *moves, int n, const char *result)
{
    if (fen) rec_put(w, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
    rec_put(w, "\n");
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS];
    memcpy(pos, start, O->pos_size);
    int col = 0;
    for (int i = 0; i < n; i++) {
        /* only legal moves are written: a record that reads back */
        move_t mv[GSW_MAX_MOVES];
        int nl = O->moves(v, pos, mv), ok = 0;
        for (int j = 0; j < nl && !ok; j++) ok = mv[j] == moves[i];
        if (!ok) break;
        char item[96], mt[64], num[24] = "";
        O->move_format(v, pos, moves[i], mt, sizeof mt);
        if (O->pos_turn(v, pos) == 0 || i == 0) f->move_name(start, i, num, sizeof num);
        int k = snprintf(item, sizeof item, "%s%s%s", num, *num ? " " : "", mt);
        if (col && col + 1 + k > 79) { rec_put(w, "\n"); col = 0; }
        rec_put(w, "%s%s", col ? " " : "", item);
        col += (col ? 1 : 0) + k;
        O->play(v, pos, moves[i]);
    }
    if (col && col + 1 + (int)strlen(result) > 79) { rec_put(w, "\n"); col = 0; }
    rec_put(w, "%s%s\n", col ? " " : "", result);
}

/* The text of PGN-family game records (chess PGN, checkers PDN): a reader
 * that skips what carries no move (whitespace, {comments}, ;comments,
 * %escape lines, (variations), nested) and reads [Name "value"] tags, and
 * a writer that appends formatted text to a fixed buffer while counting
 * what the whole record needs. Messages name the format ("PGN: line 3:"). */
#ifndef GSW_RECORD_TEXT_H
#define GSW_RECORD_TEXT_H

#include <stddef.h>

#include "core/err.h"

typedef struct rec_reader {
    const char *s;      /* the next character */
    int line;           /* its line, from 1 */
    int bol;            /* s is at the start of a line (for % escape lines) */
    const char *fmt;    /* "PGN", "PDN": the messages' prefix */
} rec_reader_t;

/* Start reading text (a UTF-8 byte-order mark is skipped). */
void rec_reader_init(rec_reader_t *r, const char *text, const char *fmt);
/* One character on, counting lines. */
void rec_advance(rec_reader_t *r);
/* Past everything that is not a tag or a token; GSW_EINPUT for a comment
 * or variation never closed. */
int rec_skip(rec_reader_t *r, err_t *err);
/* At '[': a tag pair [Name "value"], its name cut to nn and its value to
 * vn (*cut set when the value was longer). */
int rec_tag(rec_reader_t *r, char *name, size_t nn, char *val, size_t vn, int *cut, err_t *err);
/* 1 if c can be part of a token (a move, a move number, a result). */
int rec_token_char(char c);
/* At '$': a numeric annotation glyph, skipped. */
void rec_skip_nag(rec_reader_t *r);

typedef struct rec_writer {
    char *buf;
    size_t len, used;   /* used: what the whole record needs so far */
} rec_writer_t;
/* Append formatted text (cut at the buffer's end, always terminated;
 * used counts it all). */
void rec_put(rec_writer_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* The text of PGN-family game records (chess PGN, checkers PDN): a reader
 * that skips what carries no move (whitespace, {comments}, ;comments,
 * %escape lines, (variations), nested) and reads [Name "value"] tags, and
 * a writer that appends formatted text to a fixed buffer while counting
 * what the whole record needs. Messages name the format ("PGN: line 3:"). */
#ifndef GSW_RECORD_TEXT_H
#define GSW_RECORD_TEXT_H

#include <stddef.h>

#include "core/err.h"
#include "core/game.h"

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

/* A format's part in reading and writing a game's moves; the moves
 * themselves are the variant's (its ops list, parse, name and play them). */
#define REC_TOK_MAX 96
typedef struct rec_moves_fmt {
    size_t tok_max;       /* the longest token read, its ending 0 counted (at most REC_TOK_MAX) */
    int pgn_numbers;      /* digits alone, and dots before a move, are move numbers too */
    /* 1 if tok is a result: the end of the game's moves */
    int (*is_result)(const char *tok);
    /* 1 if t (a token, its number and glyphs cut off) carries no move
     * ("e.p." after a capture); optional */
    int (*no_move)(const char *t);
    /* the number of ply i of a game from start: "12." or "12..." */
    void (*move_name)(const void *start, int i, char *buf, size_t n);
} rec_moves_fmt_t;
/* After the tags (tags: how many were read), the moves of a game from
 * start up to a result, the next game's tags or the end, skipping move
 * numbers, NAGs and annotation glyphs: each parsed and played on a copy
 * of start, at most max into moves, their count into *n. GSW_EINPUT
 * naming the line and the move for an illegal or malformed one, a record
 * with more than max, or one with no tags, moves or result at all. */
int rec_read_moves(rec_reader_t *r, const rec_moves_fmt_t *f, const gv_t *v, const void *start, int tags,
                   move_t *moves, int max, int *n, err_t *err);
/* The end of a record's tags and its moves: [SetUp "1"] and [FEN "fen"]
 * when fen is not NULL (a start other than the standard one), a blank
 * line, then numbered moves[0..n-1] from start (a number before each move
 * of player 0 and before the first), in lines of at most 79 columns, up
 * to the first that is not legal, then result and a newline. */
void rec_write_moves(rec_writer_t *w, const rec_moves_fmt_t *f, const gv_t *v, const void *start, const char *fen,
                     const move_t *moves, int n, const char *result);

#endif

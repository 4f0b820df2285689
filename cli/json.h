/* A tiny JSON writer for --json output: one document per json_begin ..
 * json_end, commas and string escaping handled, nesting tracked to any
 * depth. The document is built in memory and written whole by json_end, so
 * a verb that fails half way (json_discard) leaves nothing on stdout; a
 * process writes at most one document to stdout (checked in debug builds). */
#ifndef GSW_JSON_H
#define GSW_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json {
    FILE *f;            /* where members go: the memory buffer (or out, if none could be made) */
    FILE *out;          /* where the document goes */
    char *buf;
    size_t len;
    int depth;
    unsigned char *first;   /* per depth: no member written yet */
    size_t cap;
} json_t;

void json_begin(json_t *j, FILE *f);          /* starts an object */
void json_end(json_t *j);                     /* closes it, writes it with a newline */
void json_discard(json_t *j);                 /* drops an unfinished document */
void json_key(json_t *j, const char *k);      /* next member's name */
void json_obj(json_t *j, const char *k);      /* "k": { ; k NULL inside an array */
void json_arr(json_t *j, const char *k);      /* "k": [ */
void json_close(json_t *j, char c);           /* } or ] */
void json_str(json_t *j, const char *k, const char *s);
void json_int(json_t *j, const char *k, int64_t v);
void json_num(json_t *j, const char *k, double v);   /* not finite: null */
void json_bool(json_t *j, const char *k, int v);
void json_null(json_t *j, const char *k);
/* an integer of any size, given as its decimal digits (the caller checks them) */
void json_digits(json_t *j, const char *k, const char *digits);

#endif

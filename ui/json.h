/* A tiny JSON writer for --json output: one document per call sequence,
 * commas and string escaping handled, nesting tracked. */
#ifndef GSW_JSON_H
#define GSW_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct json {
    FILE *f;
    int depth;
    int first[32];      /* no member written yet at this depth */
} json_t;

void json_begin(json_t *j, FILE *f);          /* starts an object */
void json_end(json_t *j);                     /* closes it and writes a newline */
void json_key(json_t *j, const char *k);      /* next member's name */
void json_obj(json_t *j, const char *k);      /* "k": { ; k NULL inside an array */
void json_arr(json_t *j, const char *k);      /* "k": [ */
void json_close(json_t *j, char c);           /* } or ] */
void json_str(json_t *j, const char *k, const char *s);
void json_int(json_t *j, const char *k, int64_t v);
void json_num(json_t *j, const char *k, double v);
void json_bool(json_t *j, const char *k, int v);
void json_null(json_t *j, const char *k);

#endif

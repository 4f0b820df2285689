/* Error reporting shared by every layer: functions return a status and fill an
 * err_t with a one-line message naming what was wrong; only main() prints.
 * Status codes match the CLI's exit codes (0 ok, 2 bad input, 1 other failure). */
#ifndef GSW_ERR_H
#define GSW_ERR_H

#include <stdarg.h>

enum { GSW_OK = 0, GSW_EFAIL = 1, GSW_EINPUT = 2 };

typedef struct err {
    int code;        /* GSW_OK, GSW_EFAIL or GSW_EINPUT */
    char msg[512];   /* one line, no trailing newline */
} err_t;

/* Set err (if not NULL) to code and a printf-style message; returns code. */
int err_set(err_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clear err to GSW_OK with an empty message. */
void err_clear(err_t *err);

#endif

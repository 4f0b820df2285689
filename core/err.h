/* Error reporting shared by every layer: functions return a status and fill an
 * err_t with a one-line message naming what was wrong; only main() prints.
 * Status codes match the CLI's exit codes (0 ok, 2 bad input, 1 other failure). */
#ifndef GSW_ERR_H
#define GSW_ERR_H

#include <signal.h>
#include <stdarg.h>

enum { GSW_OK = 0, GSW_EFAIL = 1, GSW_EINPUT = 2 };

/* A stop flag: set by a signal handler (Ctrl-C, SIGTERM) or by another
 * thread (a pool's first finisher, the workbench's UI), polled by long
 * work. Every stop flag in gsw has this type. */
typedef volatile sig_atomic_t gsw_flag_t;

typedef struct err {
    int code;        /* GSW_OK, GSW_EFAIL or GSW_EINPUT */
    char msg[512];   /* one line, no trailing newline */
} err_t;

/* Set err (if not NULL) to code and a printf-style message; returns code. */
int err_set(err_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clear err to GSW_OK with an empty message. */
void err_clear(err_t *err);

/* Format a printf-style message (cut at ERR_SAY_MAX - 1 bytes) and hand
 * it to fn(ctx, msg): progress lines and notices to a caller's callback.
 * Nothing when fn is NULL. */
#define ERR_SAY_MAX 1400
void err_say(void (*fn)(void *ctx, const char *msg), void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

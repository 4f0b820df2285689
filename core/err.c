/* err_t helpers: format one-line error messages for the caller to print. */
#include "core/err.h"

#include <stdio.h>

int err_set(err_t *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void err_clear(err_t *err)
{
    if (err) {
        err->code = GSW_OK;
        err->msg[0] = '\0';
    }
}

void err_say(void (*fn)(void *ctx, const char *msg), void *ctx, const char *fmt, ...)
{
    if (!fn) return;
    char msg[ERR_SAY_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fn(ctx, msg);
}

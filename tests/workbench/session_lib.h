/* The session tests' way to run one workbench command. */
#ifndef GSW_TEST_SESSION_LIB_H
#define GSW_TEST_SESSION_LIB_H

#include <stdlib.h>
#include <string.h>

#include "workbench/session.h"

/* Run a command; returns its status, the text in *text (static: valid
 * until the next call). */
static int run(session_t *s, const char *line, const char **text)
{
    static out_t out;
    static err_t err;
    out_clear(&out);
    int rc = session_exec(s, line, &out, &err);
    if (text) *text = rc ? err.msg : out.buf ? out.buf : "";
    return rc;
}

/* 1 if the completion candidates c hold want; frees them. */
static inline int has_candidate(char **c, const char *want)
{
    int found = 0;
    for (int i = 0; c && c[i]; i++) found |= !strcmp(c[i], want);
    for (int i = 0; c && c[i]; i++) free(c[i]);
    free(c);
    return found;
}

#endif

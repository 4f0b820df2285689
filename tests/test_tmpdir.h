/* The tests' scratch folder: made under $TMPDIR (else /tmp) by the group's
 * setup, removed with everything in it by its teardown; fresh paths in it. */
#ifndef GSW_TEST_TMPDIR_H
#define GSW_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[256];

/* mkdtemp of "$TMPDIR/PREFIX-XXXXXX" into dir: 0, or -1. */
static inline int test_tmpdir_make(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    return mkdtemp(dir) ? 0 : -1;
}

static inline int test_tmpdir_remove(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* A fresh path in the folder (no file there yet); eight stay valid at once. */
static inline const char *tmp_path(const char *name)
{
    static char buf[8][400];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    unlink(p);
    return p;
}

#endif

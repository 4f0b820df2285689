/* The separate checker's two checks: a proof certificate node by node
 * (docs/CERTIFICATE.md: legal moves, every move of an opponent's node,
 * children's positions, values combined, the leaves' evidence, every node
 * reached and referenced, cycles only where endless play is a draw), and
 * database files by retrograde consistency (deep.c). Each prints its one
 * line of verdict and returns the exit status: 0 everything holds, 1 a
 * check failed, 2 unreadable input. */
#ifndef GSW_CHECK_CHECK_H
#define GSW_CHECK_CHECK_H

#include <stdint.h>

#include "core/err.h"

/* Check the certificate at path; with deep, the database files its
 * leaves name by retrograde consistency too. */
int check_certificate(const char *path, int deep);

/* Check every database file (*.egdb) under path (a folder, or one file)
 * by retrograde consistency. */
int check_deep(const char *path);

/* Retrograde consistency of one database file (deep.c): GSW_OK, GSW_EFAIL
 * with the first position that fails, GSW_EINPUT when it cannot be read.
 * *positions receives the positions checked. */
int deep_file(const char *path, uint64_t *positions, err_t *err);

#endif

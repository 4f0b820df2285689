/* Database files checked by retrograde consistency (gsw-check --deep):
 * every position's stored value is what the game's rules make of its
 * moves' stored values (deep.c says what each metric's check is). */
#ifndef GSW_CHECK_DEEP_H
#define GSW_CHECK_DEEP_H

#include <stdint.h>

#include "core/err.h"

/* Check every database file (*.egdb) under path (a folder, or one file);
 * prints one line of verdict and returns the exit status (0 consistent,
 * 1 a position is not, 2 unreadable). */
int check_deep(const char *path);

/* One database file: GSW_OK, GSW_EFAIL naming the first position that
 * fails, GSW_EINPUT when it cannot be read. *positions grows by the
 * positions checked. */
int deep_file(const char *path, uint64_t *positions, err_t *err);

#endif

/* Where the cache file and its sibling folders live: the default cache path
 * ($GSW_DB, XDG_DATA_HOME, HOME), the folders beside a cache file (egdb/,
 * strong/) and mkdir -p. Paths only: nothing here opens the file; cache.h
 * includes this for its callers. */
#ifndef GSW_CACHE_PATH_H
#define GSW_CACHE_PATH_H

#include <stddef.h>

#include "core/err.h"

/* Where the cache lives when no --db is given: $GSW_DB, else
 * $XDG_DATA_HOME/gsw/cache.sqlite, else ~/.local/share/gsw/cache.sqlite.
 * Creates the directory. */
int cache_default_path(char *buf, size_t n, err_t *err);
/* The folder name beside the cache file db (NULL: the default cache's):
 * where endgame databases (egdb/) and strong solutions (strong/) live. */
int cache_sibling_dir(const char *db, const char *name, char *buf, size_t n, err_t *err);
/* mkdir -p of path (0755); what names it in the error ("cache directory"). */
int cache_mkdir_p(const char *path, const char *what, err_t *err);

#endif

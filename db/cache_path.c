/* Where the cache lives (see cache_path.h): the default path from the
 * environment, the folders beside a cache file, and mkdir -p. */
#include "db/cache_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cache_mkdir_p(const char *path, const char *what, err_t *err)
{
    char dir[1024];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return err_set(err, GSW_EFAIL, "%s %s: path too long", what, path);
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p) continue;
        char was = *p;
        *p = '\0';
        struct stat sb;
        int made = mkdir(dir, 0755) == 0, e = errno;
        if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
            return err_set(err, GSW_EFAIL, "cannot create %s %s: %s", what, dir,
                           !made && e != EEXIST ? strerror(e) : "not a directory");
        if (!(*p = was)) return GSW_OK;
    }
}

int cache_sibling_dir(const char *db, const char *name, char *buf, size_t n, err_t *err)
{
    char p[1024];
    if (db) snprintf(p, sizeof p, "%s", db);
    else if (cache_default_path(p, sizeof p, err)) return err->code;
    char *slash = strrchr(p, '/');
    if (!slash) snprintf(buf, n, "%s", name);
    else {
        *slash = 0;
        snprintf(buf, n, "%s/%s", p, name);
    }
    return GSW_OK;
}

int cache_default_path(char *buf, size_t n, err_t *err)
{
    const char *env = getenv("GSW_DB"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char dir[1024];
    if (env && *env) {
        if (snprintf(buf, n, "%s", env) >= (int)n)
            return err_set(err, GSW_EFAIL, "cache path from GSW_DB is too long");
        return GSW_OK;
    }
    /* the XDG spec says to ignore a relative XDG_DATA_HOME */
    if (xdg && *xdg == '/') snprintf(dir, sizeof dir, "%s/gsw", xdg);
    else if (home && *home) snprintf(dir, sizeof dir, "%s/.local/share/gsw", home);
    else return err_set(err, GSW_EFAIL, "no place for the cache: set GSW_DB, XDG_DATA_HOME or HOME");
    if (cache_mkdir_p(dir, "cache directory", err)) return GSW_EFAIL;
    if (snprintf(buf, n, "%s/cache.sqlite", dir) >= (int)n)
        return err_set(err, GSW_EFAIL, "cache path %s/cache.sqlite is too long", dir);
    return GSW_OK;
}

/* gsw cache: the SQLite cache's statistics, integrity check, and its stored
 * values proved again (verify). */
#ifndef GSW_CACHE_CMD_H
#define GSW_CACHE_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_cache;

#endif

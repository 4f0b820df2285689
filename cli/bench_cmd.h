/* gsw bench: every engine's node count and speed on a fixed, short set of
 * positions (deterministic with one thread), and a puzzle's heuristic
 * players side by side (--players). */
#ifndef GSW_BENCH_CMD_H
#define GSW_BENCH_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_bench;

#endif

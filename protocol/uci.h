/* gsw uci: gsw as a UCI chess engine on stdin and stdout. */
#ifndef GSW_UCI_H
#define GSW_UCI_H

#include "cli/opts.h"

extern const cli_verb_t verb_uci;

#endif

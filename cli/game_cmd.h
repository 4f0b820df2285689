/* The verbs that ask the games themselves: games (the list) and perft. */
#ifndef GSW_GAME_CMD_H
#define GSW_GAME_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_games, verb_perft;

#endif

/* Tic-tac-toe, the smallest game gsw knows: the template of a game added
 * from scratch (tests/games/test_add_game.sh copies this folder to
 * games/tictactoe/ and registers tictactoe_game in games/registry.c). */
#ifndef GSW_TTT_H
#define GSW_TTT_H

#include "core/game.h"

extern const game_t tictactoe_game;

#endif

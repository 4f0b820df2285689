/* The standard 7x6 board with its dimensions compiled in: the same engine
 * as c4_64.c, with every shift and mask a constant. */
#include <stdint.h>
#include <stdlib.h>
#define BB uint64_t
#define C4_WORDS 1
#define C4_FIXED_W 7
#define C4_FIXED_H 6
#define C4_FIXED_ORDER { 3, 2, 4, 1, 5, 0, 6 }
#define C4(x) c4_##x##_7x6
#define C4_OPS c4_ops_7x6
#include "games/connect4/c4_engine.h"

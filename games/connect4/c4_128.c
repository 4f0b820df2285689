/* The two-word Connect Four engine: boards with width * (height + 1) <= 128
 * (8x8, 9x7, ...). */
#include <stdint.h>
#include <stdlib.h>
#define BB unsigned __int128
#define C4_WORDS 2
#define C4(x) c4_##x##_128
#define C4_OPS c4_ops_128
#include "games/connect4/c4_engine.h"

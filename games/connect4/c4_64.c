/* The one-word Connect Four engine: boards with width * (height + 1) <= 64. */
#include <stdint.h>
#include <stdlib.h>
#define BB uint64_t
#define C4_WORDS 1
#define C4(x) c4_##x##_64
#define C4_OPS c4_ops_64
#include "games/connect4/c4_engine.h"

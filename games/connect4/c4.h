/* Connect Four on any width x height board: variant data shared by the
 * one-word engine (w*(h+1) <= 64) and the two-word engine (<= 128). Columns
 * are 0-based internally (move_t = column) and 1-based in notation. Bit
 * layout as is usual for bitboards: column c holds bits c*(h+1) .. c*(h+1)+h-1,
 * with one spare bit on top of each column. */
#ifndef GSW_C4_H
#define GSW_C4_H

#include <stdint.h>

#include "core/game.h"

typedef unsigned __int128 u128;

typedef struct c4v {
    int w, h, h1;            /* width, height, h + 1 */
    int cells;               /* w * h */
    int order[64];           /* columns, centre first */
    u128 bottom, board;      /* bottom row; all playable cells */
} c4v_t;

extern const game_ops_t c4_ops_64, c4_ops_128, c4_ops_7x6;
extern const game_t connect4_game;

#endif

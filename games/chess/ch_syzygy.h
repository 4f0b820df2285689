/* Syzygy tablebases (the tables chess players own, up to 7 pieces) read
 * through Fathom (Debian's libfathom): a chess position of few pieces
 * probed for its win/draw/loss and its distance to zeroing (DTZ: the plies
 * to the next capture or pawn move that keeps the result), with the
 * 50-move rule as Syzygy defines it (a "cursed" win is drawn by the rule,
 * a "blessed" loss saved by it). Fathom keeps one set of tables per
 * process: the folders are set before probing (ch_syzygy_open, never
 * while a search probes), then any thread may probe; the probes that need
 * DTZ are serialised (Fathom's root probe is not thread-safe). Positions
 * with castling rights, or more pieces than the tables hold, are never
 * known. */
#ifndef GSW_CH_SYZYGY_H
#define GSW_CH_SYZYGY_H

#include "core/err.h"
#include "games/chess/ch.h"

/* Results, for the side to move. */
enum {
    CH_SZ_LOSS = -2,          /* lost, and lost under the 50-move rule */
    CH_SZ_BLESSED = -1,       /* lost without the rule, drawn by it */
    CH_SZ_DRAW = 0,
    CH_SZ_CURSED = 1,         /* won without the rule, drawn by it */
    CH_SZ_WIN = 2
};

/* The tables in paths (folders separated by ':'); NULL or "" closes them.
 * Fails (err) when paths name a folder that does not exist, or folders
 * holding no table. The checked tables are remembered beside the cache
 * file db (NULL: the default cache, or $GSW_DB's). */
int ch_syzygy_open(const char *paths, const char *db, err_t *err);
/* The folders open ("" none) and the pieces of the largest table found
 * (0: none). */
const char *ch_syzygy_paths(void);
int ch_syzygy_largest(void);
/* Probe only positions of at most n pieces (UCI's SyzygyProbeLimit; 0 or
 * beyond the tables: every one they hold). */
void ch_syzygy_limit(int n);
/* 1 if the tables may know p (its piece count, no castling right). */
int ch_syzygy_covers(const ch_pos_t *p);
/* p's result as if its 50-move clock stood at 0 (just after a capture or
 * a pawn's move): 1 with *wdl (CH_SZ_*), 0 when the tables do not know it.
 * Thread-safe. */
int ch_syzygy_wdl(const ch_pos_t *p, int *wdl);
/* p at a root, with its 50-move clock at rule50 plies: its result under
 * the rule, its DTZ (plies, 0 for a draw; as Syzygy stores it, which may
 * be one more than the exact count where the table rounds) and the move
 * that keeps the best result under the rule, fastest to zero for the
 * winner, slowest for the loser (MOVE_NONE when p is mate or stalemate).
 * 1 when known, 0 not. Serialised. */
typedef struct ch_syzygy_root {
    int wdl;
    int dtz;
    move_t best;
} ch_syzygy_root_t;
int ch_syzygy_root(const ch_pos_t *p, int rule50, ch_syzygy_root_t *r);

#endif

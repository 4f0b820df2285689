/* Peg solitaire: a variant is a board (at most 64 holes on the square or
 * triangular lattice), its symmetries, a start and a goal. A position is
 * one 64-bit word, bit i set when hole i holds a peg; holes are numbered
 * row by row from the top left. A move is one jump, from | over << 8 |
 * to << 16 (hole indices). Shared by the plugin files in this folder. */
#ifndef GSW_SOL_H
#define GSW_SOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/puzzle.h"

#define SOL_MAX_HOLES 64
#define SOL_MAX_SYM 12
#define SOL_MAX_JUMPS (SOL_MAX_HOLES * 6)

enum { SOL_GOAL_HOLE = 0, SOL_GOAL_ANY, SOL_GOAL_LEFT };

typedef struct solv {
    int n;                        /* holes */
    int tri;                      /* 1: triangular lattice (six jump directions) */
    int rows, cols;               /* the view's grid (the board art's bounding box) */
    int vr[SOL_MAX_HOLES], vc[SOL_MAX_HOLES];   /* each hole's view cell */
    int la[SOL_MAX_HOLES], lb[SOL_MAX_HOLES];   /* lattice coordinates */
    char name[SOL_MAX_HOLES][16];  /* "d4"; "1".."15" on triangular boards */
    int nj;                       /* directed jumps */
    uint8_t jf[SOL_MAX_JUMPS], jo[SOL_MAX_JUMPS], jt[SOL_MAX_JUMPS];
    int nsym_all;                 /* symmetries of the board */
    int nsym;                     /* those preserving the goal (listed first) */
    int nsym_start;               /* those preserving start and goal (listed first) */
    uint8_t perm[SOL_MAX_SYM][SOL_MAX_HOLES];   /* hole i -> perm[s][i] */
    uint8_t inv[SOL_MAX_SYM][SOL_MAX_HOLES];
    uint64_t symtab[SOL_MAX_SYM][8][256];       /* byte-wise image of a position */
    uint64_t all;                 /* every hole */
    uint64_t start;
    int goal;                     /* SOL_GOAL_* */
    int goal_hole;                /* SOL_GOAL_HOLE */
    int goal_left;                /* SOL_GOAL_LEFT: at most this many pegs */
    int start_pegs;
    uint64_t hclass[4];           /* holes by lattice parity: pegs never leave their class */
    int ncol3;                    /* mod-3 colourings (2 square, 1 triangular) */
    uint64_t col3[2][3];          /* holes of each colour */
    int dcen[SOL_MAX_HOLES];      /* doubled lattice distance to the board's centroid */
    int64_t pag[SOL_MAX_HOLES];   /* pagoda weights toward the goal hole (SOL_GOAL_HOLE), 2^40 scale */
    int pagoda;                   /* 1 when the weights passed the check at every jump */
    int ng;                       /* jumps grouped by hole-index offsets, for sol_gen_fast */
    int gdo[SOL_MAX_JUMPS], gdt[SOL_MAX_JUMPS];
    uint64_t gmask[SOL_MAX_JUMPS];
    int goal_class;               /* position class of the goal (-1: goal any / left) */
    uint16_t single_class_ok;     /* SOL_GOAL_ANY: classes of single-peg finishes (bit set) */
    game_ops_t ops;               /* this variant's ops (a copy of one template) */
    struct sol_endgame *endgame;  /* built when a search first runs long (sol_endgame.c) */
    atomic_int endgame_ready;
    pthread_mutex_t endgame_lock;
} solv_t;

static inline const solv_t *sol_data(const gv_t *v) { return (const solv_t *)v->data; }
static inline uint64_t sol_pos(const void *pos) { return *(const uint64_t *)pos; }

/* The image of position p under symmetry s. */
static inline uint64_t sol_map(const solv_t *d, int s, uint64_t p)
{
    uint64_t r = 0;
    for (int b = 0; p; b++, p >>= 8) r |= d->symtab[s][b][p & 0xff];
    return r;
}
/* The least image of p over the first k symmetries; *sym the one giving it. */
static inline uint64_t sol_canon(const solv_t *d, int k, uint64_t p, int *sym)
{
    uint64_t best = p;
    int bs = 0;
    for (int s = 1; s < k; s++) {
        uint64_t q = sol_map(d, s, p);
        if (q < best) { best = q; bs = s; }
    }
    if (sym) *sym = bs;
    return best;
}
static inline move_t sol_move(int f, int o, int t) { return (move_t)f | (move_t)o << 8 | (move_t)t << 16; }
static inline int sol_mf(move_t m) { return (int)(m & 0xff); }
static inline int sol_mo(move_t m) { return (int)(m >> 8 & 0xff); }
static inline int sol_mt(move_t m) { return (int)(m >> 16 & 0xff); }

/* Legal jumps of p into out; returns the count. */
static inline int sol_gen(const solv_t *d, uint64_t p, move_t *out)
{
    int n = 0;
    for (int j = 0; j < d->nj; j++)
        if ((p >> d->jf[j] & 1) && (p >> d->jo[j] & 1) && !(p >> d->jt[j] & 1))
            out[n++] = sol_move(d->jf[j], d->jo[j], d->jt[j]);
    return n;
}
/* The same jumps in another order (by offset groups, with shifts): faster. */
static inline int sol_gen_fast(const solv_t *d, uint64_t p, move_t *out)
{
    int n = 0;
    for (int g = 0; g < d->ng; g++) {
        int a = d->gdo[g], b = d->gdt[g];
        uint64_t over = a > 0 ? p >> a : p << -a, to = b > 0 ? p >> b : p << -b;
        for (uint64_t bits = p & over & ~to & d->gmask[g]; bits; bits &= bits - 1) {
            int f = __builtin_ctzll(bits);
            out[n++] = sol_move(f, f + a, f + b);
        }
    }
    return n;
}
static inline uint64_t sol_apply(uint64_t p, move_t m)
{
    return p ^ (1ull << sol_mf(m) | 1ull << sol_mo(m) | 1ull << sol_mt(m));
}

/* Board building (sol_board.c). */
int sol_board_open(const char *spec, solv_t **out, err_t *err);
/* Parse one hole name; -1 if none. */
int sol_hole_parse(const solv_t *d, const char *s, size_t len);
/* Static pruning: 1 when p cannot reach the goal, with a one-line reason. */
int sol_prune(const solv_t *d, uint64_t p, char *reason, size_t n);
/* Position class of p: 4 bits per colouring, the parities of colour counts. */
int sol_class(const solv_t *d, uint64_t p);
int sol_goal_met(const solv_t *d, uint64_t p);
/* The endgame table: build it (once; thread-safe), prune by it (0 until built), free it. */
void sol_endgame_prepare(const solv_t *d);
int sol_endgame_prune(const solv_t *d, uint64_t p, char *reason, size_t n);
void sol_endgame_free(solv_t *d);

/* The puzzle hooks solitaire.c hands the core's search: the level sweep of
 * `gsw count` and `--min-moves` (sol_sweep.c), the 1960s program's heuristic
 * players by name and the solver's move orders 0..3 (sol_heur.c). */
int sol_sweep(const gv_t *v, const void *pos, puzzle_sweep_t *sw, err_t *err);
extern const char *const sol_player_names[];
int sol_play_heuristic(const gv_t *v, const void *pos, const char *player, move_t *out, int max, int *n,
                       err_t *err);
void sol_order(const gv_t *v, const void *pos, move_t *mv, int n, int order);

extern const game_t solitaire_game;
extern const game_ops_t sol_ops_template;

#endif

/* The 1960s peg solitaire program's players, reproduced as heuristic players
 * (`--player heuristic:NAME`), and the solver's move ordering. Evaluation:
 * a table of hole undesirability (0 at the centre, growing with distance;
 * the original's numbers are not known to us, so the table is computed from
 * distances) minus 2000 per peg. Players:
 *   table        one move ahead with the table
 *   lookahead    stepwise lookahead: the first n1 moves look 3 ahead, the
 *                next n2 look 4 ahead, the rest search to the end
 *   alternatives maximise the number of moves available after the move
 *   double       stepwise lookahead, one table for the opening and a steeper
 *                one for the later stage
 *   classes      stepwise lookahead with an evaluation by piece classes (the
 *                four hole classes pegs never leave): a class whose pegs can
 *                no longer be jumped, or the goal's class emptied, is fatal;
 *                unbalanced classes are penalised. */
#include <stdlib.h>
#include <string.h>

#include "core/puzzle.h"
#include "games/solitaire/sol.h"

const char *const sol_player_names[] = { "table", "lookahead", "alternatives", "double", "classes", NULL };
enum { P_TABLE, P_LOOKAHEAD, P_ALTERNATIVES, P_DOUBLE, P_CLASSES };

typedef struct heur {
    const solv_t *d;
    int kind;
    int late;                     /* 1 once the later stage has begun (double) */
    int32_t tab[2][SOL_MAX_HOLES];
    uint64_t *memo;               /* to-the-end search: key, value pairs */
    uint64_t memo_mask;
} heur_t;

static void heur_tables(heur_t *h)
{
    const solv_t *d = h->d;
    for (int i = 0; i < d->n; i++) {
        int r = d->dcen[i];
        if (d->goal == SOL_GOAL_HOLE && i == d->goal_hole) r = 0;
        h->tab[0][i] = 10 * r * r;
        h->tab[1][i] = r <= 1 ? 0 : 20 << (r < 12 ? r : 12);
    }
}

/* Evaluation by piece classes: which classes can still be emptied. */
static int32_t heur_classes(const solv_t *d, uint64_t p)
{
    int n[4];
    for (int c = 0; c < 4; c++) n[c] = __builtin_popcountll(p & d->hclass[c]);
    int32_t e = 0;
    int g = -1;
    if (d->goal == SOL_GOAL_HOLE)
        for (int c = 0; c < 4; c++)
            if (d->hclass[c] >> d->goal_hole & 1) g = c;
    if (g >= 0 && n[g] == 0) return -1000000;
    for (int c = 0; c < 4; c++) {
        if (!n[c] || c == g) continue;
        /* pegs of class c are removed by pegs of the classes differing in one coordinate's parity */
        int removers = n[c ^ 1] + n[c ^ 2] + (d->tri ? n[c ^ 3] : 0);
        if (!removers) e -= 500000;
        else if (n[c] > removers) e -= 400 * (n[c] - removers);
        e -= 100 * n[c];
    }
    return e;
}

static int32_t heur_eval(const heur_t *h, uint64_t p)
{
    const solv_t *d = h->d;
    int32_t e = -2000 * __builtin_popcountll(p);
    const int32_t *t = h->tab[h->kind == P_DOUBLE && h->late];
    for (uint64_t q = p; q; q &= q - 1) e -= t[__builtin_ctzll(q)];
    if (h->kind == P_CLASSES) {
        e += heur_classes(d, p);
        if (sol_prune(d, p, NULL, 0)) e -= 4000000;   /* the classes (or the pagoda) rule the goal out */
    }
    if (sol_goal_met(d, p)) e += 1000000;
    return e;
}

/* The best evaluation reachable within depth jumps (depth < 0: to the end). */
static int32_t heur_search(heur_t *h, uint64_t p, int depth)
{
    const solv_t *d = h->d;
    move_t mv[GSW_MAX_MOVES];
    int n = depth ? sol_gen(d, p, mv) : 0;
    if (!n || sol_goal_met(d, p)) return heur_eval(h, p);
    uint64_t *slot = NULL;
    if (depth < 0 && h->memo) {
        slot = h->memo + 2 * ((p * 0x9E3779B97F4A7C15ull >> 20) & h->memo_mask);
        if (slot[0] == p) return (int32_t)(int64_t)slot[1];
    }
    int32_t best = INT32_MIN;
    for (int i = 0; i < n; i++) {
        int32_t e = heur_search(h, sol_apply(p, mv[i]), depth < 0 ? -1 : depth - 1);
        if (e > best) best = e;
    }
    if (slot) { slot[0] = p; slot[1] = (uint64_t)(int64_t)best; }
    return best;
}

int sol_play_heuristic(const gv_t *v, const void *pos, const char *player, move_t *out, int max, int *nout,
                       err_t *err)
{
    const solv_t *d = sol_data(v);
    heur_t h = { .d = d, .kind = -1 };
    for (int i = 0; sol_player_names[i]; i++)
        if (!strcmp(player, sol_player_names[i])) h.kind = i;
    if (h.kind < 0)
        return err_set(err, GSW_EINPUT, "unknown player \"heuristic:%s\" (table, lookahead, alternatives, double, "
                       "classes)", player);
    heur_tables(&h);
    h.memo_mask = (1u << 20) - 1;
    h.memo = calloc(2 * (h.memo_mask + 1), sizeof *h.memo);
    if (!h.memo) return err_set(err, GSW_EFAIL, "out of memory");
    uint64_t p = sol_pos(pos);
    int pegs0 = __builtin_popcountll(p), n1 = pegs0 / 3, n2 = pegs0 / 3;
    int k = 0;
    move_t mv[GSW_MAX_MOVES];
    for (;;) {
        int n = sol_gen(d, p, mv);
        if (!n || sol_goal_met(d, p) || k >= max) break;
        int depth = 1;
        if (h.kind == P_LOOKAHEAD || h.kind == P_DOUBLE)
            depth = k < n1 ? 3 : k < n1 + n2 ? 4 : -1;
        else if (h.kind == P_CLASSES)   /* the classes keep the goal in reach longer: the end is searched sooner */
            depth = k < pegs0 / 4 ? 3 : pegs0 - k > 16 ? 4 : -1;
        h.late = k >= pegs0 / 2;
        int best = 0;
        int32_t bestv = INT32_MIN;
        for (int i = 0; i < n; i++) {
            uint64_t q = sol_apply(p, mv[i]);
            int32_t e;
            if (h.kind == P_ALTERNATIVES) {
                move_t tmp[GSW_MAX_MOVES];
                e = sol_gen(d, q, tmp) * 4096 + heur_eval(&h, q) / 1024;
            } else {
                e = heur_search(&h, q, depth < 0 ? -1 : depth - 1);
            }
            if (e > bestv) { bestv = e; best = i; }
        }
        out[k++] = mv[best];
        p = sol_apply(p, mv[best]);
    }
    free(h.memo);
    *nout = k;
    return GSW_OK;
}

/* The solver's orders: 0 the board's own (holes row by row, directions
 * right, down, left, up), 1 toward the centre first, 2 pegs farthest from
 * the centre first, 3 the board's own reversed. */
void sol_order(const gv_t *v, const void *pos, move_t *mv, int n, int order)
{
    (void)pos;
    const solv_t *d = sol_data(v);
    if (order == 0) return;
    if (order == 3) {
        for (int i = 0; i < n / 2; i++) { move_t t = mv[i]; mv[i] = mv[n - 1 - i]; mv[n - 1 - i] = t; }
        return;
    }
    int key[GSW_MAX_MOVES];
    for (int i = 0; i < n; i++)
        key[i] = order == 1 ? d->dcen[sol_mt(mv[i])] - d->dcen[sol_mf(mv[i])] - d->dcen[sol_mo(mv[i])]
                            : -d->dcen[sol_mf(mv[i])];
    for (int i = 1; i < n; i++) {   /* insertion sort, stable */
        move_t m = mv[i];
        int k = key[i], j = i;
        for (; j > 0 && key[j - 1] > k; j--) { mv[j] = mv[j - 1]; key[j] = key[j - 1]; }
        mv[j] = m;
        key[j] = k;
    }
}

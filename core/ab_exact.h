/* The exact alpha-beta search, written once and instantiated per game: a
 * file defines AB_FN (the function name) and AB_OPS (an expression for the
 * game_ops_t, a static const object for a specialised copy) and includes this
 * file. With the ops a compile-time constant the compiler turns the hooks into
 * direct, inlined calls; core/ab.c instantiates the generic copy.
 *
 * Fail-soft negamax over node-relative values (value.h): the game's
 * ab_expand hook supplies the moves worth trying and bounds on the value,
 * the table tightens them, and the window is clipped to them. Games whose
 * positions repeat carry the line (see AB_FN at the end): a repetition
 * takes the game's value, and the table only ever holds results true of
 * the position whatever the line. */
#include <string.h>

#include "core/ab.h"
#include "core/tt.h"

#ifndef AB_FN
#error "define AB_FN and AB_OPS before including core/ab_exact.h"
#endif
/* A specialised copy may bound its game's move count and position size: the
 * frame of every recursion level then stays within a few cache lines (with
 * the generic bounds it spans kilobytes, and a deep search's stack falls out
 * of the first-level cache). */
#ifndef AB_MAX_MOVES
#define AB_MAX_MOVES GSW_MAX_MOVES
#endif
#ifndef AB_MAX_POS
#define AB_MAX_POS GSW_MAX_POS
#endif

#include <limits.h>

/* The static look at children (below) keeps each child's expansion: at
 * most AB_STATIC_N children of AB_STATIC_N moves, so that a frame stays
 * small; nodes with more moves go without it. The generic copy (ab.c,
 * frames sized for any game) defines AB_NO_STATIC: the games that give
 * ab_expand have copies of their own. */
#if defined(AB_NO_STATIC)
#define AB_STATIC_N 0
#define AB_STATIC_DIM 1
#elif AB_MAX_MOVES < 16
#define AB_STATIC_N AB_MAX_MOVES
#define AB_STATIC_DIM AB_MAX_MOVES
#else
#define AB_STATIC_N 16
#define AB_STATIC_DIM 16
#endif

static inline int ab_log2u64(uint64_t x) { return x ? 63 - __builtin_clzll(x) : 0; }

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)
#define AB_BODY AB_CAT(AB_FN, _node)

/* pos's table key; under the move-count rule (s->count) the plies its
 * clock leaves are part of it (its value depends on them). */
static inline uint64_t AB_CAT(AB_FN, _key)(const ab_t *s, const void *pos, int *sym)
{
    const game_ops_t *O = (AB_OPS);
    uint64_t k = O->tt_key ? O->tt_key(s->v, pos, sym) : O->pos_hash(s->v, pos);
    if (O->pos_reversible && s->count) k ^= game_count_key(game_count_left(s->v, pos));
    return k;
}

/* Is pos (a child of the node at s->ply) on the line: the game's history
 * or the search's path? Then it is a repetition, which only AB_FN values:
 * its table entry and its static bounds, true of the position alone, do
 * not say what it is worth here. */
static inline int AB_CAT(AB_FN, _on_line)(const ab_t *s, const void *pos)
{
    const game_ops_t *O = (AB_OPS);
    const ab_line_t *L = s->line;
    if (!O->repetition || !L) return 0;
    const uint64_t h = O->pos_hash(s->v, pos);
    if (!L->filter[ab_line_slot(h)]) return 0;
    for (int i = L->base + s->ply; i >= 0; i--)
        if (L->h[i] == h) return 1;
    return 0;
}

/* A position the move-count rule has drawn (its clock ran out, and the
 * rules do not end it otherwise: the caller looked). */
static inline int AB_CAT(AB_FN, _counted_out)(const ab_t *s, const void *pos)
{
    const game_ops_t *O = (AB_OPS);
    return O->pos_reversible && s->count && game_count_left(s->v, pos) == 0;
}

/* The game's expansion of pos (its moves into mv, bounds [*lo, *hi]),
 * with the bounds tightened by following forced moves (a single move
 * left), up to `chain` of them; -1 for a finished game. */
static inline int AB_CAT(AB_FN, _static)(ab_t *s, const void *pos, move_t *mv, val_t *lo, val_t *hi, int chain)
{
    const game_ops_t *O = (AB_OPS);
    const gv_t *v = s->v;
    val_t tv;
    if (O->terminal(v, pos, &tv)) { *lo = *hi = tv; return -1; }
    if (AB_CAT(AB_FN, _counted_out)(s, pos)) { *lo = *hi = VAL_DRAW; return -1; }
    *lo = -VAL_WIN + 1;
    *hi = VAL_WIN - 1;
    int n = O->ab_expand(v, pos, mv, lo, hi);
    if (*lo >= *hi || n != 1 || chain <= 0) return n;
    GSW_POSBUF next[AB_MAX_POS];
    memcpy(next, pos, O->pos_size);
    (O->ab_play ? O->ab_play : O->play)(v, next, mv[0]);
    move_t nmv[AB_MAX_MOVES];
    val_t nlo, nhi;
    AB_CAT(AB_FN, _static)(s, next, nmv, &nlo, &nhi, chain - 1);
    if (val_up(nlo) < *hi) *hi = val_up(nlo);
    if (val_up(nhi) > *lo) *lo = val_up(nhi);
    if (*lo > *hi) *lo = *hi;
    return n;
}

/* May the databases answer pos outright? Their values are of the
 * position alone: on a line with a history (the game's positions before
 * the root) only once a move that cannot be undone has been played below
 * the root (pos_reversible), after which no position of the history can
 * come round again. Before that their value is a bound: repetitions of
 * the history only add draws, so a win stays a win at most as fast or
 * becomes a draw, a loss likewise, and a draw stays a draw. */
static inline int AB_CAT(AB_FN, _oracle_ok)(const ab_t *s, const void *pos)
{
    const game_ops_t *O = (AB_OPS);
    if (!O->repetition || !s->line || s->line->base == 0) return 1;
    int r = O->pos_reversible ? O->pos_reversible(s->v, pos, NULL) : -1;
    return r >= 0 && r < s->ply;
}

/* The search of one node; AB_FN below wraps it with the line's
 * bookkeeping for games whose positions repeat. */
static inline __attribute__((always_inline)) val_t AB_BODY(ab_t *s, const void *pos, val_t alpha, val_t beta)
{
    const game_ops_t *O = (AB_OPS);
    const gv_t *v = s->v;
    /* the parent may hand down this position's table key */
    const int passed = s->pass_valid;
    const uint64_t pkey = s->pass_key;
    const int psym = s->pass_sym;
    const move_t *pmv = s->pass_mv;
    s->pass_valid = 0;
    s->pass_mv = NULL;
    s->nodes++;
    if ((s->nodes & 0xfff) == 0 && !s->aborted) {
        /* a pool's budget is its threads' nodes together */
        uint64_t spent = s->pool_nodes ? __atomic_add_fetch(s->pool_nodes, 0x1000, __ATOMIC_RELAXED) : s->nodes;
        if ((s->stop && *s->stop) || (s->halt && *s->halt) || (s->node_limit && spent >= s->node_limit)
            || (s->deadline_ms > 0 && gsw_now_ms() >= s->deadline_ms))
            s->aborted = 1;
    }
    if (s->aborted) return alpha;   /* unwinding: the caller discards it */

    /* the table key first: its bucket loads while the game's hooks run */
    int sym = s->fold;
    uint64_t key;
    if (passed) { key = pkey; sym = psym; }
    else {
        key = AB_CAT(AB_FN, _key)(s, pos, &sym);
        tt_prefetch(s->tt, key);
    }

    val_t tv;
    if (O->terminal(v, pos, &tv)) return tv;
    if (AB_CAT(AB_FN, _counted_out)(s, pos)) return VAL_DRAW;   /* the move-count rule's draw */
    /* a database position below the root: its value, or bounds on it */
    val_t olo = -VAL_WIN + 1, ohi = VAL_WIN - 1;
    if (s->oracle && s->ply > 0 && s->oracle->probe(s->oracle->ctx, v, pos, &olo, &ohi)) {
        if (!AB_CAT(AB_FN, _oracle_ok)(s, pos)) {   /* the line may change it, toward a draw only */
            if (olo > VAL_DRAW) olo = VAL_DRAW;
            if (ohi < VAL_DRAW) ohi = VAL_DRAW;
        }
        if (olo >= ohi || olo >= beta) return olo;
        if (ohi <= alpha) return ohi;
    }

    move_t mv[AB_MAX_MOVES];
    val_t lo = olo, hi = ohi;
    int n;
    if (O->ab_expand) {
        if (pmv) {   /* the parent expanded this node already */
            n = s->pass_n;
            lo = s->pass_lo;
            hi = s->pass_hi;
            memcpy(mv, pmv, (size_t)n * sizeof mv[0]);
        } else {
            n = O->ab_expand(v, pos, mv, &lo, &hi);
        }
        if (olo > lo) lo = olo;
        if (ohi < hi) hi = ohi;
        if (lo >= hi) return lo;
        if (n == 1) {
            /* a forced move: its value is this node's (clipped to the
             * bounds), so skip the table and its likely miss */
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            val_t a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi;
            GSW_POSBUF fchild[AB_MAX_POS];
            memcpy(fchild, pos, O->pos_size);
            (O->ab_play ? O->ab_play : O->play)(v, fchild, mv[0]);
            s->ply++;
            val_t c = val_up(AB_FN(s, fchild, val_down(b), val_down(a)));
            s->ply--;
            if (s->aborted) return alpha;
            return c < lo ? lo : c > hi ? hi : c;
        }
    } else {
        n = O->moves(v, pos, mv);
    }

    GSW_POSBUF child[AB_MAX_POS];
    const size_t psz = O->pos_size;
    void (*play)(const gv_t *, void *, move_t) = O->ab_play && O->ab_expand ? O->ab_play : O->play;
    /* Every child's bucket is requested now, together, so that they arrive
     * while this node probes its own entry and orders its moves: the children
     * (and, where the subtree is big, the ETC probes below) then find them in
     * the cache instead of each waiting for memory in turn. */
    const int near_root = s->ply < s->etc_plies
        || (O->draw_plies && s->nodes >= s->etc_nodes && O->draw_plies(v, pos) >= s->etc_left);
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, psz);
        play(v, child, mv[i]);
        int cs = s->fold;
        tt_prefetch(s->tt, AB_CAT(AB_FN, _key)(s, child, &cs));
    }

    tt_hit_t h;
    h.work = 0;
    move_t ttmove = MOVE_NONE;
    if (tt_probe(s->tt, key, &h)) {
        if (h.lo > lo) lo = h.lo;
        if (h.hi < hi) hi = h.hi;
        if (lo >= hi) return lo;
        if (h.move != MOVE_NONE)
            ttmove = sym && O->move_sym ? O->move_sym(v, h.move, sym, 1) : h.move;
    }
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    val_t a0 = alpha > lo ? alpha : lo;
    val_t b0 = beta < hi ? beta : hi;
    alpha = a0;
    beta = b0;

    /* the game's order, then the table move first */
    if (O->ab_order) O->ab_order(v, pos, mv, n);
    if (ttmove != MOVE_NONE) {
        for (int i = 1; i < n; i++)
            if (mv[i] == ttmove) {
                memmove(mv + 1, mv, (size_t)i * sizeof mv[0]);
                mv[0] = ttmove;
                break;
            }
    }

    /* Near the root, every child's entry (fetched above) is probed: a child
     * already known to refute gives an enhanced transposition cut-off
     * without a search, and each child gets its key handed down. The keys
     * are made again here, in the final move order (cheaper than carrying
     * them through the sort). */
    uint64_t ckey[AB_MAX_MOVES];
    int8_t csym[AB_MAX_MOVES];
    val_t ctop[AB_MAX_MOVES];   /* the most each move can give, by its entry */
    uint8_t crep[AB_MAX_MOVES];   /* the child repeats a position of the line (AB_FN values it) */
    if (near_root) {
        for (int i = 0; i < n; i++) {
            memcpy(child, pos, psz);
            play(v, child, mv[i]);
            int cs = s->fold;
            ckey[i] = AB_CAT(AB_FN, _key)(s, child, &cs);
            csym[i] = (int8_t)cs;
            crep[i] = (uint8_t)AB_CAT(AB_FN, _on_line)(s, child);
        }
        for (int i = 0; i < n; i++) {
            tt_hit_t ch;
            ctop[i] = VAL_INF;
            if (!crep[i] && tt_probe(s->tt, ckey[i], &ch) && ch.hi < VAL_INF) {
                if (ch.lo > -VAL_INF) ctop[i] = val_up(ch.lo);
                val_t pv = val_up(ch.hi);   /* the parent gets at least this */
                if (pv >= beta) {
                    move_t m = mv[i];
                    if (sym && O->move_sym) m = O->move_sym(v, m, sym, 0);
                    tt_store(s->tt, key, pv > lo ? pv : lo, hi, m, h.work);
                    return pv;
                }
            }
        }
    }

    /* In a big search, every child's static bounds first (the game's
     * expansion, forced moves followed): a child they show refutes spares
     * the search of the others, one that cannot raise alpha is not
     * searched, and the searched children get their expansion handed
     * down (so it is made once). */
    move_t cmv[AB_STATIC_DIM][AB_STATIC_DIM];
    int cn[AB_STATIC_DIM];
    val_t clo[AB_STATIC_DIM], chi[AB_STATIC_DIM];
#if AB_STATIC_N > 0
    const int stat = O->ab_expand && n <= AB_STATIC_N && s->nodes >= s->static_nodes;
#else
    const int stat = 0;
#endif
    if (stat) {
        for (int i = 0; i < n; i++) {
            memcpy(child, pos, psz);
            play(v, child, mv[i]);
            move_t tmv[AB_MAX_MOVES];
            if (AB_CAT(AB_FN, _on_line)(s, child)) {   /* a repetition: its static bounds do not hold here */
                cn[i] = -1;
                clo[i] = -VAL_INF;
                chi[i] = VAL_INF;
                continue;
            }
            cn[i] = AB_CAT(AB_FN, _static)(s, child, tmv, &clo[i], &chi[i], 8);
            if (cn[i] > AB_STATIC_N) cn[i] = -1;   /* too many to keep: the child expands itself */
            else if (cn[i] > 0) memcpy(cmv[i], tmv, (size_t)cn[i] * sizeof tmv[0]);
            val_t pv = val_up(chi[i]);   /* the parent gets at least this */
            if (pv >= beta) {
                move_t m = mv[i];
                if (sym && O->move_sym) m = O->move_sym(v, m, sym, 0);
                tt_store(s->tt, key, pv > lo ? pv : lo, hi, m, h.work);
                return pv;
            }
        }
    }

    /* Several threads: a child another thread is searching now waits
     * until this node's other children are done (then it is often in the
     * table), so that the threads share the work instead of repeating it.
     * Near the root only, where the children's keys are at hand and the
     * subtrees are worth it; the first child is always searched. */
    const int use_busy = s->busy && near_root && n > 1;
    _Static_assert(AB_MAX_MOVES <= 256, "a move's index must fit later[]");
    uint8_t later[AB_MAX_MOVES];
    int nlater = 0;
    uint64_t n0 = s->nodes;
    val_t best = -VAL_INF;
    move_t bestm = MOVE_NONE;
    /* games with repetitions: the lowest line index the repetitions below
     * the best child (a lower bound rests on it alone) and below all the
     * children (an upper bound rests on every one) refer to */
    const int reps = O->repetition && s->line;
    int dep_best = INT_MAX, dep_all = INT_MAX;
    s->ply++;
    for (int k = 0; k < n + nlater; k++) {
        const int i = k < n ? k : later[k - n];
        if (near_root && ctop[i] <= alpha) {   /* its entry says it cannot raise alpha */
            if (ctop[i] > best) { best = ctop[i]; bestm = mv[i]; }
            continue;
        }
        uint64_t *slot = NULL;
        if (use_busy) {
            slot = &s->busy[(ckey[i] ^ ckey[i] >> 29) & (AB_BUSY_SLOTS - 1)];
            if (k > 0 && k < n && __atomic_load_n(slot, __ATOMIC_RELAXED) == ckey[i]) {
                later[nlater++] = (uint8_t)i;
                continue;
            }
        }
        memcpy(child, pos, psz);
        play(v, child, mv[i]);
        if (stat) {
            val_t top = val_up(clo[i]);   /* the most this move can give */
            if (top <= alpha) {
                if (top > best) { best = top; bestm = mv[i]; }
                continue;
            }
            if (cn[i] >= 0) { s->pass_mv = cmv[i]; s->pass_n = cn[i]; s->pass_lo = clo[i]; s->pass_hi = chi[i]; }
        }
        if (near_root) { s->pass_key = ckey[i]; s->pass_sym = csym[i]; s->pass_valid = 1; }
        if (reps) s->rep_low = INT_MAX;
        if (slot) __atomic_store_n(slot, ckey[i], __ATOMIC_RELAXED);
        val_t c = AB_FN(s, child, val_down(beta), val_down(alpha));
        if (slot) {   /* unmarked unless another node has the slot now */
            uint64_t mine = ckey[i];
            __atomic_compare_exchange_n(slot, &mine, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        }
        if (s->aborted) { s->ply--; return a0; }
        val_t pv = val_up(c);
        if (reps && s->rep_low < dep_all) dep_all = s->rep_low;
        if (pv > best) {
            best = pv;
            bestm = mv[i];
            if (reps) dep_best = s->rep_low;
            if (pv > alpha) {
                alpha = pv;
                if (alpha >= beta) break;
            }
        }
    }
    s->ply--;
    if (reps) s->rep_low = best >= b0 ? dep_best : dep_all;

    val_t slo = lo, shi = hi;
    if (best >= b0) slo = best;           /* fail high: a lower bound */
    else if (best <= a0) shi = best;      /* fail low: an upper bound */
    else slo = shi = best;                /* inside the window: exact */
    if (slo < lo) slo = lo;
    if (shi > hi) shi = hi;
    if (sym && O->move_sym && bestm != MOVE_NONE) bestm = O->move_sym(v, bestm, sym, 0);
    /* a result that rests on a repetition of a position above this node
     * holds for this line only: it is returned, never stored */
    if (!(O->repetition && s->line) || s->rep_low >= s->line->base + s->ply)
        tt_store(s->tt, key, slo, shi, best > a0 ? bestm : ttmove == MOVE_NONE ? MOVE_NONE
                 : (sym && O->move_sym ? O->move_sym(v, ttmove, sym, 0) : ttmove),
                 ab_log2u64(s->nodes - n0 + 1));
    if (best < lo) best = lo;
    if (best > hi) best = hi;
    return best;
}

/* Games whose positions repeat (ops->repetition) search the line: the
 * game's history, then the path from the root (s->line). A position met
 * again on it takes the game's repetition value, and the lowest line index
 * such a repetition refers to rises to the caller in s->rep_low; a node
 * stores its result only when every repetition below it refers to the
 * node itself or deeper (see AB_BODY's store). Other games (Connect Four's
 * static const ops) compile this away. */
val_t AB_FN(ab_t *s, const void *pos, val_t alpha, val_t beta)
{
    const game_ops_t *O = (AB_OPS);
    if (!O->repetition || !s->line) return AB_BODY(s, pos, alpha, beta);
    ab_line_t *L = s->line;
    const int idx = L->base + s->ply;
    if (idx >= L->cap) {   /* a line longer than the search can hold: give up, proving nothing */
        s->line_full = 1;
        s->aborted = 1;
        s->pass_valid = 0;
        s->pass_mv = NULL;
        return alpha;
    }
    const uint64_t h = O->pos_hash(s->v, pos);
    const unsigned slot = ab_line_slot(h);
    /* (an empty slot: no position of this hash is on the line; the root is
     * the position asked about, never a repetition) */
    if (L->filter[slot] && s->ply > 0) {
        for (int i = idx - 1; i >= 0; i--)
            if (L->h[i] == h) {
                val_t rv;
                if (!O->repetition(s->v, pos, &rv)) break;
                s->pass_valid = 0;
                s->pass_mv = NULL;
                s->nodes++;
                if (i < s->rep_low) s->rep_low = i;
                return rv;
            }
    }
    L->h[idx] = h;
    L->filter[slot]++;
    const int outer = s->rep_low;
    s->rep_low = INT_MAX;
    val_t r = AB_BODY(s, pos, alpha, beta);
    L->filter[slot]--;
    /* repetitions of this node or below it do not concern the nodes above */
    if (s->rep_low >= idx || outer < s->rep_low) s->rep_low = outer;
    return r;
}

#undef AB_BODY
#undef AB_CAT
#undef AB_CAT2
#undef AB_FN
#undef AB_OPS
#undef AB_MAX_MOVES
#undef AB_MAX_POS
#undef AB_STATIC_N
#undef AB_STATIC_DIM
#undef AB_NO_STATIC

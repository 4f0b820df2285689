/* The heuristic search (ab.h: ab_think): iterative-deepening principal-
 * variation search over the game's evaluation, with quiescence, the
 * table's heuristic bounds, null moves, late-move reductions and
 * futility; lazy SMP helpers and multi-PV lines. Split from ab.c, whose
 * exact solving shares the table and the ab_t state. */
#include "core/ab.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Past the depth limit the search goes on from unquiet positions (games
 * with pos_quiet: every move; with ab_tactical: the tactical moves after
 * standing pat, every move in check), at most this many plies more. */
#define AB_QUIESCE 32
/* The history heuristic's table: moves that cut off before, by a hash of
 * the move, tried first among the quiet moves. Games without ab_tactical
 * add depth squared for a cut-off, halving every count when one passes
 * AB_HIST_MAX. Games with ab_tactical keep each count within
 * +-AB_HIST_GRAV: a cut-off adds, each quiet move searched before it
 * loses, ab_hist_bonus(depth), less the part of the count already there
 * (so that old counts fade). Killers sort above both. */
#define AB_HIST_SIZE 4096
#define AB_HIST_MAX (1 << 28)
#define AB_HIST_GRAV 16384
/* A late quiet move is reduced a ply less for each this much of standing
 * in the histories (ab_quiet_score), a ply more for each this much below. */
#define AB_LMR_HIST 8192
/* The evaluation cache (ab_t.heur_ecache): direct-mapped by the low bits
 * of a position's hash, an entry holds the high 32 bits (with the lowest
 * set, so that an empty entry matches nothing) over the value. A position
 * is met again often: the same captures in another order, a re-search, the
 * next iteration (in chess about 40% of the evaluations). 512 KB. */
#define AB_ECACHE (1u << 16)
/* The game's static evaluation of pos (of hash key; 0: not computed at
 * this node), from the cache where it holds it. */
static inline int32_t ab_eval_cached(ab_t *s, const void *pos, uint64_t key)
{
    if (!s->heur_ecache || !key) return s->v->ops->evaluate(s->v, pos);
    uint64_t *e = &s->heur_ecache[key & (AB_ECACHE - 1)];
    const uint64_t check = (key >> 32 | 1) << 32;
    if ((*e & 0xffffffff00000000ull) == check) return (int32_t)(uint32_t)*e;
    int32_t ev = s->v->ops->evaluate(s->v, pos);
    *e = check | (uint32_t)ev;
    return ev;
}

/* The correction history: by each of the game's ab_eval_keys (a table
 * each), how far search results lay from the static evaluation, in
 * 1/AB_CORR_GRAIN of its unit (a moving average, each node weighted by
 * its depth), within +-AB_CORR_MAX units; the entries' mean is added to
 * the evaluation where the search prunes. */
#define AB_CORR_SIZE 16384
#define AB_CORR_GRAIN 16
#define AB_CORR_MAX 200
static inline uint32_t ab_hist_slot(move_t m) { return (m ^ m >> 12 ^ m >> 24) & (AB_HIST_SIZE - 1); }

/* Did the position at the search's current ply, of hash h, occur before on
 * the line (the search path, then the game's history), with the same side
 * to move? A null move cuts the line: positions before it do not count. */
static int ab_heur_repeated(const ab_t *s, uint64_t h)
{
    for (int p = s->ply - 2; p >= s->heur_floor; p -= 2)
        if (s->heur_line[p] == h) return 1;
    if (s->heur_floor || !s->heur_hist_len || !(s->heur_filter[h >> 6 & 15] >> (h & 63) & 1)) return 0;
    /* history[j] lies len - j plies before the root: the same side moves
     * there when that distance and the ply have the same parity */
    int len = s->heur_hist_len;
    for (int j = len - 2 + (s->ply & 1); j >= 0; j -= 2)
        if (s->heur_hist[j] == h) return 1;
    return 0;
}

/* The rows of the continuation history for the replies at this ply: after
 * the move into it (row[0]) and the move before that (row[1]); NULL where
 * there is none (the root, a null move, a game without classes). */
static inline void ab_cont_rows(const ab_t *s, const int16_t *row[2])
{
    row[0] = row[1] = NULL;
    if (!s->heur_cont) return;
    if (s->ply >= 1 && s->heur_cls[s->ply] >= 0) row[0] = s->heur_cont + (size_t)s->heur_cls[s->ply] * AB_MOVE_CLASSES;
    if (s->ply >= 2 && s->heur_cls[s->ply - 1] >= 0)
        row[1] = s->heur_cont + (size_t)s->heur_cls[s->ply - 1] * AB_MOVE_CLASSES;
}

/* A quiet move's standing in the histories: by the move alone, and (with
 * classes) as a reply to the last move and the one before. */
static inline int32_t ab_quiet_score(const ab_t *s, const int16_t *const row[2], move_t m, int cls)
{
    int32_t x = s->heur_order[ab_hist_slot(m)];
    if (cls >= 0) {
        if (row[0]) x += row[0][cls];
        if (row[1]) x += row[1][cls];
    }
    return x;
}

/* A position's entries in the correction history (n 0: none). */
typedef struct ab_corr {
    int16_t *e[AB_EVAL_KEYS];
    int n;
} ab_corr_t;

static inline void ab_corr_find(const ab_t *s, const void *pos, ab_corr_t *c)
{
    c->n = 0;
    if (!s->heur_corr) return;
    uint64_t k[AB_EVAL_KEYS];
    int n = s->v->ops->ab_eval_keys(s->v, pos, k);
    for (int i = 0; i < n && i < AB_EVAL_KEYS; i++)
        c->e[c->n++] = &s->heur_corr[(size_t)i * AB_CORR_SIZE + (k[i] & (AB_CORR_SIZE - 1))];
}

/* The evaluation ev corrected by the entries' mean. */
static inline int32_t ab_corrected(int32_t ev, const ab_corr_t *c)
{
    if (!c->n) return ev;
    int32_t sum = 0;
    for (int i = 0; i < c->n; i++) sum += *c->e[i];
    return ev + sum / (c->n * AB_CORR_GRAIN);
}

/* A node depth plies deep, searched to best where its static evaluation
 * was raw: each entry moves towards the difference. */
static void ab_corr_update(const ab_corr_t *c, int32_t raw, int32_t best, int depth)
{
    int32_t d = best - raw;
    d = d < -AB_CORR_MAX ? -AB_CORR_MAX : d > AB_CORR_MAX ? AB_CORR_MAX : d;
    const int32_t w = depth + 1 < 16 ? depth + 1 : 16;
    for (int i = 0; i < c->n; i++) *c->e[i] = (int16_t)((*c->e[i] * (256 - w) + d * AB_CORR_GRAIN * w) / 256);
}

/* Sort mv[0..n-1] by the killers at this ply, then the history tables, best
 * first (insertion sort, stable: few moves), their classes into cls[] in
 * the same order (with a continuation history); returns how many killers
 * there were (they lead). */
static int ab_heur_sort_quiet(const ab_t *s, const void *pos, move_t *mv, int16_t *cls, int n)
{
    int32_t sc[GSW_MAX_MOVES];
    const move_t *k = s->heur_killer[s->ply];
    const int16_t *row[2];
    ab_cont_rows(s, row);
    int nk = 0;
    /* the scores first, then the sort: the histories' entries are mostly
     * cache misses, and loads apart from the sort's branches overlap (in
     * the sort's loop they cost chess a tenth of its time) */
    int32_t x0[GSW_MAX_MOVES];
    int16_t c0[GSW_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        move_t m = mv[i];
        int c = s->heur_cont ? s->v->ops->ab_move_class(s->v, pos, m) : -1;
        c0[i] = (int16_t)c;
        x0[i] = m == k[0] ? INT32_MAX : m == k[1] ? INT32_MAX - 1 : ab_quiet_score(s, row, m, c);
        nk += m == k[0] || m == k[1];
    }
    for (int i = 0; i < n; i++) {
        move_t m = mv[i];
        int c = c0[i];
        int32_t x = x0[i];
        int j = i;
        for (; j > 0 && sc[j - 1] < x; j--) {
            sc[j] = sc[j - 1];
            mv[j] = mv[j - 1];
            cls[j] = cls[j - 1];
        }
        sc[j] = x;
        mv[j] = m;
        cls[j] = (int16_t)c;
    }
    return nk;
}

/* One history count moved by bonus (of either sign) within the gravity's
 * bound. */
static inline void ab_hist_grav(int32_t *c, int32_t bonus)
{
    *c += bonus - *c * (bonus < 0 ? -bonus : bonus) / AB_HIST_GRAV;
}

/* What a cut-off depth plies from the horizon moves a history count by
 * (games with ab_tactical): 150 a ply less 100, at most 1,600, a tenth of
 * the gravity's bound, so that the counts follow the last few hundred
 * cut-offs and the reductions' history term (AB_LMR_HIST) comes into play. */
static inline int32_t ab_hist_bonus(int depth) { return depth > 11 ? 1600 : 150 * depth - 100; }

/* The same for a continuation-history entry. */
static inline void ab_cont_grav(int16_t *c, int32_t bonus)
{
    int32_t x = *c;
    ab_hist_grav(&x, bonus);
    *c = (int16_t)x;
}

/* A quiet move m (of class mc) cut off at this ply, depth plies from the
 * horizon; with ab_tactical, the nb quiet moves in bad[] (of classes
 * badc[], NULL: none) were searched before it and did not. */
static void ab_heur_reward(ab_t *s, move_t m, int mc, int depth, int tactical, const move_t *bad,
                           const int16_t *badc, int nb)
{
    move_t *k = s->heur_killer[s->ply];
    int32_t *c = &s->heur_order[ab_hist_slot(m)];
    if (tactical) {
        int32_t bonus = ab_hist_bonus(depth);
        ab_hist_grav(c, bonus);
        for (int i = 0; i < nb; i++) ab_hist_grav(&s->heur_order[ab_hist_slot(bad[i])], -bonus);
        int16_t *row[2];
        ab_cont_rows(s, (const int16_t **)row);
        for (int r = 0; r < 2 && mc >= 0; r++) {
            if (!row[r]) continue;
            ab_cont_grav(&row[r][mc], bonus);
            for (int i = 0; i < nb; i++)
                if (badc && badc[i] >= 0) ab_cont_grav(&row[r][badc[i]], -bonus);
        }
    } else {
        *c += depth * depth;
        if (*c >= AB_HIST_MAX)
            for (int i = 0; i < AB_HIST_SIZE; i++) s->heur_order[i] >>= 1;
    }
    if (k[0] != m) { k[1] = k[0]; k[0] = m; }
}

/* Late-move reductions by depth and move number (both capped at 63):
 * 0.75 + ln(depth) ln(number) / 2.25 plies, so late moves deep in the tree
 * lose several plies where the first few lose one. Built once. */
static uint8_t ab_lmr_tab[64][64];
static pthread_once_t ab_lmr_once = PTHREAD_ONCE_INIT;
static void ab_lmr_build(void)
{
    for (int d = 1; d < 64; d++)
        for (int i = 1; i < 64; i++) ab_lmr_tab[d][i] = (uint8_t)(0.75 + log(d) * log(i) / 2.25);
}

/* Late-move reduction of the i-th move (0-based) at depth plies: a ply
 * less at a principal-variation node; at least 1, at most depth - 2. */
static inline int ab_lmr(int depth, int i, int pvnode)
{
    int r = ab_lmr_tab[depth < 63 ? depth : 63][i < 62 ? i + 1 : 63] - pvnode;
    return r < 1 ? 1 : r > depth - 2 ? depth - 2 : r;
}

/* Fail-soft principal-variation search of pos to depth plies (quiescence
 * at depth <= 0) in the window (alpha, beta); the line it finds into pv.
 * can_null: the move into pos was no null move. */
static int32_t ab_heur(ab_t *s, const void *pos, int depth, int32_t alpha, int32_t beta,
                       move_t *pv, int *pvlen, int can_null)
{
    const game_ops_t *O = s->v->ops;
    const gv_t *v = s->v;
    s->nodes++;
    *pvlen = 0;
    if ((s->nodes & 0x3ff) == 0 && !s->aborted) {
        /* several threads under a node budget: their nodes together */
        uint64_t spent = s->pool_nodes ? __atomic_add_fetch(s->pool_nodes, 0x400, __ATOMIC_RELAXED) : s->nodes;
        /* (a node budget lets the first depth finish: a move and its score
         * are always found, however small the budget) */
        if ((s->stop && *s->stop) || (s->halt && *s->halt) || (s->node_limit && spent >= s->node_limit && s->heur_depth > 1)
            || (s->deadline_ms > 0 && gsw_now_ms() >= s->deadline_ms))
            s->aborted = 1;
    }
    if (s->aborted) return alpha;
    val_t tv;
    const int root = s->ply == 0;
    const int pvnode = beta - alpha > 1;
    const int tactical = O->ab_tactical != NULL;
    int quiesce = depth <= 0;
    /* the table: every node above the frontier; quiescence nodes are many,
     * short-lived and rarely met again, and a probe each costs a cache
     * miss (with them, chess lost 179 Elo at 40 ms a move) */
    const int use_tt = !quiesce;
    /* the table's bucket is loaded while the game's hooks run */
    uint64_t key = s->heur_line || use_tt ? O->pos_hash(v, pos) : 0;
    /* under the move-count rule, the plies the clock leaves are part of the
       table's key (a mate the rule pre-empts is no mate), not of the line's */
    const int left = s->count ? game_count_left(v, pos) : -1;
    const uint64_t tkey = tt_heur_key(left >= 0 ? key ^ game_count_key(left) : key);
    if (use_tt) tt_prefetch(s->tt, tkey);
    /* and the evaluation cache's entry (a miss there cost chess about 5% of
       its time) */
    if (s->heur_ecache && key) __builtin_prefetch(&s->heur_ecache[key & (AB_ECACHE - 1)]);
    if (s->heur_line) {   /* the game has repetitions: a position met again on the line */
        if (s->ply > 0 && ab_heur_repeated(s, key) && O->repetition(v, pos, &tv)) return tv;
        s->heur_line[s->ply] = key;
    }
    if (O->terminal(v, pos, &tv)) return tv;
    if (left == 0 && !root) return VAL_DRAW;   /* the move-count rule's draw */
    if (s->oracle && s->ply > 0) {   /* a database position: its value, or its class as a proven bound */
        val_t olo, ohi;
        if (s->oracle->probe(s->oracle->ctx, v, pos, &olo, &ohi)) {
            if (olo == ohi || olo > VAL_DRAW) return olo;
            if (ohi < VAL_DRAW) return ohi;
        }
    }
    if (!tactical) {   /* unquiet positions go on with every move (checkers: a capture pending) */
        if (quiesce && (depth <= -AB_QUIESCE || !O->pos_quiet || O->pos_quiet(v, pos)))
            return O->evaluate(v, pos);
    } else if (depth <= -AB_QUIESCE) {
        return O->evaluate(v, pos);
    }
    if (s->ply >= AB_MAX_PLY - 1) return O->evaluate(v, pos);

    /* in check: one ply more (within twice the iteration's depth, so that
     * a line of checks cannot run away); never stand pat, never pass */
    const int in_check = O->pos_in_check && (tactical || !quiesce) ? O->pos_in_check(v, pos) : 0;
    if (in_check && !quiesce && s->ply < 2 * s->heur_depth) depth++;

    tt_hit_t h = { 0 };
    move_t hmove = MOVE_NONE;
    /* a singular test's search of this node without skip: nothing cut or
     * stored by the table (its entry is the whole node's) */
    const move_t skip = use_tt ? s->heur_skip[s->ply] : MOVE_NONE;
    int hit = 0;
    if (use_tt && (hit = tt_probe(s->tt, tkey, &h))) {
        hmove = h.move;
        if (!pvnode && !root && !s->heur_no_tt && skip == MOVE_NONE && h.work >= (depth > 0 ? depth : 0)) {
            if (h.lo >= beta) return h.lo;
            if (h.hi <= alpha) return h.hi;
            if (h.lo == h.hi) return h.lo;
        }
    }
    if (root && s->heur_root_move != MOVE_NONE) hmove = s->heur_root_move;
    /* internal iterative reduction: a node the table knows no move for,
     * deep enough, is searched a ply shallower (its order is a guess; a
     * later visit, with the move this one finds, goes deeper) */
    if (tactical && !s->heur_no_prune && !root && !in_check && hmove == MOVE_NONE && skip == MOVE_NONE && depth >= 4)
        depth--;

    const int32_t alpha0 = alpha;
    int32_t best = -VAL_INF;
    move_t bestm = MOVE_NONE;
    int bestq = 0;   /* bestm is quiet */
    int32_t stand = -VAL_INF;   /* (quiescence, out of check) the standing evaluation */
    GSW_POSBUF child[GSW_MAX_POS];
    move_t cpv[64];
    int cpvlen;

    /* the frontier (games with ab_futility): a static evaluation far above
     * beta stands (reverse futility); far below alpha, quiet moves that
     * give no check are skipped below */
    const int32_t fm = tactical && !s->heur_no_prune ? O->ab_futility : 0;
    int32_t stat = -VAL_INF;
    /* improving: the static evaluation is above what it was at the side's
     * last turn on the path (or the one before, across a check); the
     * frontier's margins and the late moves' reductions are kept for
     * positions that are getting better, and cut where they are not */
    int improving = 1;
    ab_corr_t corr = { .n = 0 };   /* the correction history's entries, and the evaluation before them */
    int32_t raw = -VAL_INF, cev = -VAL_INF;
    if (fm && !quiesce) {
        if (!in_check) {
            raw = ab_eval_cached(s, pos, key);
            ab_corr_find(s, pos, &corr);
        }
        int32_t ev = in_check ? -VAL_INF : ab_corrected(raw, &corr);
        s->heur_eval[s->ply] = cev = ev;
        if (ev > -VAL_INF && s->ply >= 2) {
            int32_t before = s->heur_eval[s->ply - 2];
            if (before == -VAL_INF && s->ply >= 4) before = s->heur_eval[s->ply - 4];
            if (before > -VAL_INF) improving = ev > before;
        }
        if (!pvnode && !root && !in_check && skip == MOVE_NONE && depth <= 3 && beta > -VAL_PROVEN
            && beta < VAL_PROVEN && alpha > -VAL_PROVEN) {
            stat = ev;
            const int32_t margin = fm * (depth - improving);
            if (stat - margin >= beta) return stat - margin;
            /* razoring: so far below alpha that only a capture could help:
             * the captures alone (quiescence) decide whether to look on */
            if (ev + fm * (2 + depth * depth) <= alpha) {
                int32_t q = ab_heur(s, pos, 0, alpha, alpha + 1, cpv, &cpvlen, 0);
                if (s->aborted) return alpha;
                if (q <= alpha) return q;
            }
        }
    }
    if (quiesce && tactical && !in_check) {   /* stand pat */
        best = ab_eval_cached(s, pos, key);
        if (fm) {
            ab_corr_find(s, pos, &corr);
            best = ab_corrected(best, &corr);
        }
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
        stand = best;
    } else if (!pvnode && !root && !in_check && can_null && O->play_null && !s->heur_no_prune && depth >= 2
               && skip == MOVE_NONE && beta > -VAL_PROVEN && beta < VAL_PROVEN) {
        /* null move: if passing still holds beta, a move will too */
        const int32_t ev = fm ? s->heur_eval[s->ply] : O->evaluate(v, pos);   /* (made above) */
        if (ev >= beta) {
            memcpy(child, pos, O->pos_size);
            if (O->play_null(v, child)) {
                /* the reduction grows with the depth and the margin over beta */
                int R = 3 + depth / 4 + (ev - beta >= 600 ? 3 : (ev - beta) / 200);
                int floor = s->heur_floor;
                s->ply++;
                s->heur_cls[s->ply] = -1;
                s->heur_floor = s->ply;
                int32_t sc = val_up(ab_heur(s, child, depth - 1 - R, val_down(beta), val_down(beta - 1), cpv,
                                            &cpvlen, 0));
                s->heur_floor = floor;
                s->ply--;
                if (s->aborted) return alpha;
                if (sc >= beta) {
                    if (sc >= VAL_PROVEN) sc = beta;   /* a pass proves nothing */
                    if (!s->heur_no_tt) tt_store_heur(s->tt, tkey, sc, VAL_WIN, MOVE_NONE, depth, s->heur_gen);
                    return sc;
                }
            }
        }
    }

    /* singular extension: where the table's move holds a bound that no
     * other move comes near (a search without it, half as deep, fails
     * low under the bound less a margin), that move is searched a ply
     * deeper; where others hold the margin's bound above beta too, several
     * moves would cut off, and the node does (multi-cut) */
    int sext = 0;
    if (tactical && !s->heur_no_prune && !root && skip == MOVE_NONE && hit && hmove != MOVE_NONE && depth >= 6
        && h.lo > -VAL_PROVEN && h.lo < VAL_PROVEN && h.work >= depth - 3 && s->ply < 2 * s->heur_depth) {
        const int32_t sb = h.lo - 2 * depth;
        s->heur_skip[s->ply] = hmove;
        int32_t sv = ab_heur(s, pos, (depth - 1) / 2, sb - 1, sb, cpv, &cpvlen, can_null);
        s->heur_skip[s->ply] = MOVE_NONE;
        if (s->aborted) return alpha;
        if (sv < sb) sext = 1;
        else if (sb >= beta) return sb;
    }

    move_t mv[GSW_MAX_MOVES];
    val_t lo = -VAL_WIN + 1, hi = VAL_WIN - 1;
    int n;
    if (O->ab_expand && s->ply > 0) {   /* the root needs its moves for the PV */
        n = O->ab_expand(v, pos, mv, &lo, &hi);
        if (lo >= hi) return lo;
    } else if (quiesce && !in_check && tactical && O->ab_captures) {   /* standing pat: captures only */
        n = O->ab_captures(v, pos, mv);
    } else {
        n = O->moves(v, pos, mv);
    }
    if (root && s->heur_nexcl) {   /* multi-PV: the lines before took these */
        int k = 0;
        for (int i = 0; i < n; i++) {
            int x = 0;
            for (int j = 0; j < s->heur_nexcl && !x; j++) x = mv[i] == s->heur_excl[j];
            if (!x) mv[k++] = mv[i];
        }
        n = k;
    }
    /* order: the table's move, then (ab_tactical) the tactical moves in the
     * game's order, the killers, the other quiet moves by history; games
     * without ab_tactical: ab_order, else killers and history for all */
    int qstart = 0, nkill = 0, hash_quiet = 0, hash_tactical = 0;
    int sort_later = 0;   /* (ab_tactical) the quiet moves are sorted when the loop reaches them */
    int16_t mcls[GSW_MAX_MOVES];   /* (once sorted) the quiet moves' classes, from qstart on */
    int have_cls = 0;
    if (tactical) {
        int nt = O->ab_tactical(v, pos, mv, n);
        if (quiesce && !in_check) n = nt;   /* quiescence: tactical moves only */
        else sort_later = nt < n;
        qstart = nt;
    } else if (!quiesce) {
        if (O->ab_order) O->ab_order(v, pos, mv, n);
        else if (s->heur_order) nkill = ab_heur_sort_quiet(s, pos, mv, mcls, n);
    }
    if (hmove != MOVE_NONE && (!quiesce || tactical)) {
        for (int i = 0; i < n; i++)
            if (mv[i] == hmove) {   /* to the front, the others keeping their order */
                memmove(mv + 1, mv, (size_t)i * sizeof *mv);
                mv[0] = hmove;
                if (tactical && i >= qstart) {   /* (the quiet moves left are sorted later) */
                    hash_quiet = 1;
                    qstart++;
                } else if (tactical) {
                    hash_tactical = 1;
                }
                break;
            }
    }
    const int lmr = tactical && !s->heur_no_prune && !in_check && depth >= 3;
    const int futile = stat > -VAL_INF && depth <= 2 && stat + fm * depth <= alpha;
    /* pruning by exchange (ab_see): a few plies from the frontier, off the root, out of check */
    const int seep = fm && O->ab_see && !quiesce && !root && !in_check && depth <= 8;
    /* late-move pruning: at a null-window node a few plies from the
     * frontier, not in check, once (3 + depth squared) / 2 quiet moves
     * (twice as many where the position is improving) have been searched,
     * the other quiet moves that give no check are not */
    const int lmp = fm && !quiesce && !pvnode && !root && !in_check && depth <= 6
                        ? (3 + depth * depth) / (2 - improving) : 0;

    move_t tried[GSW_MAX_MOVES];   /* (ab_tactical) the quiet moves searched, none cutting off */
    int16_t triedc[GSW_MAX_MOVES]; /* ... and their classes */
    int ntried = 0;
    const int16_t *row[2];
    ab_cont_rows(s, row);
    s->ply++;
    for (int i = 0; i < n; i++) {
        if (sort_later && i == qstart) {   /* a tactical move or the table's did not cut off: the quiet ones, sorted */
            s->ply--;
            nkill = ab_heur_sort_quiet(s, pos, mv + qstart, mcls + qstart, n - qstart);
            s->ply++;
            sort_later = 0;
            have_cls = 1;
        }
        if (mv[i] == skip) continue;
        if (stand > -VAL_INF && O->ab_gain && !s->heur_no_prune && alpha < VAL_PROVEN
            && stand + O->ab_gain(v, pos, mv[i]) + 2 * O->ab_futility <= alpha)
            continue;   /* delta pruning: even winning the piece cannot reach alpha */
        const int cd = depth - 1 + (sext && mv[i] == hmove);   /* the child's depth */
        const int mc = !s->heur_cont ? -1 : have_cls && i >= qstart ? mcls[i] : O->ab_move_class(v, pos, mv[i]);
        s->heur_cls[s->ply] = (int16_t)mc;
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv[i]);
        const int quiet = tactical ? (i == 0 ? hash_quiet || qstart == 0 : i >= qstart) : 1;
        int32_t sc;
        /* whether the move gives check: asked once, by the first rule below that needs it */
        int gc = -1;
#define AB_GIVES_CHECK() (gc < 0 ? (gc = O->pos_in_check != NULL && O->pos_in_check(v, child)) : gc)
        if (lmp && quiet && ntried >= lmp && best > -VAL_PROVEN && !AB_GIVES_CHECK())
            continue;
        if (seep && i > 0 && quiet && best > -VAL_PROVEN) {
            /* a move that loses material at a node near the frontier: a
             * capture (or a check) losing more than 2 pawns a ply, another
             * more than (depth squared) / 4 pawns */
            const int capture = O->ab_gain && O->ab_gain(v, pos, mv[i]) > 0;
            const int check = AB_GIVES_CHECK();
            const int32_t floor = capture || check ? -200 * depth : -27 * depth * depth;
            if (O->ab_see(v, pos, mv[i]) < floor) continue;
        }
        if (futile && quiet && i > 0 && !AB_GIVES_CHECK()) {
            /* it cannot reach alpha: counted as worth what the frontier allows */
            if (stat + fm * depth > best) best = stat + fm * depth;
            continue;
        }
        if (i == 0) {
            sc = val_up(ab_heur(s, child, cd, val_down(beta), val_down(alpha), cpv, &cpvlen, 1));
        } else {   /* null window first (principal variation search) */
            int r = 0;
            if (lmr && quiet && i >= 3 && i >= qstart + nkill && !AB_GIVES_CHECK()) {
                /* less for a move with a good history, more for a bad one */
                r = ab_lmr(depth, i, pvnode) + !improving + hash_tactical - ab_quiet_score(s, row, mv[i], mc) / AB_LMR_HIST;
                r = r < 1 ? 1 : r > depth - 2 ? depth - 2 : r;
            }
            sc = val_up(ab_heur(s, child, cd - r, val_down(alpha + 1), val_down(alpha), cpv, &cpvlen, 1));
            if (r && sc > alpha && !s->aborted)   /* the reduced search failed high: the full depth */
                sc = val_up(ab_heur(s, child, cd, val_down(alpha + 1), val_down(alpha), cpv, &cpvlen, 1));
            if (sc > alpha && sc < beta && !s->aborted)
                sc = val_up(ab_heur(s, child, cd, val_down(beta), val_down(alpha), cpv, &cpvlen, 1));
        }
        if (s->aborted) break;
        if (sc > best) {
            best = sc;
            bestm = mv[i];
            bestq = quiet;
            if (sc > alpha) {
                alpha = sc;
                pv[0] = mv[i];
                int k = cpvlen < 63 ? cpvlen : 62;
                memcpy(pv + 1, cpv, (size_t)k * sizeof *pv);
                *pvlen = k + 1;
                if (alpha >= beta) {
                    if (s->heur_order && !quiesce && quiet) {
                        s->ply--;
                        ab_heur_reward(s, mv[i], mc, depth, tactical, tried, triedc, ntried);
                        s->ply++;
                    }
                    break;
                }
            }
        }
        if (tactical && quiet && !quiesce) {
            triedc[ntried] = (int16_t)mc;
            tried[ntried++] = mv[i];
        }
    }
#undef AB_GIVES_CHECK
    s->ply--;
    if (s->aborted) return best > -VAL_INF ? best : alpha0;   /* the caller discards it */
    /* the correction history learns from a result beyond the evaluation on
     * the side its bound allows, where no capture decided it */
    if (!quiesce && corr.n && skip == MOVE_NONE && (bestm == MOVE_NONE || bestq) && best > -VAL_PROVEN
        && best < VAL_PROVEN && !(best >= beta && best <= cev) && !(best <= alpha0 && best >= cev))
        ab_corr_update(&corr, raw, best, depth);
    if (use_tt && skip == MOVE_NONE && !(root && s->heur_nexcl)) {   /* (a root without some moves is not the root) */
        if (best >= beta) tt_store_heur(s->tt, tkey, best, VAL_WIN, bestm, depth, s->heur_gen);
        else if (best > alpha0) tt_store_heur(s->tt, tkey, best, best, bestm, depth, s->heur_gen);
        else tt_store_heur(s->tt, tkey, -VAL_WIN, best, MOVE_NONE, depth, s->heur_gen);
    }
    return best;
}

/* The first legal move of pos (MOVE_NONE when the game is over). */
static move_t ab_any_move(const gv_t *v, const void *pos)
{
    val_t tv;
    move_t mv[GSW_MAX_MOVES];
    if (v->ops->terminal(v, pos, &tv)) return MOVE_NONE;
    return v->ops->moves(v, pos, mv) > 0 ? mv[0] : MOVE_NONE;
}

/* A continuation history, empty (NULL: out of memory). */
static int16_t *ab_cont_new(void) { return calloc((size_t)AB_MOVE_CLASSES * AB_MOVE_CLASSES, sizeof(int16_t)); }

struct ab_memory {
    int32_t order[AB_HIST_SIZE];
    int16_t corr[AB_EVAL_KEYS * AB_CORR_SIZE];
    int16_t cont[(size_t)AB_MOVE_CLASSES * AB_MOVE_CLASSES];
};

ab_memory_t *ab_memory_new(void) { return calloc(1, sizeof(ab_memory_t)); }
void ab_memory_clear(ab_memory_t *m) { if (m) memset(m, 0, sizeof *m); }
void ab_memory_free(ab_memory_t *m) { free(m); }

/* Lazy SMP: a helper thread deepens the root on its own (its own history,
 * killers and line) over the caller's table, until the caller's search
 * ends (halt). What it stores orders and cuts the caller's search; its
 * own results are never read. */
typedef struct ab_helper {
    ab_t s;
    const void *pos;
    int d0, maxd;
    pthread_t th;
    int32_t order[AB_HIST_SIZE];
    move_t killer[AB_MAX_PLY][2];
    uint64_t line[AB_MAX_PLY];
    int16_t corr[AB_EVAL_KEYS * AB_CORR_SIZE];
} ab_helper_t;

static void *ab_helper_run(void *arg)
{
    ab_helper_t *h = arg;
    ab_t *s = &h->s;
    move_t pv[64];
    int pvlen = 0;
    for (int d = h->d0; d <= h->maxd && !*s->halt; d++) {
        s->heur_depth = d;
        int32_t sc = ab_heur(s, h->pos, d, -VAL_INF, VAL_INF, pv, &pvlen, 0);
        if (s->aborted || val_is_proven_decisive(sc)) break;
        s->heur_root_move = pvlen ? pv[0] : MOVE_NONE;
    }
    return NULL;
}

/* The nodes of the caller's thread and its helpers (while they run: their
 * counters as last seen; after the join: exact). */
static uint64_t ab_think_nodes(const ab_t *s, ab_helper_t *const *help, int nh)
{
    uint64_t n = s->nodes;
    for (int i = 0; i < nh; i++) n += __atomic_load_n(&help[i]->s.nodes, __ATOMIC_RELAXED);
    return n;
}

/* Start up to want lazy SMP helpers over this thread's search s (a copy
 * each), into help[]; returns how many started. */
static int ab_helpers_start(const ab_t *s, ab_helper_t **help, int want, const void *pos, int maxd, gsw_flag_t *halt)
{
    int nh = 0;
    for (int i = 0; i < want; i++) {
        ab_helper_t *h = malloc(sizeof *h);
        if (!h) break;
        h->s = *s;
        h->s.nodes = 0;
        h->s.thread_id = i + 1;
        h->s.halt = halt;
        h->s.heur_excl = NULL;
        h->s.heur_line = s->heur_line ? h->line : NULL;
        if (s->heur_order) {
            memset(h->order, 0, sizeof h->order);
            memset(h->killer, 0xff, sizeof h->killer);
            h->s.heur_order = h->order;
            h->s.heur_killer = h->killer;
        }
        if (s->heur_corr) {   /* what the caller's searches learnt so far */
            memcpy(h->corr, s->heur_corr, sizeof h->corr);
            h->s.heur_corr = h->corr;
        }
        if (s->heur_cont && !(h->s.heur_cont = ab_cont_new())) {
            free(h);
            break;
        }
        if (s->heur_ecache) h->s.heur_ecache = calloc(AB_ECACHE, sizeof *s->heur_ecache);   /* (none: short of memory) */
        h->pos = pos;
        /* every other one a ply ahead: the threads' iterations interleave
         * rather than repeat each other's */
        h->d0 = 1 + ((i + 1) & 1);
        h->maxd = maxd;
        if (pthread_create(&h->th, NULL, ab_helper_run, h)) {
            free(h->s.heur_ecache);
            free(h->s.heur_cont);
            free(h);
            break;
        }
        help[nh++] = h;
    }
    return nh;
}

/* Multi-PV: one root move's line at a depth. */
typedef struct ab_pvline {
    int32_t score;
    int pvlen;
    move_t pv[64];
} ab_pvline_t;

static int ab_excluded(const move_t *excl, int n, move_t m)
{
    for (int i = 0; i < n; i++)
        if (excl[i] == m) return 1;
    return 0;
}

int ab_think(const gv_t *v, tt_t *tt, const void *pos, const ab_options_t *o,
             ab_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    r->best = MOVE_NONE;
    r->multipv = 1;
    if (!v->ops->evaluate)
        return err_set(err, GSW_EINPUT, "%s has no heuristic evaluation", v->game->name);
    pthread_once(&ab_lmr_once, ab_lmr_build);
    double t0 = gsw_now_ms();
    ab_t s;
    ab_init(&s, v, tt, o);
    uint64_t line[AB_MAX_PLY];
    if (v->ops->repetition) {   /* the line: the game's history, then the search path */
        s.heur_line = line;
        if (o && o->history && o->history_len > 0) {
            s.heur_hist = o->history;
            s.heur_hist_len = o->history_len;
            for (int j = 0; j < o->history_len; j++)
                s.heur_filter[o->history[j] >> 6 & 15] |= 1ull << (o->history[j] & 63);
        }
    }
    int32_t order[AB_HIST_SIZE];
    move_t killer[AB_MAX_PLY][2];
    int16_t corr[AB_EVAL_KEYS * AB_CORR_SIZE];
    ab_memory_t *mem = o ? o->memory : NULL;
    int16_t *own_cont = NULL;
    if (!v->ops->ab_order || v->ops->ab_tactical) {
        memset(killer, 0xff, sizeof killer);   /* MOVE_NONE */
        s.heur_killer = killer;
        const int classes = v->ops->ab_tactical && v->ops->ab_move_class;
        const int corrected = v->ops->ab_tactical && v->ops->ab_futility && v->ops->ab_eval_keys;
        if (mem) {   /* where the last search left them */
            s.heur_order = mem->order;
            if (classes) s.heur_cont = mem->cont;
            if (corrected) s.heur_corr = mem->corr;
        } else {
            if (corrected) {
                memset(corr, 0, sizeof corr);
                s.heur_corr = corr;
            }
            memset(order, 0, sizeof order);
            s.heur_order = order;
            /* (short of memory: the history by move alone) */
            if (classes) s.heur_cont = own_cont = ab_cont_new();
        }
    }
    /* (short of memory: every evaluation made) */
    uint64_t *ecache = v->ops->ab_futility && !(o && o->no_ecache) ? calloc(AB_ECACHE, sizeof *ecache) : NULL;
    s.heur_ecache = ecache;
    s.heur_cls[0] = -1;
    memset(s.heur_skip, 0xff, sizeof s.heur_skip);   /* MOVE_NONE */
    s.heur_no_prune = o && o->no_prune;
    s.heur_no_tt = o && o->no_tt_cuts;
    s.heur_root_move = MOVE_NONE;
    /* the generation: a search of another root marks its entries apart
     * (the table keeps no state: the root's hash picks it) */
    uint64_t rh = v->ops->pos_hash(v, pos);
    s.heur_gen = (unsigned)((rh ^ rh >> 29 ^ rh >> 47) * 0x9E3779B97F4A7C15ull >> 61);
    int maxd = o && o->depth_limit > 0 ? o->depth_limit : 64;
    /* a root whose move-count clock has run out (and which the rules do not
     * end otherwise) is the rule's draw: its moves are searched, for a move
     * to play, but every score said is the draw's (last: the search's own,
     * which the next depth's window is centred on) */
    const int ruled = s.count && game_count_over(v, pos);
    int32_t last = 0;

    /* multi-PV: at most a line per root move; cur holds this depth's lines,
     * prev the last depth's (best first: they order the next) */
    int lines = o && o->multipv > 1 ? o->multipv : 1;
    ab_pvline_t *lbuf = NULL, *cur = NULL, *prev = NULL;
    int nprev = 0;
    move_t excl[GSW_MAX_MOVES];
    if (lines > 1) {
        val_t tv;
        move_t mv[GSW_MAX_MOVES];
        int n = v->ops->terminal(v, pos, &tv) ? 0 : v->ops->moves(v, pos, mv);
        if (lines > n) lines = n > 1 ? n : 1;
        if (lines > 1 && !(lbuf = malloc(2 * (size_t)lines * sizeof *lbuf))) lines = 1;   /* (short of memory: one) */
        cur = lbuf;
        prev = lbuf ? lbuf + lines : NULL;
    }
    s.heur_excl = excl;

    /* lazy SMP: the helpers start once this thread's first iteration is
     * done (so that they never spend a node budget before there is a move
     * to play) and stop when its search ends; a node budget is theirs and
     * this thread's together (each adds its nodes to spent every 1,024).
     * Short of memory or threads, fewer. */
    gsw_flag_t halt = 0;
    uint64_t spent = 0;
    int want = o && o->threads > 1 ? o->threads - 1 : 0, nh = 0;
    ab_helper_t **help = want ? calloc((size_t)want, sizeof *help) : NULL;

    for (int d = 1; d <= maxd; d++) {
        if (d == 2 && help) {
            if (s.node_limit) {
                spent = s.nodes & ~(uint64_t)0x3ff;   /* (this thread adds its nodes from here on) */
                s.pool_nodes = &spent;
            }
            nh = ab_helpers_start(&s, help, want, pos, maxd, &halt);
        }
        move_t pv[64];
        int pvlen = 0;
        s.heur_depth = d;
        int32_t sc, delta = v->ops->ab_window;
        move_t failed_high = MOVE_NONE;   /* this depth's root move that last failed high */
        if (delta > 0 && d >= 5 && lines <= 1 && !r->proven && !val_is_proven_decisive(last)) {
            int32_t a = last - delta, b = last + delta;
            for (;;) {   /* the window, widened on the side the score left it by */
                sc = ab_heur(&s, pos, d, a, b, pv, &pvlen, 0);
                if (s.aborted || (sc > a && sc < b)) break;
                delta *= 2;
                const int wide = delta > 1000 || val_is_proven_decisive(sc);
                if (sc <= a) a = wide ? -VAL_INF : sc - delta;
                else {
                    b = wide ? VAL_INF : sc + delta;
                    if (pvlen) s.heur_root_move = failed_high = pv[0];   /* the move that failed high first */
                }
            }
        } else {
            sc = ab_heur(&s, pos, d, -VAL_INF, VAL_INF, pv, &pvlen, 0);
        }
        if (s.aborted && d > 1) {
            /* The unfinished depth still counts where it settled something:
             * a root move whose search finished above the window's floor
             * (the root's line holds only finished moves), or else one that
             * failed high, beats the last depth's choice. */
            if (lines <= 1 && (pvlen || failed_high != MOVE_NONE)) {
                if (pvlen) {
                    r->score = ruled ? VAL_DRAW : sc;
                    memcpy(r->pv, pv, sizeof pv);
                    r->pvlen = pvlen;
                } else if (failed_high != r->best) {
                    r->pv[0] = failed_high;
                    r->pvlen = 1;
                }
                r->best = r->pv[0];
                r->proven = val_is_proven_decisive(r->score);
                if (o && o->on_iter) {   /* reported at the last depth finished */
                    r->nodes = ab_think_nodes(&s, help, nh);
                    r->time_ms = gsw_now_ms() - t0;
                    o->on_iter(o->on_iter_ctx, r);
                }
            }
            break;
        }
        if (s.aborted && !pvlen) break;
        const int first_done = !s.aborted;
        int nl = 1;   /* multi-PV: the depth's lines finished */
        if (lines > 1 && first_done) {
            cur[0].score = sc;
            cur[0].pvlen = pvlen;
            memcpy(cur[0].pv, pv, sizeof pv);
            for (; nl < lines; nl++) {   /* line nl + 1: without the moves of the lines before */
                excl[nl - 1] = cur[nl - 1].pv[0];
                s.heur_nexcl = nl;
                s.heur_root_move = MOVE_NONE;   /* first: the best of the last depth's lines left */
                for (int i = 0; i < nprev && s.heur_root_move == MOVE_NONE; i++)
                    if (!ab_excluded(excl, nl, prev[i].pv[0])) s.heur_root_move = prev[i].pv[0];
                ab_pvline_t *L = &cur[nl];
                L->pvlen = 0;
                L->score = ab_heur(&s, pos, d, -VAL_INF, VAL_INF, L->pv, &L->pvlen, 0);
                if (s.aborted || !L->pvlen) break;
            }
            s.heur_nexcl = 0;
            /* best first (a later line may beat an earlier one: pruning,
             * the table); stable, so ties keep the order searched */
            for (int i = 1; i < nl; i++) {
                ab_pvline_t t = cur[i];
                int j = i;
                for (; j > 0 && cur[j - 1].score < t.score; j--) cur[j] = cur[j - 1];
                cur[j] = t;
            }
            sc = cur[0].score;
            pvlen = cur[0].pvlen;
            memcpy(pv, cur[0].pv, sizeof pv);
            ab_pvline_t *t = prev;
            prev = cur;
            cur = t;
            nprev = nl;
        }
        last = sc;
        r->score = ruled ? VAL_DRAW : sc;
        r->depth = d;
        memcpy(r->pv, pv, sizeof pv);
        r->pvlen = pvlen;
        r->best = pvlen ? pv[0] : MOVE_NONE;
        s.heur_root_move = r->best;
        r->proven = val_is_proven_decisive(r->score);
        if (!first_done) break;
        if (o && o->on_iter) {
            r->nodes = ab_think_nodes(&s, help, nh);
            r->time_ms = gsw_now_ms() - t0;
            if (lines <= 1) {
                o->on_iter(o->on_iter_ctx, r);
            } else {
                for (int i = 0; i < nl; i++) {   /* the lines finished, best first */
                    ab_result_t x = *r;
                    x.multipv = i + 1;
                    x.score = ruled ? VAL_DRAW : prev[i].score;
                    x.pvlen = prev[i].pvlen;
                    memcpy(x.pv, prev[i].pv, sizeof x.pv);
                    x.best = x.pvlen ? x.pv[0] : MOVE_NONE;
                    x.proven = val_is_proven_decisive(x.score);
                    o->on_iter(o->on_iter_ctx, &x);
                }
            }
        }
        if (s.aborted || r->proven) break;
    }
    halt = 1;
    for (int i = 0; i < nh; i++) pthread_join(help[i]->th, NULL);
    uint64_t nodes = ab_think_nodes(&s, help, nh);
    for (int i = 0; i < nh; i++) {
        free(help[i]->s.heur_cont);
        free(help[i]->s.heur_ecache);
        free(help[i]);
    }
    free(own_cont);
    free(ecache);
    free(help);
    free(lbuf);
    if (r->best == MOVE_NONE) r->best = ab_any_move(v, pos);   /* stopped at once: still a move */
    r->nodes = nodes;
    r->time_ms = gsw_now_ms() - t0;
    r->aborted = s.aborted;
    return GSW_OK;
}

/* df-pn (see dfpn.h): the MID recursion of Nagai's depth-first proof-number
 * search over proof (pn) and disproof (dn) numbers for one goal, seen from
 * the root's side to move (the attacker): at attacker nodes (OR) pn is the
 * least child pn and dn the sum of the children's; at defender nodes (AND)
 * the other way round. Thresholds follow Pawlewicz and Lew's 1+epsilon trick.
 * Positions live in a bounded table (buckets of four, least work evicted). */
#include "core/dfpn.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"

typedef struct dfpn_entry {
    uint64_t key;
    uint32_t pn, dn;
    uint64_t wh;   /* the work (low 48 bits; 0: an empty slot) and, for a settled
                      node, the height of its proof or disproof (high 16) */
} dfpn_entry_t;

#define WH_WORK(e) ((e)->wh & 0xffffffffffffull)
#define WH_HEIGHT(e) ((int)((e)->wh >> 48))

#define DFPN_BUCKET 4
#define DFPN_MAX_DEPTH 4096

typedef struct dfpn {
    const gv_t *v;
    const game_ops_t *O;
    dfpn_table_t *t, own;
    dfpn_entry_t *tab;
    uint64_t mask;             /* buckets - 1 */
    uint64_t used;
    uint64_t nodes, limit;
    int no_best;              /* skip the proving move at the root */
    const gsw_oracle_t *oracle;
    double deadline;
    gsw_flag_t *stop;
    int aborted;
    double eps;
    int root_turn;             /* the attacker */
    val_t T;                   /* the goal: the attacker's value >= T */
    uint64_t salt;             /* per goal and attacker: an entry answers "does this run's
                                  attacker reach this run's goal?", so a table kept over a
                                  batch must not read it for the other side or goal */
    int max_plies;             /* a depth-limited goal: win within max_plies plies (0: none) */
    int defend;                /* the root's side to move defends */
    int rep;                   /* repetitions looked for (the game has them, no depth limit) */
    int count;                 /* the game's move-count rule applies (dfpn_options_t.count) */
    int path_len;
    int cap;                   /* tree extraction: below this depth a node the table settles is a
                                  search leaf (INT_MAX: none) */
    int tree_max;              /* tree extraction: the most nodes (INT_MAX: no limit) */
    int cut;                   /* search leaves in the tree built last */
    void (*progress)(void *ctx, const dfpn_progress_t *p);
    void *progress_ctx;
    double t0, next_progress;
    const char *phase;
    const uint64_t *history;   /* the line before the root */
    int nhistory;
    uint64_t path[DFPN_MAX_DEPTH];   /* pos_hash of the positions on the line (games with repetitions);
                                        last, so a setup need not clear its 32 KB */
} dfpn_t;

/* A position that repeats one on the current line, by the game's rule:
 * 1 proven, -1 disproven, 0 not a repetition; *at (may be NULL) gets the
 * line index of the position it repeats. */
static int dfpn_repeats(dfpn_t *d, const void *pos, int attacker, int *at)
{
    if (!d->rep) return 0;
    uint64_t h = d->O->pos_hash(d->v, pos);
    for (int i = d->path_len - 1; i >= 0; i--)
        if (d->path[i] == h) {
            val_t rv;
            if (!d->O->repetition(d->v, pos, &rv)) return 0;
            if (at) *at = i;
            return (attacker ? rv >= d->T : rv <= -d->T) ? 1 : -1;
        }
    return 0;
}

/* The line starts with the positions before the root. */
static void dfpn_line_reset(dfpn_t *d)
{
    d->path_len = 0;
    if (d->rep)
        for (int i = 0; i < d->nhistory; i++) d->path[d->path_len++] = d->history[i];
}

static void dfpn_push(dfpn_t *d, const void *pos)
{
    if (d->rep && d->path_len < DFPN_MAX_DEPTH) d->path[d->path_len++] = d->O->pos_hash(d->v, pos);
}

static void dfpn_pop(dfpn_t *d)
{
    if (d->rep && d->path_len > 0) d->path_len--;
}

/* Sums stop one short of infinity: only a proof (or disproof) is infinite.
 * (Through transpositions and cycles numbers are counted more than once
 * and can grow huge; a huge number must not read as a settled node.) */
static inline uint32_t sat_add(uint32_t a, uint32_t b)
{
    if (a >= DFPN_INF || b >= DFPN_INF) return DFPN_INF;
    uint64_t s = (uint64_t)a + b;
    return s >= DFPN_INF ? DFPN_INF - 1 : (uint32_t)s;
}

/* The goal at a node depth plies below the root: the attacker's value
 * >= T there (a depth-limited goal: a win within the plies left). */
static inline val_t dfpn_T(const dfpn_t *d, int depth)
{
    return d->max_plies ? val_win(d->max_plies - depth) : d->T;
}

/* A node's key; under a depth limit the plies left are part of it (a
 * position's answer depends on them). */
static uint64_t dfpn_key(dfpn_t *d, const void *pos, int depth)
{
    int sym = 0;
    uint64_t k = d->O->tt_key ? d->O->tt_key(d->v, pos, &sym) : d->O->pos_hash(d->v, pos);
    if (d->max_plies) k ^= (uint64_t)(d->max_plies - depth + 1) * 0xff51afd7ed558ccdull;
    if (d->count) k ^= game_count_key(game_count_left(d->v, pos));   /* (the rule: so are the clock's) */
    return k ^ d->salt;   /* any value: an empty slot is work 0, not key 0 */
}

static dfpn_entry_t *dfpn_bucket(dfpn_t *d, uint64_t key)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 17;
    return d->tab + (h & d->mask) * DFPN_BUCKET;
}

/* The table's entry for key: its numbers, and (h, may be NULL) the
 * height of a settled node's proof or disproof. */
static int dfpn_lookup(dfpn_t *d, uint64_t key, uint32_t *pn, uint32_t *dn, int *h)
{
    dfpn_entry_t *b = dfpn_bucket(d, key);
    for (int i = 0; i < DFPN_BUCKET; i++)
        if (b[i].key == key && b[i].wh) {
            *pn = b[i].pn;
            *dn = b[i].dn;
            if (h) *h = WH_HEIGHT(&b[i]);
            return 1;
        }
    return 0;
}

/* Store a node's numbers; h: a settled node's height (the longest line of
 * its proof or disproof, as the search found it). */
static void dfpn_store(dfpn_t *d, uint64_t key, uint32_t pn, uint32_t dn, uint64_t work, int h)
{
    dfpn_entry_t *b = dfpn_bucket(d, key), *victim = NULL;
    for (int i = 0; i < DFPN_BUCKET; i++) {
        if (b[i].key == key && b[i].wh) { victim = &b[i]; break; }
        if (!b[i].wh) { if (!victim || victim->wh) victim = &b[i]; continue; }
        /* keep proofs and disproofs over open nodes, then the most work */
        uint64_t w = b[i].pn && b[i].dn ? WH_WORK(&b[i]) : WH_WORK(&b[i]) + (1ull << 40);
        uint64_t vw = !victim ? UINT64_MAX : !victim->wh ? 0 : victim->pn && victim->dn ? WH_WORK(victim) : WH_WORK(victim) + (1ull << 40);
        if (w < vw) victim = &b[i];
    }
    if (!victim->wh) d->used++;
    victim->key = key;
    victim->pn = pn;
    victim->dn = dn;
    if (work == 0) work = 1;   /* work 0 marks an empty slot */
    if (work > 0x7fffffffffffull) work = 0x7fffffffffffull;
    if (h < 0 || (pn && dn)) h = 0;
    if (h > 0xffff) h = 0xffff;
    victim->wh = work | (uint64_t)h << 48;
}

/* The attacker's last ply under a depth limit: does one of mv[0..n-1] end
 * the game in its win? (Games with pos_in_check: only checks can.) */
static int dfpn_wins_now(dfpn_t *d, const void *pos, const move_t *mv, int n, int depth)
{
    const game_ops_t *O = d->O;
    void (*play)(const gv_t *, void *, move_t) = O->ab_play && O->ab_expand ? O->ab_play : O->play;
    GSW_POSBUF child[GSW_MAX_POS];
    val_t tv, T = dfpn_T(d, depth + 1);
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        play(d->v, child, mv[i]);
        if (O->pos_in_check && !O->pos_in_check(d->v, child)) continue;
        if (O->terminal(d->v, child, &tv) && tv <= -T) return 1;
    }
    return 0;
}

/* Settle pos (depth plies below the root) without search if its result or
 * its bounds decide the goal: 1 proven, -1 disproven, 0 open (mv / *n then
 * hold the moves to search). */
static int dfpn_static(dfpn_t *d, const void *pos, int attacker, int depth, move_t *mv, int *n)
{
    const game_ops_t *O = d->O;
    val_t tv, T = dfpn_T(d, depth);
    *n = 0;
    if (O->terminal(d->v, pos, &tv)) return (attacker ? tv >= T : tv <= -T) ? 1 : -1;
    if (d->count && game_count_left(d->v, pos) == 0)   /* the move-count rule's draw */
        return (attacker ? VAL_DRAW >= T : VAL_DRAW <= -T) ? 1 : -1;
    int left = d->max_plies ? d->max_plies - depth : INT_MAX;   /* plies left to win in */
    if (left <= 0) return -1;
    val_t lo = -VAL_INF, hi = VAL_INF;
    if (d->oracle && d->oracle->probe(d->oracle->ctx, d->v, pos, &lo, &hi)) {   /* a database position */
        if (attacker ? lo >= T : hi <= -T) return 1;
        if (attacker ? hi < T : lo > -T) return -1;
    }
    if (O->ab_expand) {
        *n = O->ab_expand(d->v, pos, mv, &lo, &hi);
        if (attacker) {
            if (lo >= T) return 1;
            if (hi < T) return -1;
        } else {
            if (hi <= -T) return 1;
            if (lo > -T) return -1;
        }
        if (*n == 0) *n = O->moves(d->v, pos, mv);   /* bounds undecided: search them all */
    } else {
        *n = O->moves(d->v, pos, mv);
    }
    if (left == 1 && attacker) return dfpn_wins_now(d, pos, mv, *n, depth) ? 1 : -1;
    return 0;
}

static void dfpn_report(dfpn_t *d, double now, int nodes)
{
    dfpn_progress_t p = { .phase = d->phase, .nodes = d->nodes, .ms = now - d->t0, .tree_nodes = nodes };
    d->next_progress = now + 1000;
    d->progress(d->progress_ctx, &p);
}

static void dfpn_budget(dfpn_t *d)
{
    if (d->limit && d->nodes >= d->limit) d->aborted = 1;   /* exact, even for tiny budgets */
    if ((d->nodes & 0x3ff) == 0 && !d->aborted) {
        double now = d->deadline > 0 || d->progress ? gsw_now_ms() : 0;
        if ((d->stop && *d->stop) || (d->deadline > 0 && now >= d->deadline)) d->aborted = 1;
        if (d->progress && now >= d->next_progress) dfpn_report(d, now, -1);
    }
}

/* A child's numbers: from the table, else from its static value (stored).
 * Under a depth limit an open node starts from its mobility: the side to
 * move's moves are the proofs (or disproofs) its opponent must find. */
static void dfpn_child(dfpn_t *d, const void *child, uint64_t key, int attacker, int depth, uint32_t *pn, uint32_t *dn,
                       int *h)
{
    *h = 0;
    if (dfpn_lookup(d, key, pn, dn, h)) return;
    move_t mv[GSW_MAX_MOVES];
    int n;
    d->nodes++;
    int st = dfpn_static(d, child, attacker, depth, mv, &n);
    *pn = st > 0 ? 0 : st < 0 ? DFPN_INF : 1;
    *dn = st < 0 ? 0 : st > 0 ? DFPN_INF : 1;
    if (st) dfpn_store(d, key, *pn, *dn, 1, 0);
    else if (d->max_plies && n > 1) {
        if (attacker) *dn = (uint32_t)n;
        else *pn = (uint32_t)n;
    }
}

/* *ghi: INT_MAX, or the lowest line index of a position above this node
 * that a repetition settling part of the result repeats: the result then
 * depends on the line that led here and never goes into the table as
 * final. (A repetition of this node or of one below it does not count: the
 * result is the node's value with the node as the root, which is the
 * position's value.) A proof needs only its proven child at an OR node,
 * a disproof only its disproven child at an AND node, so only theirs count. */
static void dfpn_mid(dfpn_t *d, const void *pos, uint64_t key, int depth, uint32_t thpn, uint32_t thdn,
                     uint32_t *opn, uint32_t *odn, int *ghi, int *oh)
{
    *ghi = INT_MAX;
    *oh = 0;
    const game_ops_t *O = d->O;
    const gv_t *v = d->v;
    d->nodes++;
    dfpn_budget(d);
    int attacker = O->pos_turn(v, pos) == d->root_turn;
    move_t mv[GSW_MAX_MOVES];
    int n;
    int st = dfpn_static(d, pos, attacker, depth, mv, &n);
    if (st || depth >= DFPN_MAX_DEPTH) {
        *opn = st > 0 ? 0 : DFPN_INF;
        *odn = st > 0 ? DFPN_INF : 0;
        if (!st) *opn = *odn = DFPN_INF / 2;   /* too deep: give up on this line */
        else dfpn_store(d, key, *opn, *odn, 1, 0);
        return;
    }
    if (n <= 0) {   /* not over, yet no move: nothing to prove with */
        *opn = *odn = DFPN_INF / 2;
        return;
    }
    if (O->ab_order) O->ab_order(v, pos, mv, n);
    uint64_t ck[n];
    uint32_t cpn[n], cdn[n];
    int cghi[n], ch[n];   /* ch: a settled child's height */
    GSW_POSBUF child[GSW_MAX_POS];
    void (*play)(const gv_t *, void *, move_t) = O->ab_play && O->ab_expand ? O->ab_play : O->play;
    const int self = d->path_len;   /* this node's index on the line */
    dfpn_push(d, pos);
    /* the children's table buckets are fetched together: the search waits
     * on table misses, and one at a time they would not overlap */
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        play(v, child, mv[i]);
        ck[i] = dfpn_key(d, child, depth + 1);
        __builtin_prefetch(dfpn_bucket(d, ck[i]));
    }
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        play(v, child, mv[i]);
        int at = INT_MAX;
        int rep = dfpn_repeats(d, child, !attacker, &at);
        cghi[i] = rep ? at : INT_MAX;
        ch[i] = 0;
        if (rep) { cpn[i] = rep > 0 ? 0 : DFPN_INF; cdn[i] = rep > 0 ? DFPN_INF : 0; }
        else dfpn_child(d, child, ck[i], !attacker, depth + 1, &cpn[i], &cdn[i], &ch[i]);
    }
    uint64_t n0 = d->nodes;
    uint32_t pn, dn;
    for (;;) {
        /* (children other than the one searched keep their numbers from the
         * last look: re-reading every child each round costs a table miss each) */
        /* the node's numbers, and the most promising child with the runner-up:
         * at an OR node the least pn (dn adds up), at an AND node the least dn */
        int best = -1;
        uint32_t bval = DFPN_INF, second = DFPN_INF, sum = 0;
        for (int i = 0; i < n; i++) {
            uint32_t val = attacker ? cpn[i] : cdn[i];
            sum = sat_add(sum, attacker ? cdn[i] : cpn[i]);
            if (best < 0 || val < bval) { second = bval; best = i; bval = val; }
            else if (val < second) second = val;
        }
        if (best < 0) best = 0;
        pn = attacker ? bval : sum;
        dn = attacker ? sum : bval;
        if (pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || d->aborted) break;
        uint32_t cthpn, cthdn;
        uint32_t lim = second >= DFPN_INF ? DFPN_INF : (uint32_t)(second * (1.0 + d->eps)) + 1;
        if (attacker) {
            cthpn = thpn < lim ? thpn : lim;
            if (cthpn <= cpn[best]) cthpn = cpn[best] + 1;
            cthdn = thdn >= DFPN_INF ? DFPN_INF : thdn - dn + cdn[best];
        } else {
            cthdn = thdn < lim ? thdn : lim;
            if (cthdn <= cdn[best]) cthdn = cdn[best] + 1;
            cthpn = thpn >= DFPN_INF ? DFPN_INF : thpn - pn + cpn[best];
        }
        memcpy(child, pos, O->pos_size);
        play(v, child, mv[best]);
        int cg;
        dfpn_mid(d, child, ck[best], depth + 1, cthpn, cthdn, &cpn[best], &cdn[best], &cg, &ch[best]);
        cghi[best] = cg;   /* (its numbers now come from this search alone) */
        uint32_t tp, td;
        if (!d->aborted && cg == INT_MAX && !dfpn_lookup(d, ck[best], &tp, &td, NULL))   /* evicted meanwhile */
            dfpn_store(d, ck[best], cpn[best], cdn[best], 1, ch[best]);
    }
    dfpn_pop(d);
    /* what the result rests on: a proof at an OR node (a disproof at an
     * AND node) on its least dependent settling child, else every child */
    int one = attacker ? pn == 0 : dn == 0;
    int dep = one ? -1 : INT_MAX;
    /* a settled node's height: one more than its lowest settling child's
     * where one child settles it, else than its highest child's; each child
     * was settled before it, so heights fall strictly along a proof and
     * following them never goes round a cycle */
    int h = one ? INT_MAX : 0;
    for (int i = 0; i < n; i++) {
        if (one) {
            if ((attacker ? cpn[i] : cdn[i]) == 0) {
                if (cghi[i] > dep) dep = cghi[i];
                if (ch[i] < h) h = ch[i];
            }
        } else {
            if (cghi[i] < dep) dep = cghi[i];
            if (ch[i] > h) h = ch[i];
        }
    }
    *oh = h == INT_MAX ? 0 : h + 1;
    if (dep >= self) dep = INT_MAX;   /* repetitions of this node or below it: the position's own value */
    *ghi = dep;
    /* a path-dependent result is kept only as open numbers */
    if (!d->aborted && !(dep != INT_MAX && (pn == 0 || dn == 0))) dfpn_store(d, key, pn, dn, d->nodes - n0 + 1, *oh);
    *opn = pn;
    *odn = dn;
}

int dfpn_table_init(dfpn_table_t *t, size_t mb, err_t *err)
{
    memset(t, 0, sizeof *t);
    uint64_t want = (uint64_t)(mb ? mb : 64) * 1024 * 1024 / (sizeof(dfpn_entry_t) * DFPN_BUCKET), buckets = 1;
    while (buckets * 2 <= want) buckets *= 2;
    size_t bytes = buckets * DFPN_BUCKET * sizeof(dfpn_entry_t);
    t->e = table_map(bytes);
    if (!t->e) return err_set(err, GSW_EFAIL, "df-pn: cannot allocate a %zu MB table", mb);
    t->mask = buckets - 1;
    return GSW_OK;
}

void dfpn_table_clear(dfpn_table_t *t)
{
    if (t->e) table_zero(t->e, (t->mask + 1) * DFPN_BUCKET * sizeof(dfpn_entry_t));
    t->used = 0;
}

void dfpn_table_free(dfpn_table_t *t)
{
    if (t->e) table_unmap(t->e, (t->mask + 1) * DFPN_BUCKET * sizeof(dfpn_entry_t));
    memset(t, 0, sizeof *t);
}

static int dfpn_setup(dfpn_t *d, const gv_t *v, const dfpn_options_t *o, err_t *err)
{
    memset(d, 0, offsetof(dfpn_t, path));
    d->v = v;
    d->O = v->ops;
    if (o && o->table) d->t = o->table;
    else {
        if (dfpn_table_init(&d->own, o ? o->hash_mb : 0, err)) return err->code;
        d->t = &d->own;
    }
    if (table_claim(d->t->owner, sizeof d->t->owner, v)) dfpn_table_clear(d->t);
    d->tab = d->t->e;
    d->mask = d->t->mask;
    d->used = d->t->used;
    d->eps = o && o->epsilon > 0 ? o->epsilon : 0.25;
    d->history = o ? o->history : NULL;
    if (o && o->max_plies > 0) d->max_plies = o->max_plies < DFPN_MAX_DEPTH - 1 ? o->max_plies : DFPN_MAX_DEPTH - 1;
    d->defend = o && o->defend;
    d->rep = d->O->repetition && !d->max_plies;
    d->nhistory = o && o->history ? (o->nhistory < DFPN_MAX_DEPTH / 2 ? o->nhistory : DFPN_MAX_DEPTH / 2) : 0;
    d->cap = INT_MAX;
    d->tree_max = INT_MAX;
    d->t0 = gsw_now_ms();
    d->phase = "searching";
    if (o) {
        d->limit = o->node_limit;
        d->no_best = o->no_best;
        d->oracle = o->oracle;
        d->count = o->count && d->O->count_rule && d->O->pos_reversible;
        d->stop = o->stop;
        if (o->time_limit_ms > 0) d->deadline = d->t0 + o->time_limit_ms;
        d->progress = o->progress;
        d->progress_ctx = o->progress_ctx;
        d->next_progress = d->t0 + 1000;
    }
    return GSW_OK;
}

static int tree_status(dfpn_t *d, const void *pos, uint64_t key, int depth, int *h);

/* One proof over an existing setup. */
static void dfpn_run(dfpn_t *d, const void *pos, dfpn_goal_t goal, dfpn_result_t *r)
{
    const game_ops_t *O = d->O;
    d->root_turn = O->pos_turn(d->v, pos);
    if (d->defend) d->root_turn = !d->root_turn;   /* the attacker moves second */
    d->T = goal == DFPN_GOAL_WIN ? 1 : 0;
    d->salt = (goal == DFPN_GOAL_WIN ? 0 : 0x5bd1e9955bd1e995ull) ^ (uint64_t)(d->root_turn + 1) * 0xc2b2ae3d27d4eb4full;
    if (d->max_plies) d->salt ^= 0x27d4eb2f165667c5ull;   /* "within D plies" is another goal */
    uint64_t key = dfpn_key(d, pos, 0);
    uint32_t pn, dn;
    int ghi, h;
    dfpn_line_reset(d);
    dfpn_mid(d, pos, key, 0, DFPN_INF, DFPN_INF, &pn, &dn, &ghi, &h);
    r->pn = pn;
    r->dn = dn;
    r->status = d->aborted ? DFPN_UNKNOWN : pn == 0 ? DFPN_PROVEN : dn == 0 ? DFPN_DISPROVEN : DFPN_UNKNOWN;
    r->best = MOVE_NONE;
    if (r->status == DFPN_PROVEN && !d->no_best && !d->defend) {   /* a proving move: a child proven for the attacker */
        move_t mv[GSW_MAX_MOVES];
        int n = O->moves(d->v, pos, mv);
        GSW_POSBUF child[GSW_MAX_POS];
        dfpn_line_reset(d);
        dfpn_push(d, pos);
        /* pass 0: a child the table holds proven, or a move that ends the
         * game well enough; pass 1 only then searches children in turn (it
         * searched the first ones, unsettled, without a limit: the Opera
         * game's mate in 2, proven in 50 nodes, then ran for ever on 1. Qb7) */
        for (int pass = 0; pass < 2 && r->best == MOVE_NONE; pass++)
            for (int i = 0; i < n && r->best == MOVE_NONE; i++) {
                memcpy(child, pos, O->pos_size);
                O->play(d->v, child, mv[i]);
                val_t tv;
                if (O->terminal(d->v, child, &tv)) {
                    if (pass == 0 && tv <= -dfpn_T(d, 1)) r->best = mv[i];   /* the move ends the game well enough */
                    continue;
                }
                uint64_t ck = dfpn_key(d, child, 1);
                if (pass == 0) {
                    uint32_t pn, dn;
                    int h;
                    if (!dfpn_repeats(d, child, O->pos_turn(d->v, child) == d->root_turn, NULL)
                        && dfpn_lookup(d, ck, &pn, &dn, &h) && pn == 0)
                        r->best = mv[i];
                } else if (tree_status(d, child, ck, 1, NULL) > 0) r->best = mv[i];
            }
        dfpn_line_reset(d);
    }
}

static void dfpn_finish(dfpn_t *d, dfpn_result_t *r, double t0)
{
    r->nodes = d->nodes;
    r->time_ms = gsw_now_ms() - t0;
    r->tt_entries = (d->mask + 1) * DFPN_BUCKET;
    r->tt_used = d->used;
    d->t->used = d->used;
    if (d->t == &d->own) dfpn_table_free(&d->own);
}

int dfpn_prove(const gv_t *v, const void *pos, dfpn_goal_t goal, const dfpn_options_t *o, dfpn_result_t *r,
               err_t *err)
{
    memset(r, 0, sizeof *r);
    double t0 = gsw_now_ms();
    dfpn_t d;
    if (dfpn_setup(&d, v, o, err)) return err->code;
    dfpn_run(&d, pos, goal, r);
    r->runs = 1;
    dfpn_finish(&d, r, t0);
    return GSW_OK;
}

int dfpn_solve(const gv_t *v, const void *pos, const dfpn_options_t *o, dfpn_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    double t0 = gsw_now_ms();
    dfpn_t d;
    if (dfpn_setup(&d, v, o, err)) return err->code;
    dfpn_result_t w;
    memset(&w, 0, sizeof w);
    dfpn_run(&d, pos, DFPN_GOAL_WIN, &w);
    r->runs = 1;
    if (w.status == DFPN_PROVEN) {
        *r = w;
        r->outcome = OUTCOME_WIN;
    } else if (w.status == DFPN_DISPROVEN) {
        dfpn_result_t dr;
        memset(&dr, 0, sizeof dr);
        dfpn_run(&d, pos, DFPN_GOAL_DRAW, &dr);
        *r = dr;
        r->runs = 2;
        r->outcome = dr.status == DFPN_PROVEN ? OUTCOME_DRAW : dr.status == DFPN_DISPROVEN ? OUTCOME_LOSS : OUTCOME_UNKNOWN;
        if (r->outcome == OUTCOME_LOSS) r->best = MOVE_NONE;
    } else {
        *r = w;
        r->outcome = OUTCOME_UNKNOWN;
    }
    r->runs = w.status == DFPN_DISPROVEN ? 2 : 1;
    dfpn_finish(&d, r, t0);
    return GSW_OK;
}

/* ---- proof trees ---- */

const char *proof_result_text(dfpn_goal_t goal, dfpn_status_t result)
{
    if (goal == DFPN_GOAL_WIN) return result == DFPN_PROVEN ? "a win" : "at most a draw";
    return result == DFPN_PROVEN ? "at least a draw" : "a loss";
}

void proof_tree_free(proof_tree_t *t)
{
    free(t->node);
    memset(t, 0, sizeof *t);
}

/* Node i at pos and its subtree (i + 1 ..): moves legal, choices of one. */
static int tree_check_node(const gv_t *v, const void *pos, const proof_tree_t *t, int i, int depth, err_t *err)
{
    const game_ops_t *O = v->ops;
    const proof_node_t *p = &t->node[i];
    if (depth > DFPN_MAX_DEPTH) return err_set(err, GSW_EINPUT, "proof tree: deeper than any line");
    if (p->choice && p->nchildren != 1) return err_set(err, GSW_EINPUT, "proof tree: node %d chooses %d children", i, p->nchildren);
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    GSW_POSBUF child[GSW_MAX_POS];
    int k = i + 1;
    for (int c = 0; c < p->nchildren; c++) {
        if (k >= t->n) return err_set(err, GSW_EINPUT, "proof tree: node %d's children run past the tree", i);
        int legal = 0;
        for (int j = 0; j < n && !legal; j++) legal = mv[j] == t->node[k].move;
        if (!legal) return err_set(err, GSW_EINPUT, "proof tree: node %d's move is not legal where it stands", k);
        memcpy(child, pos, O->pos_size);
        O->play(v, child, t->node[k].move);
        if (tree_check_node(v, child, t, k, depth + 1, err)) return err->code;
        k += t->node[k].size;
    }
    return GSW_OK;
}

int proof_tree_check(const gv_t *v, const void *pos, const proof_tree_t *t, err_t *err)
{
    if (t->n < 1 || t->node[0].size != t->n) return err_set(err, GSW_EINPUT, "proof tree: its sizes do not add up");
    return tree_check_node(v, pos, t, 0, 0, err);
}

static int tree_add(proof_tree_t *t, move_t m, int parent)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        proof_node_t *nn = realloc(t->node, (size_t)cap * sizeof *nn);
        if (!nn) return -1;
        t->node = nn;
        t->cap = cap;
    }
    proof_node_t *p = &t->node[t->n];
    memset(p, 0, sizeof *p);
    p->move = m;
    p->parent = parent;
    return t->n++;
}

/* The status of a position for the run's goal: 1 proven, -1 disproven
 * (searching again if the table lost it), 0 when the budget ran out; *h
 * (may be NULL): the height of its proof or disproof. */
static int tree_status(dfpn_t *d, const void *pos, uint64_t key, int depth, int *h)
{
    uint32_t pn, dn;
    int hh = 0;
    int rep = dfpn_repeats(d, pos, d->O->pos_turn(d->v, pos) == d->root_turn, NULL);
    if (h) *h = 0;
    if (rep) return rep;
    if (!dfpn_lookup(d, key, &pn, &dn, &hh) || (pn && dn)) {
        int ghi;   /* (without a depth limit a subtree's own search starts at depth 0) */
        dfpn_mid(d, pos, key, d->max_plies ? depth : 0, DFPN_INF, DFPN_INF, &pn, &dn, &ghi, &hh);
        if (d->aborted) return 0;
    }
    if (h) *h = hh;
    return pn == 0 ? 1 : dn == 0 ? -1 : 0;
}

/* The table's work on a settled child (1 when it holds none). */
static uint64_t tree_work(dfpn_t *d, uint64_t key)
{
    dfpn_entry_t *b = dfpn_bucket(d, key);
    for (int e = 0; e < DFPN_BUCKET; e++) if (b[e].key == key && b[e].wh) return WH_WORK(&b[e]);
    return 1;
}

static int tree_build(dfpn_t *d, proof_tree_t *t, const void *pos, move_t m, int parent, int want, int depth);

/* A node where every child must hold the result (the defender's in a
 * proof, the attacker's in a disproof). -3: one does not, on this line. */
static int tree_all(dfpn_t *d, proof_tree_t *t, const void *pos, int id, const move_t *mv, int n, int want, int depth)
{
    const game_ops_t *O = d->O;
    GSW_POSBUF child[GSW_MAX_POS];
    void (*play)(const gv_t *, void *, move_t) = O->ab_play && O->ab_expand ? O->ab_play : O->play;
    int size = 1;
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, O->pos_size);
        play(d->v, child, mv[i]);
        int st = tree_status(d, child, dfpn_key(d, child, depth + 1), depth + 1, NULL);
        if (!st) return -2;
        if (st != want) return -3;
        int c = t->n;
        int rc = tree_build(d, t, child, mv[i], id, want, depth + 1);
        if (rc) return rc;
        t->node[id].nchildren++;
        size += t->node[c].size;
    }
    t->node[id].size = size;
    return 0;
}

/* A node where one child carries the result: the one with the lowest
 * proof (heights fall along a proof, so the tree reaches its leaves without
 * going round a cycle), then the least work. Children the table holds
 * settled come before any that must be searched. A child settled there can
 * still lead back to a position on this line where the heights were lost
 * (a table entry overwritten): such a child is dropped and the next one
 * tried. -3: none holds on this line. */
static int tree_choose(dfpn_t *d, proof_tree_t *t, const void *pos, int id, const move_t *mv, int n, int want,
                       int depth)
{
    const game_ops_t *O = d->O;
    GSW_POSBUF child[GSW_MAX_POS];
    void (*play)(const gv_t *, void *, move_t) = O->ab_play && O->ab_expand ? O->ab_play : O->play;
    uint64_t rank[GSW_MAX_MOVES];   /* height (high bits), then work; UINT64_MAX: not a candidate */
    uint8_t tried[GSW_MAX_MOVES] = { 0 };
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: children settled in the table (no search); pass 1: the rest, searched */
        int nc = 0;
        for (int i = 0; i < n; i++) {
            rank[i] = UINT64_MAX;
            if (tried[i]) continue;
            memcpy(child, pos, O->pos_size);
            play(d->v, child, mv[i]);
            uint64_t k = dfpn_key(d, child, depth + 1);
            int rep = dfpn_repeats(d, child, O->pos_turn(d->v, child) == d->root_turn, NULL);
            int st, h = 0;
            if (rep) st = rep;
            else if (pass == 0) {
                uint32_t pn, dn;
                if (!dfpn_lookup(d, k, &pn, &dn, &h) || (pn && dn)) continue;
                st = pn == 0 ? 1 : -1;
            } else {
                st = tree_status(d, child, k, depth + 1, &h);
                if (!st) return -2;
            }
            tried[i] = 1;
            if (st != want) continue;
            uint64_t w = rep ? 1 : tree_work(d, k);
            rank[i] = (uint64_t)h << 47 | (w < (1ull << 47) ? w : (1ull << 47) - 1);
            nc++;
        }
        while (nc-- > 0) {
            int pick = -1;
            for (int i = 0; i < n; i++)
                if (rank[i] != UINT64_MAX && (pick < 0 || rank[i] < rank[pick])) pick = i;
            rank[pick] = UINT64_MAX;
            memcpy(child, pos, O->pos_size);
            play(d->v, child, mv[pick]);
            int c = t->n, tdepth = t->depth;
            int rc = tree_build(d, t, child, mv[pick], id, want, depth + 1);
            if (rc == -3) {   /* it fails on this line: undo it, try the next */
                t->n = c;
                t->depth = tdepth;
                continue;
            }
            if (rc) return rc;
            t->node[id].nchildren = 1;
            t->node[id].size = 1 + t->node[c].size;
            return 0;
        }
    }
    return -3;
}

/* Add pos (status want: 1 proven / -1 disproven) and its subtree. */
static int tree_build(dfpn_t *d, proof_tree_t *t, const void *pos, move_t m, int parent, int want, int depth)
{
    const game_ops_t *O = d->O;
    int id = tree_add(t, m, parent);
    if (id < 0) return -1;
    if (depth > t->depth) t->depth = depth;
    int attacker = O->pos_turn(d->v, pos) == d->root_turn;
    move_t mv[GSW_MAX_MOVES];
    int n;
    if (dfpn_repeats(d, pos, attacker, NULL) || dfpn_static(d, pos, attacker, depth, mv, &n)) {
        t->node[id].leaf = 1;   /* over, settled by the game's bounds, or a repetition */
        t->node[id].size = 1;
        /* a side that chooses and wins at once: its winning move is the proof, shown */
        val_t tv, Tc = dfpn_T(d, depth + 1);
        if ((want > 0) == attacker && !O->terminal(d->v, pos, &tv) && (!d->max_plies || depth < d->max_plies)) {
            GSW_POSBUF child[GSW_MAX_POS];
            int k = O->moves(d->v, pos, mv);
            for (int i = 0; i < k; i++) {
                memcpy(child, pos, O->pos_size);
                O->play(d->v, child, mv[i]);
                if (!O->terminal(d->v, child, &tv) || !(attacker ? tv <= -Tc : tv < Tc)) continue;
                int c = tree_add(t, mv[i], id);
                if (c < 0) return -1;
                t->node[c].leaf = 1;
                t->node[c].size = 1;
                t->node[id].leaf = 0;
                t->node[id].choice = 1;
                t->node[id].nchildren = 1;
                t->node[id].size = 2;
                if (depth + 1 > t->depth) t->depth = depth + 1;
                break;
            }
        }
        return 0;
    }
    if (depth >= d->cap) {   /* deep enough: a node the table settles stays a leaf, settled by search */
        uint32_t pn, dn;
        if (dfpn_lookup(d, dfpn_key(d, pos, depth), &pn, &dn, NULL) && (want > 0 ? pn == 0 : dn == 0)) {
            t->node[id].leaf = 2;
            t->node[id].size = 1;
            d->cut++;
            return 0;
        }
    }
    if (t->n > d->tree_max) return -4;
    if (d->progress && (t->n & 0xfff) == 0) {
        double now = gsw_now_ms();
        if (now >= d->next_progress) dfpn_report(d, now, t->n);
    }
    if (d->stop && *d->stop) return -2;
    dfpn_push(d, pos);
    /* the side the result favours picks one child: the attacker in a proof, the defender in a disproof */
    int choose = (want > 0) == attacker;
    t->node[id].choice = (uint8_t)choose;
    int rc = choose ? tree_choose(d, t, pos, id, mv, n, want, depth) : tree_all(d, t, pos, id, mv, n, want, depth);
    dfpn_pop(d);
    return rc;
}

static int tree_error(int b, dfpn_t *d, err_t *err)
{
    if (b == -1) return err_set(err, GSW_EFAIL, "out of memory");
    if (b == -2)
        return err_set(err, GSW_EFAIL, "df-pn: %s while extracting the proof tree",
                       d->stop && *d->stop ? "stopped" : "the budget ran out");
    if (b == -4) return err_set(err, GSW_EFAIL, "df-pn: the proof tree has more than %d nodes", d->tree_max);
    return err_set(err, GSW_EFAIL, "df-pn: inconsistent table while extracting the proof tree");
}

/* The tree of the last run's result (status st) at pos: complete where it
 * fits in tree_max nodes, else expanded to the deepest depth (1, 2, 4, ..)
 * that fits, the nodes below it that the table settles kept as search
 * leaves (leaf 2). 0, or tree_build's error. */
static int tree_extract(dfpn_t *d, proof_tree_t *t, const void *pos, dfpn_goal_t goal, dfpn_status_t st, int tree_max)
{
    proof_tree_t best;
    int have = 0;
    memset(&best, 0, sizeof best);
    d->phase = "extracting the tree";
    for (int cap = 1;; cap *= 2) {
        proof_tree_t cur;
        memset(&cur, 0, sizeof cur);
        cur.goal = goal;
        cur.result = st;
        d->cap = cap >= DFPN_MAX_DEPTH ? INT_MAX : cap;
        d->tree_max = tree_max;
        d->cut = 0;
        dfpn_line_reset(d);
        int b = tree_build(d, &cur, pos, MOVE_NONE, -1, st == DFPN_PROVEN ? 1 : -1, 0);
        if (b == -4 && have) {   /* the last that fitted */
            proof_tree_free(&cur);
            break;
        }
        if (b) {
            proof_tree_free(&cur);
            proof_tree_free(&best);
            return b;
        }
        proof_tree_free(&best);
        best = cur;
        best.searched = d->cut;
        have = 1;
        if (!d->cut || d->cap == INT_MAX) break;
    }
    *t = best;
    return 0;
}

static int tree_max_of(const dfpn_options_t *o)
{
    return o && o->tree_nodes > 0 ? o->tree_nodes : DFPN_TREE_NODES;
}

int dfpn_proof_tree(const gv_t *v, const void *pos, dfpn_goal_t goal, const dfpn_options_t *o, proof_tree_t *t,
                    dfpn_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    memset(t, 0, sizeof *t);
    double t0 = gsw_now_ms();
    dfpn_t d;
    if (dfpn_setup(&d, v, o, err)) return err->code;
    dfpn_run(&d, pos, goal, r);
    r->runs = 1;
    int rc = GSW_OK;
    if (r->status == DFPN_UNKNOWN)
        rc = err_set(err, GSW_EFAIL, "df-pn: %s before the proof", d.stop && *d.stop ? "stopped" : "the budget ran out");
    else {
        int b = tree_extract(&d, t, pos, goal, r->status, tree_max_of(o));
        if (b) rc = tree_error(b, &d, err);
    }
    dfpn_finish(&d, r, t0);
    return rc;
}

int dfpn_value_tree(const gv_t *v, const void *pos, const dfpn_options_t *o, proof_tree_t *t, dfpn_result_t *r,
                    err_t *err)
{
    memset(r, 0, sizeof *r);
    memset(t, 0, sizeof *t);
    double t0 = gsw_now_ms();
    dfpn_t d;
    if (dfpn_setup(&d, v, o, err)) return err->code;
    dfpn_goal_t goal = DFPN_GOAL_WIN;
    d.phase = "searching: a win?";
    dfpn_run(&d, pos, goal, r);
    r->runs = 1;
    if (r->status == DFPN_DISPROVEN) {
        goal = DFPN_GOAL_DRAW;
        d.phase = "searching: at least a draw?";
        dfpn_run(&d, pos, goal, r);
        r->runs = 2;
    }
    r->outcome = r->status == DFPN_UNKNOWN ? OUTCOME_UNKNOWN
                 : goal == DFPN_GOAL_WIN ? OUTCOME_WIN
                 : r->status == DFPN_PROVEN ? OUTCOME_DRAW : OUTCOME_LOSS;
    if (r->outcome == OUTCOME_LOSS) r->best = MOVE_NONE;
    int rc = GSW_OK;
    if (r->status == DFPN_UNKNOWN)
        rc = err_set(err, GSW_EFAIL, "df-pn: %s before the proof", d.stop && *d.stop ? "stopped" : "the budget ran out");
    else {
        int b = tree_extract(&d, t, pos, goal, r->status, tree_max_of(o));
        if (b) rc = tree_error(b, &d, err);
    }
    t->goal = goal;
    dfpn_finish(&d, r, t0);
    return rc;
}

int proof_tree_line(const proof_tree_t *t, move_t *line, int max)
{
    if (t->n < 1) return 0;
    int *height = calloc((size_t)t->n, sizeof *height);
    if (!height) return 0;
    for (int i = t->n - 1; i > 0; i--) {   /* children follow their parent */
        int p = t->node[i].parent;
        if (p >= 0 && height[i] + 1 > height[p]) height[p] = height[i] + 1;
    }
    int len = 0, i = 0;
    while (len < max && t->node[i].nchildren > 0) {
        int k = i + 1, pick = k;
        for (int c = 0; c < t->node[i].nchildren; c++) {
            if (height[k] > height[pick] || (height[k] == height[pick] && t->node[k].size > t->node[pick].size)) pick = k;
            k += t->node[k].size;
        }
        line[len++] = t->node[pick].move;
        i = pick;
    }
    free(height);
    return len;
}

int dfpn_shortest_win(const gv_t *v, const void *pos, int first, int last, int step, const dfpn_options_t *o,
                      proof_tree_t *t, int *plies, dfpn_result_t *r, err_t *err)
{
    memset(r, 0, sizeof *r);
    if (t) memset(t, 0, sizeof *t);
    *plies = -1;
    if (first < 1 || step < 1 || last >= DFPN_MAX_DEPTH - 1)
        return err_set(err, GSW_EINPUT, "df-pn: a win within %d..%d plies (step %d) cannot be asked", first, last, step);
    double t0 = gsw_now_ms();
    dfpn_t d;
    dfpn_options_t oo = o ? *o : (dfpn_options_t){ 0 };
    oo.max_plies = first;
    if (dfpn_setup(&d, v, &oo, err)) return err->code;
    d.no_best = 1;   /* the tree gives the move */
    int rc = GSW_OK;
    for (int D = first; D <= last; D += step) {
        d.max_plies = D;
        dfpn_result_t rr;
        memset(&rr, 0, sizeof rr);
        dfpn_run(&d, pos, DFPN_GOAL_WIN, &rr);
        r->runs++;
        r->status = rr.status;
        r->pn = rr.pn;
        r->dn = rr.dn;
        if (rr.status == DFPN_UNKNOWN) {
            if (D > first)
                rc = err_set(err, GSW_EFAIL, "df-pn: %s before a win within %d plies was settled (none within %d)",
                             o->stop && *o->stop ? "stopped" : "the budget ran out", D, D - step);
            else
                rc = err_set(err, GSW_EFAIL, "df-pn: %s before a win within %d plies was settled",
                             o->stop && *o->stop ? "stopped" : "the budget ran out", D);
            break;
        }
        if (rr.status == DFPN_DISPROVEN) continue;
        *plies = D;
        if (t) {
            t->goal = DFPN_GOAL_WIN;
            t->result = DFPN_PROVEN;
            dfpn_line_reset(&d);
            int b = tree_build(&d, t, pos, MOVE_NONE, -1, 1, 0);
            if (b) rc = tree_error(b, &d, err);
            if (rc) proof_tree_free(t);
            else if (!d.defend && t->node[0].nchildren == 1) r->best = t->node[1].move;
        }
        break;
    }
    r->outcome = *plies > 0 ? (d.defend ? OUTCOME_LOSS : OUTCOME_WIN) : OUTCOME_UNKNOWN;
    dfpn_finish(&d, r, t0);
    return rc;
}

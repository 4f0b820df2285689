/* Single-agent depth-first search: tries moves in the game's order, prunes
 * positions the game proves hopeless, and remembers positions that failed
 * (keyed by the symmetry-folded tt_key) in a lossy two-way table, so no
 * failed position, or mirror image of one, is searched twice while it stays
 * in the table. A position that met the goal ends the search. */
#include "core/puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"

typedef struct psearch {
    const gv_t *v;
    const game_ops_t *O;
    const puzzle_options_t *o;
    uint64_t *table;          /* failed keys (0 = empty), two per bucket */
    uint64_t mask;            /* buckets - 1 */
    uint64_t max_buckets;     /* the table grows (x4) up to this many buckets */
    uint64_t stores;          /* failures stored since the table last grew */
    unsigned char *pos;       /* one position per depth */
    move_t *mv;               /* GSW_MAX_MOVES per depth */
    move_t path[PUZZLE_MAX_MOVES];
    uint64_t nodes;
    uint64_t round_limit;     /* this round's node budget (0 = none) */
    int order;                /* this round's move order */
    double deadline;
    int stopped;              /* 1: stop for good; 2: end of the round */
} psearch_t;

static uint64_t puzzle_key(psearch_t *s, const void *pos)
{
    if (s->O->tt_key) {
        int sym = 1;
        return s->O->tt_key(s->v, pos, &sym) | 1;
    }
    uint8_t key[GSW_MAX_KEY];
    size_t n = s->O->pos_key(s->v, pos, key, NULL);
    uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ key[i]) * 0x100000001b3ull;
    return h | 1;
}

static int puzzle_failed(const psearch_t *s, uint64_t k)
{
    const uint64_t *b = s->table + 2 * (((k >> 1) * 0x9E3779B97F4A7C15ull >> 20) & s->mask);
    return b[0] == k || b[1] == k;
}

static void puzzle_store(uint64_t *table, uint64_t mask, uint64_t k)
{
    uint64_t *b = table + 2 * (((k >> 1) * 0x9E3779B97F4A7C15ull >> 20) & mask);
    b[1] = b[0];
    b[0] = k;
}

/* Store a failure; once the table has taken as many as it has slots, it
 * grows (small searches stay fast and small, long ones get room). */
static void puzzle_fail(psearch_t *s, uint64_t k)
{
    puzzle_store(s->table, s->mask, k);
    if (++s->stores <= 2 * (s->mask + 1) || (s->mask + 1) * 4 > s->max_buckets) return;
    uint64_t nmask = (s->mask + 1) * 4 - 1;
    uint64_t *t = calloc((nmask + 1) * 2, sizeof *t);
    if (!t) { s->max_buckets = s->mask + 1; return; }   /* no room: stay lossy at this size */
    for (uint64_t i = 0; i < 2 * (s->mask + 1); i++)
        if (s->table[i]) puzzle_store(t, nmask, s->table[i]);
    free(s->table);
    s->table = t;
    s->mask = nmask;
    s->stores = 0;
}

static int puzzle_stop(psearch_t *s)
{
    if (s->stopped) return 1;
    if ((s->o->stop && *s->o->stop) || (s->o->node_limit && s->nodes >= s->o->node_limit)
        || (s->deadline > 0 && (s->nodes & 1023) == 0 && gsw_now_ms() >= s->deadline))
        s->stopped = 1;
    else if (s->round_limit && s->nodes >= s->round_limit)
        s->stopped = 2;
    return s->stopped;
}

/* 1 found (path[0..depth) and on), 0 failed, -1 stopped. */
static int puzzle_dfs(psearch_t *s, int depth)
{
    const game_ops_t *O = s->O;
    size_t ps = O->pos_size;
    unsigned char *pos = s->pos + (size_t)depth * ps;
    s->nodes++;
    if (O->puzzle_goal(s->v, pos)) return depth;
    if (depth + 1 >= PUZZLE_MAX_MOVES || puzzle_stop(s)) return -1;
    if (!s->o->no_prune && O->puzzle_prune && O->puzzle_prune(s->v, pos, NULL, 0)) return 0;
    uint64_t k = puzzle_key(s, pos);
    if (puzzle_failed(s, k)) return 0;
    move_t *mv = s->mv + (size_t)depth * GSW_MAX_MOVES;
    int n = O->moves(s->v, pos, mv);
    if (O->puzzle_order && n > 1) O->puzzle_order(s->v, pos, mv, n, s->order);
    unsigned char *child = pos + ps;
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, ps);
        O->play(s->v, child, mv[i]);
        s->path[depth] = mv[i];
        int r = puzzle_dfs(s, depth + 1);
        if (r != 0) return r;
    }
    puzzle_fail(s, k);
    return 0;
}

int puzzle_hopeless(const gv_t *v, const void *pos, char *reason, size_t n)
{
    if (!v->ops->puzzle_prune) return 0;
    return v->ops->puzzle_prune(v, pos, reason, n);
}

int puzzle_solve(const gv_t *v, const void *pos, const puzzle_options_t *o, puzzle_result_t *r, err_t *err)
{
    const game_ops_t *O = v->ops;
    memset(r, 0, sizeof *r);
    r->solvable = -1;
    if (!O->puzzle_goal) return err_set(err, GSW_EINPUT, "%s is not a one-player puzzle", v->game->name);
    puzzle_options_t dflt = { 0 };
    if (!o) o = &dflt;
    double t0 = gsw_now_ms();
    psearch_t s = { .v = v, .O = O, .o = o };
    if (o->time_limit_ms > 0) s.deadline = t0 + o->time_limit_ms;
    if (!O->puzzle_goal(v, pos) && !o->no_prune && puzzle_hopeless(v, pos, r->reason, sizeof r->reason)) {
        r->solvable = 0;
        r->nodes = 1;
        r->time_ms = gsw_now_ms() - t0;
        return GSW_OK;
    }
    size_t mb = o->table_mb ? o->table_mb : 256;
    uint64_t buckets = 1;
    while (buckets * 2 * 16 <= (uint64_t)mb << 20) buckets *= 2;
    s.max_buckets = buckets;
    if (buckets > (1u << 15)) buckets = 1u << 15;   /* 512 KB to start */
    s.mask = buckets - 1;
    s.table = calloc(buckets * 2, sizeof *s.table);
    s.pos = malloc((size_t)PUZZLE_MAX_MOVES * O->pos_size);
    s.mv = malloc((size_t)PUZZLE_MAX_MOVES * GSW_MAX_MOVES * sizeof *s.mv);
    if (!s.table || !s.pos || !s.mv) {
        free(s.table);
        free(s.pos);
        free(s.mv);
        return err_set(err, GSW_EFAIL, "out of memory for the puzzle search (%zu MB table)", mb);
    }
    memcpy(s.pos, pos, O->pos_size);
    /* rounds: each order in turn, the budget doubling; failures are kept */
    int orders = O->puzzle_order && O->puzzle_orders > 1 ? O->puzzle_orders : 1, found;
    uint64_t budget = 2048;
    for (int round = 0;; round++) {
        s.order = round % orders;
        s.round_limit = orders > 1 && budget < (1ull << 40) ? s.nodes + budget : 0;
        s.stopped = 0;
        found = puzzle_dfs(&s, 0);
        if (found != -1 || s.stopped != 2) break;
        if (round == 0 && O->puzzle_prepare && !o->no_prune) O->puzzle_prepare(v);   /* a long search: worth it */
        if (s.order == orders - 1) budget *= 2;
    }
    if (found > 0 || (found == 0 && O->puzzle_goal(v, pos))) {
        r->solvable = 1;
        r->nmoves = found;
        memcpy(r->moves, s.path, (size_t)found * sizeof *r->moves);
    } else if (found == 0) {
        r->solvable = 0;
        snprintf(r->reason, sizeof r->reason, "exhaustive search: no sequence of moves reaches the goal");
    }
    r->nodes = s.nodes;
    r->time_ms = gsw_now_ms() - t0;
    free(s.table);
    free(s.pos);
    free(s.mv);
    return GSW_OK;
}

void puzzle_u128_text(unsigned __int128 x, char *buf, size_t n)
{
    char tmp[48];
    int i = 47;
    tmp[i] = 0;
    do {
        tmp[--i] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x && i > 0);
    snprintf(buf, n, "%s", tmp + i);
}

/* The prover (solve/prover.h): proof trees obtained, stored, resumed and
 * found again, for the CLI's proof verbs and the workbench. */
#include "solve/prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "db/bddfile.h"
#include "db/proofs.h"
#include "solve/egdb.h"
#include "solve/solver.h"

const char *prover_value_text(const proof_tree_t *t, int attacker, int ascii)
{
    int proven = t->result == DFPN_PROVEN;
    if (t->goal == DFPN_GOAL_WIN) {
        if (proven) return attacker ? "=W" : "=L";
        return attacker ? (ascii ? "<=D" : "\u2264D") : (ascii ? ">=D" : "\u2265D");
    }
    if (proven) return attacker ? (ascii ? ">=D" : "\u2265D") : (ascii ? "<=D" : "\u2264D");
    return attacker ? "=L" : "=W";
}

void prover_node_bounds(dfpn_goal_t goal, dfpn_status_t result, int attacker, val_t *lo, val_t *hi)
{
    int won;   /* 1: the side to move wins, -1: loses; 2 / -2: at least / at most a draw */
    int proven = result == DFPN_PROVEN;
    if (goal == DFPN_GOAL_WIN) won = proven ? (attacker ? 1 : -1) : (attacker ? -2 : 2);
    else won = proven ? (attacker ? 2 : -2) : (attacker ? -1 : 1);
    *lo = won == 1 ? VAL_PROVEN : won == 2 ? VAL_DRAW : val_loss(0);
    *hi = won == -1 ? -VAL_PROVEN : won == -2 ? VAL_DRAW : val_win(1);
}

/* One bound of a child to the mover's (the other way round). */
static val_t bound_up(val_t c)
{
    if (c >= val_win(1)) return val_loss(0);
    if (c <= val_loss(0)) return val_win(1);
    if (c == VAL_PROVEN) return -VAL_PROVEN;     /* a win of unknown distance: a loss of unknown distance */
    if (c == -VAL_PROVEN) return VAL_PROVEN;
    return val_up(c);
}

void prover_bounds_up(val_t clo, val_t chi, val_t *lo, val_t *hi)
{
    *lo = bound_up(chi);
    *hi = bound_up(clo);
}

/* Chess: the mate prover's try before the value's search (prover_tree). */
#define PROVER_MATE_MOVES 3
#define PROVER_MATE_NODES 2000000

/* The endgame databases for po: 1 open, 0 none, -1 error. */
static int prover_egdb(const prover_options_t *po, const gv_t *v, egdb_oracle_t *eg, err_t *err)
{
    if (po->search_only) return 0;
    return egdb_oracle_open_at(eg, v, po->egdb_dir, po->cache ? cache_filename(po->cache) : po->db, err);
}

/* One value of a tree's node stored as the cache's row for pos (bounds
 * merge: a row only ever tightens). */
static int prover_store_one(cache_t *cache, const gv_t *v, const void *pos, val_t lo, val_t hi, err_t *err)
{
    uint8_t key[GSW_MAX_KEY];
    size_t klen = v->ops->pos_key(v, pos, key, NULL);
    cache_entry_t e = { .lo = lo, .hi = hi, .best = MOVE_NONE };
    snprintf(e.solver, sizeof e.solver, "dfpn");
    return cache_put(cache, v->game->name, v->name, key, klen, &e, err);
}

/* What tree t proves of pos and of the positions its first moves lead to,
 * stored as values in the cache, so that every screen and verb that asks
 * the door sees them (the analysis pane, hint, analyze, solve). mate: the
 * mate prover's result (+N mates in N, -N is mated in N; 0: none), which
 * gives exact values where the tree's own are win or loss. */
static int prover_store_values(cache_t *cache, const gv_t *v, const void *pos, const proof_tree_t *t, int mate,
                               err_t *err)
{
    const game_ops_t *O = v->ops;
    if (t->n < 1 || v->game->players != 2 || cache_readonly(cache)) return GSW_OK;
    val_t lo, hi;
    prover_node_bounds(t->goal, t->result, 1, &lo, &hi);
    if (mate > 0) lo = hi = val_win(2 * mate - 1);
    if (mate < 0) lo = hi = val_loss(-2 * mate);
    int rc = prover_store_one(cache, v, pos, lo, hi, err);
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = 1, c = 0; !rc && c < t->node[0].nchildren; c++, i += t->node[i].size) {
        memcpy(child, pos, O->pos_size);
        O->play(v, child, t->node[i].move);
        prover_node_bounds(t->goal, t->result, 0, &lo, &hi);
        if (mate > 0) lo = hi = val_loss(2 * mate - 2);   /* (the one move of the shortest mate) */
        if (mate < 0) lo = val_win(-2 * mate - 1);        /* every reply mates within N */
        val_t tv;
        if (O->terminal(v, child, &tv)) continue;   /* (the game's own end: nothing to store) */
        rc = prover_store_one(cache, v, child, lo, hi, err);
    }
    return rc ? rc : cache_flush(cache, err);
}

/* The same for a settled manager tree: its root and the root's children
 * it settled without assuming. */
static int prover_store_manager_values(cache_t *cache, const gv_t *v, const void *pos, const manager_t *m, err_t *err)
{
    const game_ops_t *O = v->ops;
    if (m->n < 1 || v->game->players != 2 || cache_readonly(cache)) return GSW_OK;
    int rc = GSW_OK;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int i = -1; !rc && i < m->node[0].nchildren; i++) {   /* (-1: the root) */
        const mg_node_t *g = i < 0 ? &m->node[0] : &m->node[m->node[0].first_child + i];
        if (i >= 0 && m->node[0].first_child < 0) break;
        if ((g->pn && g->dn) || g->status == MG_ASSUMED_PROVEN || g->status == MG_ASSUMED_DISPROVEN) continue;
        val_t lo, hi, tv;
        prover_node_bounds(m->goal, g->pn == 0 ? DFPN_PROVEN : DFPN_DISPROVEN, g->attacker, &lo, &hi);
        memcpy(child, pos, O->pos_size);
        if (i >= 0) O->play(v, child, g->move);
        if (i >= 0 && O->terminal(v, child, &tv)) continue;
        rc = prover_store_one(cache, v, child, lo, hi, err);
    }
    return rc ? rc : cache_flush(cache, err);
}

int prover_tree(const prover_options_t *po, gv_t *v, const void *pos, const char *ptext, const char *goal_text,
                proof_tree_t *tp, int *foundp, int *storedp, dfpn_result_t *rp, err_t *errp)
{
    const game_ops_t *O = v->ops;
    cache_t *cache = po->cache;
    egdb_oracle_t eg;   /* database positions are leaves of the tree */
    int have_eg = prover_egdb(po, v, &eg, errp);
    if (have_eg < 0) return errp->code;
    dfpn_options_t dopt = { .hash_mb = po->hash_mb, .node_limit = po->node_limit, .time_limit_ms = po->time_limit_ms,
                            .stop = po->stop, .oracle = have_eg > 0 ? &eg.oracle : NULL,
                            .progress = po->progress, .progress_ctx = po->progress_ctx };
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(v, pos, key, &sym);
    proof_tree_t t;
    memset(&t, 0, sizeof t);
    int rc = GSW_OK, found = 0, stored = 0, fresh = 0;
    err_t err;
    dfpn_goal_t goal = goal_text && !strcmp(goal_text, "win") ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
    dfpn_result_t r;
    memset(&r, 0, sizeof r);
    if (!goal_text) {   /* the goal that shows the value: win -> win, else "at least a draw" */
        if (cache) found = proofs_get(cache, v->game->name, v->name, key, klen, DFPN_GOAL_WIN, &t, &err);
        if (found == 1 && t.result == DFPN_PROVEN) goal = DFPN_GOAL_WIN;
        else {
            if (found == 1) proof_tree_free(&t);
            found = 0;
            if (cache) {
                found = proofs_get(cache, v->game->name, v->name, key, klen, DFPN_GOAL_DRAW, &t, &err);
                goal = DFPN_GOAL_DRAW;
            }
            if (!found) fresh = 1;   /* the value and its tree, from one search */
        }
    } else if (cache) {
        found = proofs_get(cache, v->game->name, v->name, key, klen, goal, &t, &err);
    }
    if (found < 0) rc = err.code;
    if (!rc && found == 1 && sym) {   /* stored in the canonical orientation */
        for (int i = 1; i < t.n; i++) t.node[i].move = O->move_sym(v, t.node[i].move, sym, 1);
    }
    if (!rc && found == 1 && proof_tree_check(v, pos, &t, &err)) {   /* a damaged row: prove it again, store it anew */
        proof_tree_free(&t);
        found = 0;
        fresh = !goal_text;
    }
    int mated = 0, mate = 0;   /* chess: a short mate (mate moves: +N mates, -N is mated), by the mate prover */
    if (!rc && fresh && O->pos_in_check) {
        /* a win comes only on the winner's move (checkmate): "win within
         * 1, 3, 5 plies" settles a short mate in milliseconds, where the
         * value's search without a depth wandered for 25 s (the Opera
         * game's mate in 2) */
        dfpn_options_t mo = dopt;   /* a quarter of a budget at most: the rest is the value's */
        mo.node_limit = dopt.node_limit && dopt.node_limit / 4 < PROVER_MATE_NODES ? dopt.node_limit / 4 + 1
                                                                                  : PROVER_MATE_NODES;
        if (dopt.time_limit_ms > 0) mo.time_limit_ms = dopt.time_limit_ms / 4;
        dfpn_result_t mr;
        err_t me;
        if (!solver_mate(v, pos, PROVER_MATE_MOVES, &mo, &t, &mate, &mr, &me) && mate) {
            goal = mate > 0 ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;   /* mated: "at least a draw" disproven */
            t.goal = goal;
            t.result = mate > 0 ? DFPN_PROVEN : DFPN_DISPROVEN;
            r = mr;
            mated = 1;
        } else {
            proof_tree_free(&t);
            memset(&t, 0, sizeof t);
            if (po->stop && *po->stop) rc = err_set(&err, GSW_EFAIL, "stopped");
            if (dopt.node_limit) dopt.node_limit = dopt.node_limit > mr.nodes ? dopt.node_limit - mr.nodes : 1;
            if (dopt.time_limit_ms > 0)
                dopt.time_limit_ms = dopt.time_limit_ms > mr.time_ms + 1 ? dopt.time_limit_ms - mr.time_ms : 1;
        }
    }
    if (!rc && mated) {}
    else if (!rc && fresh) {
        if (dfpn_value_tree(v, pos, &dopt, &t, &r, &err)) rc = err.code;
        else goal = t.goal;
    } else if (!rc && !found && dfpn_proof_tree(v, pos, goal, &dopt, &t, &r, &err)) rc = err.code;
    if (!rc && !found) {
        if (cache) {
            proof_tree_t canon = t;
            canon.node = malloc((size_t)t.n * sizeof *t.node);
            if (!canon.node) rc = err_set(&err, GSW_EFAIL, "out of memory");
            else {
                memcpy(canon.node, t.node, (size_t)t.n * sizeof *t.node);
                if (sym) for (int i = 1; i < t.n; i++) canon.node[i].move = O->move_sym(v, t.node[i].move, sym, 0);
                rc = proofs_put(cache, v->game->name, v->name, key, klen, ptext, &canon, &err);
                free(canon.node);
                stored = !rc && cache_storing(cache);   /* (a read-only or locked cache stores nothing) */
            }
        }
    }
    if (have_eg > 0) egdb_oracle_close(&eg);
    t.goal = goal;
    if (!rc && cache) rc = prover_store_values(cache, v, pos, &t, mated ? mate : 0, &err);
    if (rc) { proof_tree_free(&t); *errp = err; }
    *tp = t;
    *foundp = found > 0;
    *storedp = stored;
    *rp = r;
    return rc;
}

/* One goal's stored manager tree in pos's orientation: 1, 0 none, -1 error. */
static int prover_manager_get(cache_t *cache, gv_t *v, const void *pos, dfpn_goal_t goal, manager_t *m, char *state,
                              size_t n, err_t *err)
{
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = v->ops->pos_key(v, pos, key, &sym);
    int found = proofs_manager_get(cache, v->game->name, v->name, key, klen, goal, m, state, n, err);
    if (found > 0 && sym)   /* stored in the canonical orientation */
        for (int i = 1; i < m->n; i++) m->node[i].move = v->ops->move_sym(v, m->node[i].move, sym, 1);
    return found;
}

int prover_manager_stored(cache_t *cache, gv_t *v, const void *pos, manager_t *m, char *state, size_t n, err_t *err)
{
    int found = 0;
    for (int g = DFPN_GOAL_WIN; g <= DFPN_GOAL_DRAW && !found; g++) {
        found = prover_manager_get(cache, v, pos, (dfpn_goal_t)g, m, state, n, err);
        if (found < 0) return -1;
        if (found && g == DFPN_GOAL_WIN && strcmp(state, "proven")) {
            /* a win not (yet) proven: the draw tree, if there is one, says more */
            manager_t m2;
            char st2[32];
            int f2 = prover_manager_get(cache, v, pos, DFPN_GOAL_DRAW, &m2, st2, sizeof st2, err);
            if (f2 < 0) { manager_free(m); return -1; }
            if (f2) { manager_free(m); *m = m2; snprintf(state, n, "%s", st2); }
        }
    }
    if (!found) return 0;
    if (manager_check(m, v, pos, err)) {
        manager_free(m);
        err_set(err, GSW_EFAIL, "the stored manager tree is damaged: gsw proof run without --resume makes it again");
        return -1;
    }
    return 1;
}

typedef struct run_ctx {
    cache_t *cache;
    const gv_t *v;
    const uint8_t *key;
    size_t klen;
    int sym;               /* the symmetry from the position to the key's orientation */
    const char *text;
    const prover_run_t *run;
    double last_save, last_print, save_ms;
    err_t err;
    int failed;
} run_ctx_t;

/* A line to the run's callback, printf-style. */
#define run_say(run, ...) err_say((run)->say, (run)->say_ctx, __VA_ARGS__)

/* A count with separators (as the CLI writes them), by db/bddfile's u256_text_grouped. */
static const char *run_count(uint64_t n, char *buf, size_t len)
{
    u256_t x = u256_of(n);
    u256_text_grouped(&x, buf, len);
    return buf;
}

/* Store the manager's tree in the key's (canonical) orientation, as resume
 * reads it: every save, the periodic ones included, maps its moves. */
static int run_store(run_ctx_t *r, const manager_t *m, const char *state, err_t *err)
{
    manager_t canon = *m;
    if (r->sym) {
        canon.node = malloc((size_t)m->n * sizeof *m->node);
        if (!canon.node) return err_set(err, GSW_EFAIL, "out of memory");
        memcpy(canon.node, m->node, (size_t)m->n * sizeof *m->node);
        for (int i = 1; i < m->n; i++) canon.node[i].move = r->v->ops->move_sym(r->v, m->node[i].move, r->sym, 0);
    }
    int rc = proofs_manager_put(r->cache, r->v->game->name, r->v->name, r->key, r->klen, r->text, &canon, state, err);
    if (r->sym) free(canon.node);
    return rc;
}

static int run_progress(void *ctx, const manager_t *m, double ms)
{
    run_ctx_t *r = ctx;
    if (ms - r->last_print >= 1000) {
        char tn[96], ln[96];
        r->last_print = ms;
        run_say(r->run, "  %.1f s: t=%d, tree %s nodes, root pn %u dn %u, %s leaves solved, manager %.1f%% of solver time",
                ms / 1000, (int)m->t, run_count((uint64_t)m->n, tn, sizeof tn), m->node[0].pn, m->node[0].dn,
                run_count(m->leaves, ln, sizeof ln), m->solver_ms > 0 ? 100 * m->manager_ms / m->solver_ms : 0);
    }
    if (r->cache && ms - r->last_save >= r->save_ms) {   /* resumable from here */
        r->last_save = ms;
        if (run_store(r, m, "running", &r->err)) {
            r->failed = 1;
            return 1;
        }
    }
    return 0;
}

int prover_manager_run(const prover_options_t *po, gv_t *v, const void *pos, const char *ptext, prover_run_t *run,
                       err_t *errp)
{
    const game_ops_t *O = v->ops;
    cache_t *cache = po->cache;
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(v, pos, key, &sym);
    int goals[2], ng = 0;
    if (run->goal_text) goals[ng++] = !strcmp(run->goal_text, "win") ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
    else { goals[ng++] = DFPN_GOAL_WIN; goals[ng++] = DFPN_GOAL_DRAW; }
    run_ctx_t rc_ = { .cache = cache, .v = v, .key = key, .klen = klen, .sym = sym, .text = ptext, .run = run,
                      .save_ms = run->save_ms > 0 ? run->save_ms : 5000 };
    const char *every = getenv("GSW_SAVE_MS");   /* tests save more often */
    if (every && atof(every) > 0) rc_.save_ms = atof(every);
    run->complete = run->stopped = 0;
    run->goal_done = -1;
    run->last = DFPN_UNKNOWN;
    source_cache_probe_t probe;   /* leaves the cache has settled count as proven */
    source_cache_probe_init(&probe, cache);
    egdb_oracle_t eg;      /* ... and those the endgame databases hold */
    int have_eg = prover_egdb(po, v, &eg, errp);
    if (have_eg < 0) { source_cache_probe_free(&probe); return errp->code; }
    if (have_eg) run_say(run, "endgame databases: %s", egdb_set_dir(eg.set));
    if (po->search_only) run_say(run, "sources: search only (no values from the cache, no endgame databases)");
    int workers = run->workers > 0 ? run->workers : 1;
    manager_options_t mo = { .workers = workers, .hash_mb = po->hash_mb + 1,
                             .stop = po->stop, .time_limit_ms = po->time_limit_ms, .progress = run_progress,
                             .progress_ctx = &rc_, .probe = cache && !po->search_only ? source_cache_probe : NULL,
                             .probe_ctx = &probe,
                             .oracle = have_eg ? &eg.oracle : NULL, .farm = run->farm, .farm_ctx = run->farm_ctx };
    int rc = GSW_OK;
    err_t err;
    for (int gi = 0; gi < ng && !rc; gi++) {
        manager_t m;
        char state[32] = "";
        int found = 0;
        const char *gname = goals[gi] == DFPN_GOAL_WIN ? "win" : "draw";
        if (cache && run->resume) {
            found = prover_manager_get(cache, v, pos, (dfpn_goal_t)goals[gi], &m, state, sizeof state, &err);
            if (found < 0) { rc = err.code; break; }
            if (found && manager_check(&m, v, pos, &err)) {   /* never build on a damaged tree */
                manager_free(&m);
                char why[sizeof err.msg];
                snprintf(why, sizeof why, "%s", err.msg);
                err_set(&err, GSW_EFAIL, "the stored %s tree for \"%s\" is damaged (%s); run without --resume to start again",
                        gname, ptext, why);
                rc = err.code;
                break;
            }
            if (found) run_say(run, "resuming the %s tree for \"%s\" (%d nodes, t=%d, %s)", gname, ptext, m.n, (int)m.t, state);
        }
        if (!found && manager_init(&m, (dfpn_goal_t)goals[gi], &err)) { rc = err.code; break; }
        int done = 0;
        dfpn_status_t st = DFPN_UNKNOWN;
        if (!found || !strcmp(state, "running")) {
            if (manager_run(&m, v, pos, &mo, &done, &st, &err)) rc = err.code;
        } else {
            done = 1;
            st = !strcmp(state, "proven") ? DFPN_PROVEN : DFPN_DISPROVEN;
        }
        if (rc_.failed && !rc) { err = rc_.err; rc = err.code; }
        if (!rc && cache)
            rc = run_store(&rc_, &m, !done ? "running" : st == DFPN_PROVEN ? "proven" : "disproven", &err);
        if (!rc && cache && done) rc = prover_store_manager_values(cache, v, pos, &m, &err);
        if (!rc) {
            char tn[96], ln[96], sn[96];
            run_say(run, "%s: %s; tree %s nodes, %s leaves solved (%s solver nodes), solver %.1f s, manager %.3f s (%.1f%%)",
                    goals[gi] == DFPN_GOAL_WIN ? "win?" : "at least a draw?",
                    !done ? "stopped" : st == DFPN_PROVEN ? "proven" : "disproven", run_count((uint64_t)m.n, tn, sizeof tn),
                    run_count(m.leaves, ln, sizeof ln), run_count(m.solver_nodes, sn, sizeof sn), m.solver_ms / 1000,
                    m.manager_ms / 1000, m.solver_ms > 0 ? 100 * m.manager_ms / m.solver_ms : 0);
        }
        manager_free(&m);
        if (rc) break;
        if (!done) {
            run->stopped = 1;
            rc = GSW_EFAIL;
            err_set(&err, GSW_EFAIL, "%s; run again with --resume to go on",
                    po->stop && *po->stop ? "interrupted" : "budget spent");
            break;
        }
        run->last = st;
        run->goal_done = goals[gi];
        if (!run->goal_text && goals[gi] == DFPN_GOAL_WIN && st == DFPN_PROVEN) break;
    }
    source_cache_probe_free(&probe);
    if (have_eg) egdb_oracle_close(&eg);
    run->complete = !rc;
    if (rc) *errp = err;
    return rc;
}

int prover_serve_leaves(const prover_options_t *po, gv_t *v, int (*next)(void *ctx, mg_leaf_t *leaf, err_t *err),
                        int (*answer)(void *ctx, const mg_leaf_t *leaf, err_t *err), void *ctx, err_t *err)
{
    egdb_oracle_t eg;   /* the databases, as the manager's own run has them */
    int have_eg = prover_egdb(po, v, &eg, err);
    if (have_eg < 0) return err->code;
    /* the options prover_manager_run gives its threads, less the cache (the manager probes it) */
    manager_options_t mo = { .workers = 1, .hash_mb = po->hash_mb + 1, .stop = po->stop,
                             .oracle = have_eg ? &eg.oracle : NULL };
    mg_solver_t *s = NULL;
    mg_leaf_t *leaf = malloc(sizeof *leaf);
    int rc = leaf ? mg_solver_new(mo.hash_mb, &s, err) : err_set(err, GSW_EFAIL, "out of memory");
    int goal = -1;
    while (!rc) {
        int got = next(ctx, leaf, err);
        if (got < 0) rc = err->code;
        if (got <= 0) break;
        if (goal >= 0 && (int)leaf->goal != goal) {   /* a new goal: fresh tables, as a new manager run's */
            mg_solver_free(s);
            s = NULL;
            if ((rc = mg_solver_new(mo.hash_mb, &s, err))) break;
        }
        goal = (int)leaf->goal;
        leaf->v = v;
        leaf->o = &mo;
        mg_solver_eval(s, leaf);
        if (answer(ctx, leaf, err)) rc = err->code ? err->code : GSW_EFAIL;
    }
    mg_solver_free(s);
    free(leaf);
    if (have_eg) egdb_oracle_close(&eg);
    return rc;
}

const char *prover_run_value(const prover_run_t *run)
{
    if (!run->complete)
        return run->goal_done == DFPN_GOAL_WIN && run->last == DFPN_DISPROVEN ? "at most a draw" : "unknown";
    if (run->goal_done == DFPN_GOAL_WIN) return run->last == DFPN_PROVEN ? "win" : "at most a draw";
    return run->last == DFPN_PROVEN ? (run->goal_text ? "at least a draw" : "draw") : "loss";
}

/* The exact value of pos by the databases (or the game's end): 1, else 0. */
static int db_exact(const gv_t *v, egdb_oracle_t *eg, const void *pos, val_t *value)
{
    if (v->ops->terminal(v, pos, value)) return 1;
    val_t lo = -VAL_INF, hi = VAL_INF;
    if (!eg->oracle.probe(eg->oracle.ctx, v, pos, &lo, &hi) || lo != hi) return 0;
    *value = lo;
    return 1;
}

int prover_db_line(const prover_options_t *po, gv_t *v, const void *pos, val_t *value, move_t *line, int max, int *n,
                   char *why, size_t wn, err_t *err)
{
    const game_ops_t *O = v->ops;
    *n = 0;
    if (wn) why[0] = 0;
    egdb_oracle_t eg;
    int have = prover_egdb(po, v, &eg, err);
    if (have < 0) return -1;
    if (!have) { snprintf(why, wn, "no endgame databases"); return 0; }
    int rc = 1;
    val_t val;
    if (!db_exact(v, &eg, pos, &val)) {
        snprintf(why, wn, "no distance-to-win file holds it (egdb build --metric dtw)");
        rc = 0;
    }
    *value = val;
    GSW_POSBUF cur[GSW_MAX_POS], child[GSW_MAX_POS];
    memcpy(cur, pos, O->pos_size);
    val_t tv, at = val;
    while (rc == 1 && *n < max && !O->terminal(v, cur, &tv)) {
        move_t mv[GSW_MAX_MOVES];
        int k = O->moves(v, cur, mv), best = -1;
        val_t bestv = -VAL_INF, bestcv = 0;
        for (int i = 0; i < k; i++) {
            memcpy(child, cur, O->pos_size);
            O->play(v, child, mv[i]);
            val_t cv;
            if (!db_exact(v, &eg, child, &cv)) {
                snprintf(why, wn, "no distance-to-win file holds a position on the way");
                best = -1;
                break;
            }
            if (val_up(cv) > bestv) { bestv = val_up(cv); best = i; bestcv = cv; }
        }
        if (best < 0) { rc = *n > 0; break; }
        if (bestv != at) {   /* the files disagree with themselves: say so, never show a wrong line */
            snprintf(why, wn, "the databases' values do not add up at ply %d", *n + 1);
            rc = *n > 0;
            break;
        }
        line[(*n)++] = mv[best];
        O->play(v, cur, mv[best]);
        at = bestcv;
    }
    egdb_oracle_close(&eg);
    return rc;
}

/* `gsw proof show|export`: the proof tree of a position — the one stored in
 * the cache, else a fresh df-pn proof that is then stored — printed as an
 * indented tree with each node's move, value and size, or exported as
 * Graphviz dot or JSON. Without --goal the goal follows the value: a win is
 * proved as a win, a draw as "at least a draw", a loss as the disproof of
 * "at least a draw". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dfpn.h"
#include "core/manager.h"
#include "db/proofs.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "workbench/proof.h"
#include "solve/solver.h"

int cli_cache_open(cli_opts_t *o, cache_t **c, err_t *err);

/* The value at a node whose side to move is (or is not) the root's. */
const char *proof_value_text(const proof_tree_t *t, int attacker, int ascii)
{
    int proven = t->result == DFPN_PROVEN;
    if (t->goal == DFPN_GOAL_WIN) {
        if (proven) return attacker ? "=W" : "=L";
        return attacker ? (ascii ? "<=D" : "\u2264D") : (ascii ? ">=D" : "\u2265D");
    }
    if (proven) return attacker ? (ascii ? ">=D" : "\u2265D") : (ascii ? "<=D" : "\u2264D");
    return attacker ? "=L" : "=W";
}

typedef struct walk {
    const gv_t *v;
    const proof_tree_t *t;
    int root_turn;
    int max_depth;
    FILE *f;
    int format;            /* 0 text, 1 dot, 2 json */
    json_t *j;
} walk_t;

/* Write the fields of node i (at pos, depth d) and, within the depth limit,
 * its children; a subtree is node i and the size - 1 nodes after it. */
static void walk(walk_t *w, int i, const void *pos, int d)
{
    const game_ops_t *O = w->v->ops;
    const proof_node_t *p = &w->t->node[i];
    int attacker = O->pos_turn(w->v, pos) == w->root_turn;
    if (w->format == 2) {
        json_str(w->j, "value", proof_value_text(w->t, attacker, 1));
        json_int(w->j, "size", p->size);
        if (p->leaf) json_bool(w->j, "leaf", 1);
    }
    if (d >= w->max_depth || !p->nchildren) return;
    if (w->format == 2) json_arr(w->j, "children");
    GSW_POSBUF child[GSW_MAX_POS];
    int k = i + 1;
    for (int c = 0; c < p->nchildren; c++) {
        const proof_node_t *q = &w->t->node[k];
        char cm[64];
        O->move_format(w->v, pos, q->move, cm, sizeof cm);
        memcpy(child, pos, O->pos_size);
        O->play(w->v, child, q->move);
        int ca = O->pos_turn(w->v, child) == w->root_turn;
        if (w->format == 0)
            fprintf(w->f, "%*s%s %s (%d)%s\n", 2 * (d + 1), "", cm, proof_value_text(w->t, ca, 0), q->size,
                    q->leaf ? " leaf" : "");
        else if (w->format == 1)
            fprintf(w->f, "  n%d [label=\"%s\\n%d\"];\n  n%d -> n%d [label=\"%s\"];\n", k,
                    proof_value_text(w->t, ca, 1), q->size, i, k, cm);
        else {
            json_obj(w->j, NULL);
            json_str(w->j, "move", cm);
        }
        walk(w, k, child, d + 1);
        if (w->format == 2) json_close(w->j, '}');
        k += q->size;
    }
    if (w->format == 2) json_close(w->j, ']');
}

typedef struct run_ctx {
    cache_t *cache;
    const gv_t *v;
    const uint8_t *key;
    size_t klen;
    int sym;               /* the symmetry from the position to the key's orientation */
    const char *text;
    double last_save, last_print, save_ms;
    err_t err;
    int failed;
} run_ctx_t;

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
        char tn[32], ln[32];
        r->last_print = ms;
        fprintf(stderr, "  %.1f s: t=%d, tree %s nodes, root pn %u dn %u, %s leaves solved, manager %.1f%% of solver time\n",
                ms / 1000, (int)m->t, cli_thousands((uint64_t)m->n, tn, sizeof tn), m->node[0].pn, m->node[0].dn,
                cli_thousands(m->leaves, ln, sizeof ln), m->solver_ms > 0 ? 100 * m->manager_ms / m->solver_ms : 0);
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

/* gsw proof run: the manager, goal by goal (win?, then at least a draw?). */
static int cli_proof_run(cli_opts_t *o, gv_t *v, const void *pos, const char *ptext, cache_t *cache)
{
    const game_ops_t *O = v->ops;
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(v, pos, key, &sym);
    char spec[96];
    game_spec(v, spec, sizeof spec);
    int goals[2], ng = 0;
    if (o->goal) goals[ng++] = !strcmp(o->goal, "win") ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
    else { goals[ng++] = DFPN_GOAL_WIN; goals[ng++] = DFPN_GOAL_DRAW; }
    run_ctx_t rc_ = { .cache = cache, .v = v, .key = key, .klen = klen, .sym = sym, .text = ptext, .save_ms = 5000 };
    const char *every = getenv("GSW_SAVE_MS");   /* tests save more often */
    if (every && atof(every) > 0) rc_.save_ms = atof(every);
    cache_probe_t probe;   /* leaves the cache has settled count as proven */
    cache_probe_init(&probe, cache);
    egdb_oracle_t eg;      /* ... and those the endgame databases hold */
    err_t eerr;
    int have_eg = egdb_oracle_open_at(&eg, v, o->dir, cache ? cache_filename(cache) : o->db, &eerr);
    if (have_eg < 0) { fprintf(stderr, "gsw: %s\n", eerr.msg); cache_probe_free(&probe); return eerr.code; }
    if (have_eg) fprintf(stderr, "endgame databases: %s\n", egdb_set_dir(eg.set));
    manager_options_t mo = { .workers = o->workers ? o->workers : o->threads, .hash_mb = o->hash_mb / (o->workers ? o->workers : 1) + 1,
                             .stop = &cli_stop, .time_limit_ms = o->time_ms, .progress = run_progress,
                             .progress_ctx = &rc_, .probe = cache ? cache_probe : NULL, .probe_ctx = &probe,
                             .oracle = have_eg ? &eg.oracle : NULL };
    int rc = GSW_OK;
    err_t err;
    dfpn_status_t last = DFPN_UNKNOWN;
    int goal_done = -1, stopped = 0;
    double t0 = gsw_now_ms();
    for (int gi = 0; gi < ng && !rc; gi++) {
        manager_t m;
        char state[32] = "";
        int found = 0;
        if (cache && o->resume) {
            found = proofs_manager_get(cache, v->game->name, v->name, key, klen, goals[gi], &m, state, sizeof state, &err);
            if (found < 0) { rc = err.code; break; }
            if (found && sym) {   /* stored in the canonical orientation */
                for (int i = 1; i < m.n; i++) m.node[i].move = O->move_sym(v, m.node[i].move, sym, 1);
            }
            if (found && manager_check(&m, v, pos, &err)) {   /* never build on a damaged tree */
                manager_free(&m);
                char why[sizeof err.msg];
                snprintf(why, sizeof why, "%s", err.msg);
                err_set(&err, GSW_EFAIL, "the stored %s tree for \"%s\" is damaged (%s); run without --resume to start again",
                        goals[gi] == DFPN_GOAL_WIN ? "win" : "draw", ptext, why);
                rc = err.code;
                break;
            }
            if (found) fprintf(stderr, "resuming the %s tree for \"%s\" (%d nodes, t=%d, %s)\n",
                               goals[gi] == DFPN_GOAL_WIN ? "win" : "draw", ptext, m.n, (int)m.t, state);
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
        if (!rc) {
            char tn[32], ln[32], sn[32];
            fprintf(stderr, "%s: %s; tree %s nodes, %s leaves solved (%s solver nodes), solver %.1f s, "
                            "manager %.3f s (%.1f%%)\n",
                    goals[gi] == DFPN_GOAL_WIN ? "win?" : "at least a draw?",
                    !done ? "stopped" : st == DFPN_PROVEN ? "proven" : "disproven", cli_thousands((uint64_t)m.n, tn, sizeof tn),
                    cli_thousands(m.leaves, ln, sizeof ln), cli_thousands(m.solver_nodes, sn, sizeof sn), m.solver_ms / 1000,
                    m.manager_ms / 1000, m.solver_ms > 0 ? 100 * m.manager_ms / m.solver_ms : 0);
        }
        manager_free(&m);
        if (rc) break;
        if (!done) {
            stopped = 1;
            rc = GSW_EFAIL;
            err_set(&err, GSW_EFAIL, "%s; run again with --resume to go on", cli_stop ? "interrupted" : "budget spent");
            break;
        }
        last = st;
        goal_done = goals[gi];
        if (!o->goal && goals[gi] == DFPN_GOAL_WIN && st == DFPN_PROVEN) break;
    }
    cache_probe_free(&probe);
    if (have_eg) egdb_oracle_close(&eg);
    if (stopped && o->json) {   /* a partial answer is still one document */
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_str(&j, "value", goal_done == DFPN_GOAL_WIN && last == DFPN_DISPROVEN ? "at most a draw" : "unknown");
        json_null(&j, "plies");
        json_str(&j, "algo", "manager");
        json_num(&j, "time_ms", gsw_now_ms() - t0);
        json_bool(&j, "complete", 0);
        json_end(&j);
    }
    if (!rc) {
        const char *value = goal_done == DFPN_GOAL_WIN ? (last == DFPN_PROVEN ? "win" : "at most a draw")
                          : (last == DFPN_PROVEN ? (o->goal ? "at least a draw" : "draw") : "loss");
        if (o->json) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            json_str(&j, "value", value);
            json_null(&j, "plies");
            json_str(&j, "algo", "manager");
            json_num(&j, "time_ms", gsw_now_ms() - t0);
            json_bool(&j, "complete", 1);
            json_end(&j);
        } else {
            printf("%s \"%s\": %s for the side to move (proof-tree manager)\n", spec, ptext, value);
        }
    } else {
        fprintf(stderr, "gsw: %s\n", err.msg);
    }
    return rc;
}

int proof_obtain(cache_t *cache, gv_t *v, const void *pos, const char *ptext, const char *goal_text,
                 const dfpn_options_t *dopt, proof_tree_t *tp, int *foundp, int *storedp, dfpn_result_t *rp, err_t *errp)
{
    const game_ops_t *O = v->ops;
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(v, pos, key, &sym);
    proof_tree_t t;
    memset(&t, 0, sizeof t);
    int rc = GSW_OK, found = 0, stored = 0;
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
            if (!found) {
                if (dfpn_solve(v, pos, dopt, &r, &err)) rc = err.code;
                else if (r.outcome == OUTCOME_UNKNOWN) rc = err_set(&err, GSW_EFAIL, "the budget ran out before the proof");
                else goal = r.outcome == OUTCOME_WIN ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
            }
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
        if (!goal_text) {
            if (dfpn_solve(v, pos, dopt, &r, &err)) rc = err.code;
            else if (r.outcome == OUTCOME_UNKNOWN) rc = err_set(&err, GSW_EFAIL, "the budget ran out before the proof");
            else goal = r.outcome == OUTCOME_WIN ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
        }
    }
    if (!rc && !found) {
        if (dfpn_proof_tree(v, pos, goal, dopt, &t, &r, &err)) rc = err.code;
        else if (cache) {
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
    t.goal = goal;
    if (rc) { proof_tree_free(&t); *errp = err; }
    *tp = t;
    *foundp = found > 0;
    *storedp = stored;
    *rp = r;
    return rc;
}

int cli_proof(cli_opts_t *o)
{
    if (o->npos < 1) return cli_usage_error(o, 3, "proof needs run, show or export");
    if (strcmp(o->pos[0], "show") && strcmp(o->pos[0], "export") && strcmp(o->pos[0], "run")) {
        fprintf(stderr, "gsw: proof: unknown subverb '%s' (run, show or export)\n", o->pos[0]);
        return GSW_EINPUT;
    }
    if (o->npos < 2 || o->npos > 3) return cli_usage_error(o, 3, "proof needs a GAME");
    int export = !strcmp(o->pos[0], "export");
    int format = 0;
    if (export) {
        const char *f = o->format ? o->format : o->json ? "json" : NULL;   /* --json alone: the JSON export */
        if (!f || (strcmp(f, "dot") && strcmp(f, "json"))) {
            fprintf(stderr, "gsw: proof export needs --format dot|json\n");
            return GSW_EINPUT;
        }
        format = !strcmp(f, "dot") ? 1 : 2;
    } else if (o->format) {
        fprintf(stderr, "gsw: --format is for proof export (proof %s --json prints JSON)\n", o->pos[0]);
        return GSW_EINPUT;
    } else if (o->json) format = 2;
    if (o->goal && strcmp(o->goal, "win") && strcmp(o->goal, "draw")) {
        fprintf(stderr, "gsw: --goal: expected win or draw, not \"%s\"\n", o->goal);
        return GSW_EINPUT;
    }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[1], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (v->game->players != 2) {
        fprintf(stderr, "gsw: %s is a one-player game: proof trees are for two players\n", v->game->name);
        game_close(v);
        return GSW_EINPUT;
    }
    const char *ptext = o->npos == 3 ? o->pos[2] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, ptext, pos, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return err.code; }
    const game_ops_t *O = v->ops;
    cache_t *cache = NULL;
    if (!o->no_cache && cli_cache_open(o, &cache, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return err.code; }
    if (!strcmp(o->pos[0], "run")) {
        int rc = cli_proof_run(o, v, pos, ptext, cache);
        if (cache) {   /* after the answer: a failed store is a warning */
            err_t e2;
            if (cache_close(cache, &e2)) fprintf(stderr, "gsw: warning: %s (the answer stands; it was not stored)\n", e2.msg);
        }
        game_close(v);
        return rc;
    }
    egdb_oracle_t eg;   /* database positions are leaves of the tree */
    int have_eg = egdb_oracle_open_at(&eg, v, o->dir, cache ? cache_filename(cache) : o->db, &err);
    if (have_eg < 0) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        if (cache) { err_t e2; cache_close(cache, &e2); }
        game_close(v);
        return err.code;
    }
    dfpn_options_t dopt = { .hash_mb = o->hash_mb, .node_limit = o->nodes, .time_limit_ms = o->time_ms, .stop = &cli_stop,
                            .oracle = have_eg > 0 ? &eg.oracle : NULL };
    proof_tree_t t;
    int found = 0, stored = 0;
    dfpn_result_t r;
    int rc = proof_obtain(cache, v, pos, ptext, o->goal, &dopt, &t, &found, &stored, &r, &err);
    if (have_eg > 0) egdb_oracle_close(&eg);
    dfpn_goal_t goal = t.goal;
    if (!rc) {
        char spec[96];
        game_spec(v, spec, sizeof spec);
        walk_t w = { .v = v, .t = &t, .root_turn = O->pos_turn(v, pos), .max_depth = o->depth ? o->depth : (export ? 1000 : 3),
                     .f = stdout, .format = format };
        const char *what = proof_result_text(goal, t.result);
        const char *res = t.result == DFPN_PROVEN ? "proven" : "disproven";
        if (format == 1) {
            printf("digraph proof {\n  node [shape=box];\n  n0 [label=\"%s\\n%d\"];\n", proof_value_text(&t, 1, 1), t.node[0].size);
            walk(&w, 0, pos, 0);
            printf("}\n");
        } else if (format == 2) {
            json_t j;
            json_begin(&j, stdout);
            w.j = &j;
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            json_str(&j, "goal", goal == DFPN_GOAL_WIN ? "win" : "draw");
            json_str(&j, "result", res);
            json_int(&j, "tree_size", t.n);
            json_int(&j, "tree_depth", t.depth);
            json_str(&j, "source", found ? "cache" : "dfpn");
            json_obj(&j, "root");
            walk(&w, 0, pos, 0);
            json_close(&j, '}');
            json_end(&j);
        } else {
            printf("%s \"%s\": %s for the side to move; proof tree of %d node%s, depth %d%s\n", spec, ptext, what,
                   t.n, t.n == 1 ? "" : "s", t.depth, found ? " (from the cache)" : stored ? " (stored)" : "");
            printf("root %s (%d)\n", proof_value_text(&t, 1, 0), t.node[0].size);
            walk(&w, 0, pos, 0);
        }
        char nt[32];
        fflush(stdout);
        if (!found) fprintf(stderr, "df-pn: %s nodes, %.1f ms\n", cli_thousands(r.nodes, nt, sizeof nt), r.time_ms);
    }
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    proof_tree_free(&t);
    if (cache) {
        err_t e2;
        if (cache_close(cache, &e2)) {
            if (!rc) fprintf(stderr, "gsw: warning: %s (the tree stands; it was not stored)\n", e2.msg);
            else fprintf(stderr, "gsw: %s\n", e2.msg);
        }
    }
    game_close(v);
    return rc;
}

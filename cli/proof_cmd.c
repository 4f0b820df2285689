/* `gsw proof run|show|export`: the prover's (solve/prover.h) manager run,
 * resumable, or a position's df-pn proof tree (the cache's, else a fresh
 * proof, then stored) printed as an indented tree with each node's move,
 * value and size, or exported as Graphviz dot or JSON. Without --goal the
 * goal follows the value: a win is proved as a win, a draw as "at least a
 * draw", a loss as the disproof of "at least a draw". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/manager.h"
#include "cli/proof_cmd.h"

#include "dist/dist.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "db/manifest.h"
#include "solve/certificate.h"
#include "solve/prover.h"


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
        json_str(w->j, "value", prover_value_text(w->t, attacker, 1));
        json_int(w->j, "size", p->size);
        if (p->leaf) json_bool(w->j, "leaf", 1);
        if (p->leaf == 2) json_bool(w->j, "searched", 1);   /* settled by the search, not expanded */
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
            fprintf(w->f, "%*s%s %s (%d)%s\n", 2 * (d + 1), "", cm, prover_value_text(w->t, ca, 0), q->size,
                    q->leaf == 2 ? " leaf, by search" : q->leaf ? " leaf" : "");
        else if (w->format == 1)
            fprintf(w->f, "  n%d [label=\"%s\\n%d\"];\n  n%d -> n%d [label=\"%s\"];\n", k,
                    prover_value_text(w->t, ca, 1), q->size, i, k, cm);
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

/* A fresh proof's progress, on a terminal: a line every 3 s. */
static void proof_progress(void *ctx, const dfpn_progress_t *p)
{
    double *next = ctx;
    if (p->ms < *next) return;
    *next = p->ms + 3000;
    char nt[32];
    if (p->tree_nodes >= 0)
        fprintf(stderr, "  %.0f s: %s: %d nodes so far\n", p->ms / 1000, p->phase, p->tree_nodes);
    else
        fprintf(stderr, "  %.0f s: %s %s nodes\n", p->ms / 1000, p->phase, opts_thousands(p->nodes, nt, sizeof nt));
}

static void proof_say(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

/* gsw proof run: the prover's manager run, goal by goal (win?, then at
 * least a draw?), its progress on stderr. */
static int cli_proof_run(cli_args_t *o, gv_t *v, const void *pos, const char *ptext, cache_t *cache)
{
    char spec[96];
    game_spec(v, spec, sizeof spec);
    int workers = args_int(o, "workers", 0);
    if (o->dist && dist_size(o->dist) > 1) workers = dist_size(o->dist) - 1;   /* the workers are ranks */
    prover_options_t po = { .cache = cache, .egdb_dir = opts_egdb_dir(o), .db = args_str(o, "db"),
                            .hash_mb = opts_hash_mb(o) / (size_t)(workers ? workers : 1), .time_limit_ms = args_num(o, "time", 0),
                            .stop = &opts_stop };
    prover_run_t run = { .goal_text = args_str(o, "goal"), .resume = args_flag(o, "resume"), .workers = workers ? workers : opts_threads(o),
                         .say = proof_say };
    const char *src = args_str(o, "sources");
    if (src && strcmp(src, "all") && strcmp(src, "search")) {
        fprintf(stderr, "gsw: --sources: all or search, not \"%.40s\"\n", src);
        return GSW_EINPUT;
    }
    po.search_only = src && !strcmp(src, "search");
    err_t err;
    double t0 = gsw_now_ms();
    int rc = o->dist ? dist_proof_run(o->dist, &po, v, pos, ptext, &run, &err)
                     : prover_manager_run(&po, v, pos, ptext, &run, &err);
    if (o->dist && dist_rank(o->dist) != 0) {   /* a worker: rank 0 says what was proven */
        if (rc && err.msg[0]) dist_say("%s", err.msg);
        return rc;
    }
    const char *value = prover_run_value(&run);
    if (args_flag(o, "json") && (!rc || run.stopped)) {   /* a partial answer is still one document */
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_str(&j, "value", value);
        json_null(&j, "plies");
        /* what is proven, as solve --json says it: the bound, and where the
           value is open (stopped, or one goal settled) its two ends */
        int exact = !strcmp(value, "win") || !strcmp(value, "draw") || !strcmp(value, "loss");
        int lower = !strcmp(value, "at least a draw"), upper = !strcmp(value, "at most a draw");
        json_str(&j, "bound", exact ? "exact" : lower ? "lower" : upper ? "upper" : "unknown");
        if (!exact) {
            json_obj(&j, "proven");
            json_str(&j, "at_least", lower ? "draw" : "loss");
            json_str(&j, "at_most", upper ? "draw" : "win");
            json_close(&j, '}');
        }
        json_str(&j, "algo", "manager");
        json_num(&j, "time_ms", gsw_now_ms() - t0);
        json_bool(&j, "complete", !rc);
        json_end(&j);
    } else if (!rc) {
        printf("%s \"%s\": %s for the side to move (proof-tree manager)\n", spec, ptext, value);
    }
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    return rc;
}

/* A certificate's progress, on a terminal: a line every 2 s. */
static void cert_progress(void *ctx, uint64_t nodes, double ms)
{
    (void)ctx;
    char nt[32];
    fprintf(stderr, "  %.0f s: %s nodes of the certificate so far\n", ms / 1000, opts_thousands(nodes, nt, sizeof nt));
}

/* A certificate of pos's value (or of bounds, where known) written to
 * path; what it holds said on out: JSON there under --json (proof export),
 * one line otherwise. */
int proof_cert_write(cli_args_t *o, gv_t *v, const void *pos, const char *ptext, const val_t *bounds, const char *path,
                     FILE *out)
{
    char spec[96], made[256];
    game_spec(v, spec, sizeof spec);
    snprintf(made, sizeof made, "gsw %s (commit %s): gsw %s %s", manifest_gsw_version(), manifest_gsw_commit(),
             bounds ? "solve" : "proof export", spec);
    const char *goal = args_has(o, "goal") ? args_str(o, "goal") : NULL;
    cert_options_t co = { .egdb_dir = opts_egdb_dir(o), .strong_dir = opts_egdb_dir(o), .db = args_str(o, "db"),
                          .hash_mb = opts_hash_mb(o), .max_nodes = bounds ? 0 : args_u64(o, "nodes", 0),
                          .time_limit_ms = bounds ? 0 : args_num(o, "time", 0), .stop = &opts_stop, .made = made,
                          .progress = isatty(2) ? cert_progress : NULL };
    cert_report_t rep;
    err_t err;
    int rc = bounds ? cert_export_bounds(&co, v, pos, bounds[0], bounds[1], path, &rep, &err)
                    : cert_export(&co, v, pos, !goal ? CERT_VALUE : !strcmp(goal, "win") ? CERT_WIN : CERT_DRAW, path, &rep, &err);
    if (rc) {
        fprintf(stderr, "gsw: certificate: %s\n", err.msg);
        return rc;
    }
    if (out == stdout && args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_str(&j, "claim", rep.claim);
        json_str(&j, "certificate", path);
        json_int(&j, "nodes", (long long)rep.nodes);
        json_int(&j, "depth", rep.depth);
        json_obj(&j, "leaves");
        json_int(&j, "end", (long long)rep.leaves[CERT_LEAF_END]);
        json_int(&j, "db", (long long)rep.leaves[CERT_LEAF_DB]);
        json_int(&j, "strong", (long long)rep.leaves[CERT_LEAF_STRONG]);
        json_close(&j, '}');
        json_int(&j, "files", rep.files);
        json_int(&j, "proofs", (long long)rep.proofs);
        json_num(&j, "time_ms", rep.ms);
        json_end(&j);
    } else {
        char nt[32];
        fprintf(out, "%s \"%s\": %s for the side to move (the position's value alone); certificate of %s node%s, depth %d "
                "(leaves: %llu at the game's end, %llu in databases, %llu in a strong solution; %d file%s) written to %s "
                "in %.1f s; check it with: gsw-check %s\n",
                spec, ptext, rep.claim, opts_thousands(rep.nodes, nt, sizeof nt), rep.nodes == 1 ? "" : "s", rep.depth,
                (unsigned long long)rep.leaves[CERT_LEAF_END], (unsigned long long)rep.leaves[CERT_LEAF_DB],
                (unsigned long long)rep.leaves[CERT_LEAF_STRONG], rep.files, rep.files == 1 ? "" : "s", path,
                rep.ms / 1000, path);
    }
    return GSW_OK;
}

/* proof check --json: gsw-check run as a child, its report read from a
 * pipe and given back as one document: the verdict (ok, bad, unreadable:
 * the report's first word), gsw-check's exit status and its report's
 * lines. The exit status stays gsw-check's. */
static int proof_check_json(cli_args_t *o, const char *bin, char *const argv[])
{
    int fd[2];
    if (pipe(fd)) { fprintf(stderr, "gsw: proof check: no pipe: %s\n", strerror(errno)); return GSW_EFAIL; }
    pid_t pid = fork();
    if (pid < 0) { fprintf(stderr, "gsw: proof check: cannot fork: %s\n", strerror(errno)); return GSW_EFAIL; }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]), close(fd[1]);
        execvp(bin, argv);
        fprintf(stderr, "gsw: cannot run gsw-check (%s): it is built beside gsw (build/release/gsw-check)\n", bin);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    char buf[4096];
    size_t got;
    while (f && mem && (got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, mem);
    if (f) fclose(f); else close(fd[0]);
    if (mem) fclose(mem);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : GSW_EFAIL;
    if (rc == 127 || !text) { free(text); return GSW_EFAIL; }   /* (said on stderr by the child) */
    const char *verdict = !strncmp(text, "OK:", 3) ? "ok" : !strncmp(text, "BAD:", 4) ? "bad"
                          : !strncmp(text, "UNREADABLE:", 11) ? "unreadable" : "unknown";
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "certificate", o->pos[1]);
    json_str(&j, "verdict", verdict);
    json_int(&j, "exit_status", rc);
    json_bool(&j, "deep", args_flag(o, "deep"));
    json_arr(&j, "report");
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) json_str(&j, NULL, line);
    json_close(&j, ']');
    json_end(&j);
    free(text);
    return rc;
}

/* gsw proof check FILE [--deep]: the separate checker, gsw-check, run on
 * it (beside this gsw, else on the PATH); its verdict and exit status. */
static int cli_proof_check(cli_args_t *o)
{
    if (o->npos != 2) return opts_usage_error(o, 3, "proof check needs one FILE (a certificate)");
    char self[1024], path[1100];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *bin = "gsw-check";
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(path, sizeof path, "%s/gsw-check", self);
            if (!access(path, X_OK)) bin = path;
        }
    }
    char *argv[4] = { (char *)bin, NULL, NULL, NULL };
    int k = 1;
    if (args_flag(o, "deep")) argv[k++] = "--deep";
    argv[k] = (char *)o->pos[1];
    fflush(stdout);
    if (args_flag(o, "json")) return proof_check_json(o, bin, argv);
    execvp(bin, argv);
    fprintf(stderr, "gsw: cannot run gsw-check (%s): it is built beside gsw (build/release/gsw-check)\n", bin);
    return GSW_EFAIL;
}

static int cli_proof(cli_args_t *o)
{
    if (o->npos < 1) return opts_usage_error(o, 3, "proof needs run, show, export or check");
    if (!strcmp(o->pos[0], "check")) return cli_proof_check(o);
    if (strcmp(o->pos[0], "show") && strcmp(o->pos[0], "export") && strcmp(o->pos[0], "run")) {
        fprintf(stderr, "gsw: proof: unknown subverb '%s' (run, show, export or check)\n", o->pos[0]);
        return GSW_EINPUT;
    }
    if (o->npos < 2 || o->npos > 3) return opts_usage_error(o, 3, "proof needs a GAME");
    int export = !strcmp(o->pos[0], "export");
    int format = 0;
    if (export) {
        const char *f = args_str(o, "format") ? args_str(o, "format") : args_flag(o, "json") ? "json" : NULL;   /* --json alone: the JSON export */
        if (!f || (strcmp(f, "dot") && strcmp(f, "json") && strcmp(f, "cert"))) {
            fprintf(stderr, "gsw: proof export needs --format dot|json|cert\n");
            return GSW_EINPUT;
        }
        format = !strcmp(f, "dot") ? 1 : !strcmp(f, "json") ? 2 : 3;
        if (format == 3 && !args_str(o, "out")) {
            fprintf(stderr, "gsw: proof export --format cert needs -o FILE (the certificate)\n");
            return GSW_EINPUT;
        }
    } else if (args_str(o, "format")) {
        fprintf(stderr, "gsw: --format is for proof export (proof %s --json prints JSON)\n", o->pos[0]);
        return GSW_EINPUT;
    } else if (args_flag(o, "json")) format = 2;
    if (args_str(o, "goal") && strcmp(args_str(o, "goal"), "win") && strcmp(args_str(o, "goal"), "draw")) {
        fprintf(stderr, "gsw: --goal: expected win or draw, not \"%s\"\n", args_str(o, "goal"));
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
    if (!args_flag(o, "no-cache") && opts_cache_open(o, &cache, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return err.code; }
    if (!strcmp(o->pos[0], "run")) {
        int rc = cli_proof_run(o, v, pos, ptext, cache);
        if (cache) {   /* after the answer: a failed store is a warning */
            err_t e2;
            if (cache_close(cache, &e2)) fprintf(stderr, "gsw: warning: %s (the answer stands; it was not stored)\n", e2.msg);
        }
        game_close(v);
        return rc;
    }
    if (format == 3) {
        int rc = proof_cert_write(o, v, pos, ptext, NULL, args_str(o, "out"), stdout);
        if (cache) {
            err_t e2;
            if (cache_close(cache, &e2)) fprintf(stderr, "gsw: warning: %s\n", e2.msg);
        }
        game_close(v);
        return rc;
    }
    double next_progress = 3000;
    prover_options_t po = { .cache = cache, .egdb_dir = opts_egdb_dir(o), .db = args_str(o, "db"), .hash_mb = opts_hash_mb(o),
                            .node_limit = args_u64(o, "nodes", 0), .time_limit_ms = args_num(o, "time", 0), .stop = &opts_stop,
                            .progress = isatty(2) ? proof_progress : NULL, .progress_ctx = &next_progress };
    proof_tree_t t;
    int found = 0, stored = 0;
    dfpn_result_t r;
    int rc = prover_tree(&po, v, pos, ptext, args_str(o, "goal"), &t, &found, &stored, &r, &err);
    dfpn_goal_t goal = t.goal;
    if (!rc) {
        char spec[96];
        game_spec(v, spec, sizeof spec);
        walk_t w = { .v = v, .t = &t, .root_turn = O->pos_turn(v, pos), .max_depth = args_int(o, "depth", 0) ? args_int(o, "depth", 0) : (export ? 1000 : 3),
                     .f = stdout, .format = format };
        const char *what = proof_result_text(goal, t.result);
        const char *res = t.result == DFPN_PROVEN ? "proven" : "disproven";
        if (format == 1) {
            printf("digraph proof {\n  node [shape=box];\n  n0 [label=\"%s\\n%d\"];\n", prover_value_text(&t, 1, 1), t.node[0].size);
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
            json_int(&j, "searched_leaves", t.searched);
            json_str(&j, "source", found ? "cache" : "dfpn");
            json_obj(&j, "root");
            walk(&w, 0, pos, 0);
            json_close(&j, '}');
            json_end(&j);
        } else {
            printf("%s \"%s\": %s for the side to move; proof tree of %d node%s, depth %d%s\n", spec, ptext, what,
                   t.n, t.n == 1 ? "" : "s", t.depth, found ? " (from the cache)" : stored ? " (stored)" : "");
            if (t.searched)
                printf("(too large to expand in full: %d leaves are settled by the search and not expanded; "
                       "prove one with proof show to see its tree)\n", t.searched);
            printf("root %s (%d)\n", prover_value_text(&t, 1, 0), t.node[0].size);
            walk(&w, 0, pos, 0);
        }
    }
    fflush(stdout);
    char nt[32];
    if (!rc && !found) fprintf(stderr, "df-pn: %s nodes, %.1f ms\n", opts_thousands(r.nodes, nt, sizeof nt), r.time_ms);
    else if (rc && r.nodes)   /* how far it got, on the error's line */
        fprintf(stderr, "gsw: %s (%s%s nodes in %.1f s)\n", err.msg,
                r.runs > 1 ? "a win disproven, at least a draw still open after " : "", opts_thousands(r.nodes, nt, sizeof nt),
                r.time_ms / 1000);
    else if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
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

static const char *json_na_proof(const cli_args_t *o)
{
    if (o->npos && !strcmp(o->pos[0], "export") && args_str(o, "format") && !strcmp(args_str(o, "format"), "dot"))
        return "--format dot writes Graphviz (--format json writes the tree as JSON)";
    return NULL;
}

static const cli_opt_t proof_own[] = {
    { "goal", OPT_STR, "win|draw", "prove only \"win?\" or \"at least a draw?\"", 0, 0, NULL },
    { "workers", OPT_INT, "N", "run: the manager's workers (default: the threads)", 1, 64, NULL },
    { "resume", OPT_FLAG, NULL, "run: continue the stored tree", 0, 0, NULL },
    { "depth", OPT_INT, "D", "show: the tree to depth D", 1, 1000, NULL },
    { "format", OPT_STR, "dot|json|cert", "export: Graphviz, JSON, or a certificate gsw-check verifies", 0, 0, NULL },
    { "out", OPT_STR, "FILE", "export --format cert: the certificate's file (-o)", 0, 0, NULL },
    { "deep", OPT_FLAG, NULL, "check: also check each database file's values by retrograde consistency", 0, 0, NULL },
    { "sources", OPT_STR, "all|search", "run: search only leaves the cache's values and the databases aside", 0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const proof_opts[] = { opts_json, opts_cache, opts_search, opts_budget, opts_egdb, opts_mpi, proof_own, NULL };

const cli_verb_t verb_proof = {
    "proof", "gsw proof run|show|export GAME[:VARIANT] [POSITION] [--goal win|draw] [--workers N] [--resume] "
      "[--depth D] [--format dot|json|cert] [-o FILE] [--sources all|search] [--dir DIR] [--mpi]"
      "\n       gsw proof check FILE [--deep] [--json]   (runs gsw-check, the separate checker, on a certificate)"
      "\n  --mpi (run): under mpirun -np N, rank 0 runs the manager and ranks 1..N-1 solve its leaves",
      "prove a position with the proof-tree manager (run; resumable), print / export its df-pn proof tree, or write and check a certificate",
      cli_proof, 3, json_na_proof, .opts = proof_opts, .mpi_sub = "run", .egdb = 1
};

/* `gsw cache stats|check|verify`: statistics, an integrity check, and
 * verify: prove stored rows again with a fresh search (no cache,
 * its own table) and report every row whose bounds or best move the search
 * contradicts; --fix deletes them. A row whose key the game cannot turn
 * back into a position is reported too. The guard behind the cache: rows
 * are trusted everywhere else. */
#include "cli/cache_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "db/cache.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "solve/solver.h"

typedef struct vrow {
    char game[32], variant[48];
    uint8_t key[GSW_MAX_KEY];
    size_t klen;
    cache_entry_t e;
} vrow_t;

typedef struct vrows {
    vrow_t *r;
    int n, cap;
    int oom;
} vrows_t;

static int collect(void *ctx, const char *game, const char *variant, const uint8_t *key, size_t klen,
                   const cache_entry_t *e)
{
    vrows_t *v = ctx;
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 256;
        vrow_t *nr = realloc(v->r, (size_t)cap * sizeof *nr);
        if (!nr) { v->oom = 1; return 1; }
        v->r = nr;
        v->cap = cap;
    }
    vrow_t *r = &v->r[v->n++];
    snprintf(r->game, sizeof r->game, "%s", game);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    memcpy(r->key, key, klen);
    r->klen = klen;
    r->e = *e;
    return 0;
}

enum { V_AGREES, V_DISAGREES, V_SKIPPED, V_UNPROVED };

/* A long row: the bounds proven so far, once a second, on stderr. */
static void verify_progress(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms)
{
    double *last = ctx;
    if (ms - *last < 1000) return;
    *last = ms;
    char b[96];
    value_open_text(lo, hi, b, sizeof b);
    fprintf(stderr, "  this row, %.0f s: %s, %.0f M nodes\n", ms / 1000, b, nodes / 1e6);
}

/* One row: the verdict, and a line saying why when it is not V_AGREES. */
static int verify_row(const vrow_t *row, gv_t *v, tt_t *tt, cli_args_t *o, char *pos_text, size_t pn,
                      char *why, size_t wn)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
    *pos_text = '\0';
    if (!O->pos_from_key) {
        snprintf(why, wn, "%s cannot turn keys back into positions", v->game->name);
        return V_SKIPPED;
    }
    if (!O->pos_from_key(v, row->key, row->klen, pos)) {
        snprintf(why, wn, "the key is no %s position", v->game->name);
        return V_DISAGREES;
    }
    O->pos_format(v, pos, pos_text, pn);
    double last = 0;
    ab_options_t ao = { .threads = opts_threads(o), .no_best = 1, .stop = &opts_stop, .node_limit = args_u64(o, "nodes", 0),
                        .time_limit_ms = args_num(o, "time", 0), .progress = verify_progress, .progress_ctx = &last };
    ab_result_t r;
    err_t err;
    if (ab_solve(v, tt, pos, &ao, &r, &err)) { snprintf(why, wn, "%s", err.msg); return V_UNPROVED; }
    char stored[128], found[128];
    value_text(row->e.lo, row->e.hi, stored, sizeof stored);
    if (r.aborted) {   /* what was proven may still refute the row */
        if (r.lo > row->e.hi || r.hi < row->e.lo) {
            value_text(r.lo, r.hi, found, sizeof found);
            snprintf(why, wn, "stored %s, but the value is %s", stored, found);
            return V_DISAGREES;
        }
        snprintf(why, wn, "not proved again within the budget");
        return V_UNPROVED;
    }
    value_text(r.lo, r.hi, found, sizeof found);
    if (r.lo < row->e.lo || r.lo > row->e.hi) {
        snprintf(why, wn, "stored %s, but the value is %s", stored, found);
        return V_DISAGREES;
    }
    if (row->e.best != MOVE_NONE) {   /* the stored best move reaches the stored lower bound */
        move_t mv[GSW_MAX_MOVES];
        int n = O->moves(v, pos, mv), legal = 0;
        for (int i = 0; i < n && !legal; i++) legal = mv[i] == row->e.best;
        if (!legal) {
            snprintf(why, wn, "stored best move %d is not legal there", (int)row->e.best);
            return V_DISAGREES;
        }
        memcpy(child, pos, O->pos_size);
        O->play(v, child, row->e.best);
        ab_result_t cr;
        if (ab_solve(v, tt, child, &ao, &cr, &err)) { snprintf(why, wn, "%s", err.msg); return V_UNPROVED; }
        if (cr.aborted) { snprintf(why, wn, "best move not proved again within the budget"); return V_UNPROVED; }
        if (val_up(cr.lo) < row->e.lo) {
            char mt[64], got[64];
            O->move_format(v, pos, row->e.best, mt, sizeof mt);
            value_text(val_up(cr.lo), val_up(cr.lo), got, sizeof got);
            snprintf(why, wn, "stored %s with best move %s, but that move gets %s", stored, mt, got);
            return V_DISAGREES;
        }
    }
    return V_AGREES;
}

static int cli_cache_verify(cli_args_t *o)
{
    err_t err;
    cache_t *c;
    if (opts_cache_open(o, &c, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (args_flag(o, "fix") && cache_readonly(c)) {
        fprintf(stderr, "gsw: cache %s is read-only: --fix cannot delete rows (verify without it, or make it writable)\n",
                cache_filename(c));
        cache_close(c, &(err_t){ 0 });
        return GSW_EFAIL;
    }
    char game[64] = "", variant[64] = "";
    if (o->npos == 2) {   /* GAME[:VARIANT], named as the cache names it */
        gv_t *gv;
        if (game_open(o->pos[1], &gv, &err)) {
            fprintf(stderr, "gsw: %s\n", err.msg);
            cache_close(c, &(err_t){ 0 });
            return err.code;
        }
        snprintf(game, sizeof game, "%s", gv->game->name);
        if (strchr(o->pos[1], ':')) snprintf(variant, sizeof variant, "%s", gv->name);
        game_close(gv);
    }
    vrows_t rows = { 0 };
    int rc = cache_each(c, *game ? game : NULL, *variant ? variant : NULL, (int64_t)args_u64(o, "sample", 0), collect, &rows, &err);
    if (!rc && rows.oom) rc = err_set(&err, GSW_EFAIL, "out of memory");
    if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        free(rows.r);
        cache_close(c, &(err_t){ 0 });
        return rc;
    }
    tt_t tt;
    if (tt_init(&tt, opts_hash_mb(o), &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        free(rows.r);
        cache_close(c, &(err_t){ 0 });
        return err.code;
    }
    json_t j;
    if (args_flag(o, "json")) {
        json_begin(&j, stdout);
        json_arr(&j, "problems");
    }
    int count[4] = { 0 }, deleted = 0, done = 0;
    gv_t *v = NULL;
    char open_spec[96] = "";
    double t0 = gsw_now_ms(), last = t0;
    for (int i = 0; i < rows.n && !opts_stop; i++) {
        const vrow_t *row = &rows.r[i];
        char spec[96], pos_text[4096] = "", why[600];
        snprintf(spec, sizeof spec, "%s:%s", row->game, row->variant);
        if (strcmp(spec, open_spec)) {   /* rows come ordered by game and variant */
            if (v) game_close(v);
            v = NULL;
            snprintf(open_spec, sizeof open_spec, "%s", spec);
            err_t ge;
            if (game_open(spec, &v, &ge)) v = NULL;
        }
        int verdict;
        if (!v) { snprintf(why, sizeof why, "no game %s here", spec); verdict = V_SKIPPED; }
        else verdict = verify_row(row, v, &tt, o, pos_text, sizeof pos_text, why, sizeof why);
        if (opts_stop && verdict == V_UNPROVED) break;   /* stopped inside this row */
        count[verdict]++;
        done++;
        int fixed = 0;
        if (verdict == V_DISAGREES && args_flag(o, "fix")) {
            if (cache_delete(c, row->game, row->variant, row->key, row->klen, &err)) {
                fprintf(stderr, "gsw: %s\n", err.msg);
                rc = err.code;
                break;
            }
            fixed = 1;
            deleted++;
        }
        if (verdict == V_DISAGREES || verdict == V_UNPROVED) {
            if (args_flag(o, "json")) {
                json_obj(&j, NULL);
                json_str(&j, "game", spec);
                json_str(&j, "position", pos_text);
                json_str(&j, "problem", verdict == V_DISAGREES ? "wrong" : "unproved");
                json_str(&j, "why", why);
                json_bool(&j, "deleted", fixed);
                json_close(&j, '}');
            } else {
                printf("%s \"%s\": %s%s\n", spec, pos_text, why, fixed ? " (deleted)" : "");
            }
        }
        double now = gsw_now_ms();
        if (now - last >= 1000) {
            char a[32], b[32], w[32];
            last = now;
            fprintf(stderr, "  %.0f s: %s of %s rows, %s wrong\n", (now - t0) / 1000, opts_thousands((uint64_t)done, a, sizeof a),
                    opts_thousands((uint64_t)rows.n, b, sizeof b), opts_thousands((uint64_t)count[V_DISAGREES], w, sizeof w));
        }
    }
    if (v) game_close(v);
    tt_free(&tt);
    free(rows.r);
    int complete = done == rows.n;
    if (args_flag(o, "json")) {
        json_close(&j, ']');
        json_int(&j, "rows", done);
        json_int(&j, "agree", count[V_AGREES]);
        json_int(&j, "wrong", count[V_DISAGREES]);
        json_int(&j, "deleted", deleted);
        json_int(&j, "skipped", count[V_SKIPPED]);
        json_int(&j, "unproved", count[V_UNPROVED]);
        json_bool(&j, "complete", complete);
        json_end(&j);
    } else {
        printf("verified %d row%s: %d agree, %d wrong%s, %d skipped, %d not proved within the budget\n", done,
               done == 1 ? "" : "s", count[V_AGREES], count[V_DISAGREES],
               deleted ? " (deleted)" : count[V_DISAGREES] ? " (--fix deletes them)" : "", count[V_SKIPPED],
               count[V_UNPROVED]);
    }
    err_t e2;
    if (cache_close(c, &e2) && !rc) { fprintf(stderr, "gsw: %s\n", e2.msg); rc = GSW_EFAIL; }
    if (!rc && !complete) {
        char a[32], b[32];
        fprintf(stderr, "gsw: interrupted after %s of %s rows\n", opts_thousands((uint64_t)done, a, sizeof a),
                opts_thousands((uint64_t)rows.n, b, sizeof b));
        rc = GSW_EFAIL;
    }
    if (!rc && count[V_DISAGREES] > deleted) rc = GSW_EFAIL;
    return rc;
}

static int cli_cache(cli_args_t *o)
{
    if (o->npos >= 1 && o->npos <= 2 && !strcmp(o->pos[0], "verify")) return cli_cache_verify(o);
    if (o->npos < 1) return opts_usage_error(o, 2, "cache needs stats, check or verify");
    if (strcmp(o->pos[0], "stats") && strcmp(o->pos[0], "check")) {
        fprintf(stderr, "gsw: cache: unknown subverb '%s' (stats, check or verify)\n", o->pos[0]);
        return GSW_EINPUT;
    }
    if (o->npos > 1) return opts_usage_error(o, 1, NULL);
    err_t err;
    cache_t *c;
    if (opts_cache_open(o, &c, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    int rc = GSW_OK;
    if (!strcmp(o->pos[0], "stats")) {
        static cache_stats_t st;
        rc = cache_stats(c, &st, &err);
        if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
        else if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "path", st.path);
            json_int(&j, "schema_version", st.schema_version);
            json_int(&j, "file_bytes", st.file_bytes);
            json_int(&j, "rows", st.rows);
            json_int(&j, "exact_rows", st.exact_rows);
            json_int(&j, "hits", st.hits);
            json_int(&j, "misses", st.misses);
            json_int(&j, "puts", st.puts);
            json_bool(&j, "read_only", cache_readonly(c));
            json_arr(&j, "groups");
            for (int i = 0; i < st.ngroups; i++) {
                json_obj(&j, NULL);
                json_str(&j, "game", st.groups[i].game);
                json_str(&j, "variant", st.groups[i].variant);
                json_int(&j, "rows", st.groups[i].rows);
                json_close(&j, '}');
            }
            json_close(&j, ']');
            json_end(&j);
        } else {
            char a[32], b[32], c3[32], d[32], e[32];
            printf("cache %s (schema %d, %s bytes%s)\n", st.path, st.schema_version,
                   opts_thousands((uint64_t)st.file_bytes, a, sizeof a), cache_readonly(c) ? ", read-only" : "");
            printf("positions %s (exact %s); hits %s, misses %s, stores %s\n", opts_thousands((uint64_t)st.rows, a, sizeof a),
                   opts_thousands((uint64_t)st.exact_rows, b, sizeof b), opts_thousands((uint64_t)st.hits, c3, sizeof c3),
                   opts_thousands((uint64_t)st.misses, d, sizeof d), opts_thousands((uint64_t)st.puts, e, sizeof e));
            for (int i = 0; i < st.ngroups; i++)
                printf("  %s:%s %s\n", st.groups[i].game, st.groups[i].variant,
                       opts_thousands((uint64_t)st.groups[i].rows, a, sizeof a));
        }
    } else {
        int ok = 0;
        char report[4096];
        rc = cache_check(c, &ok, report, sizeof report, &err);
        if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
        else {
            if (args_flag(o, "json")) {
                json_t j;
                json_begin(&j, stdout);
                json_bool(&j, "ok", ok);
                json_str(&j, "report", report);
                json_end(&j);
            } else printf("%s\n", ok ? "ok" : report);
            if (!ok) rc = GSW_EFAIL;
        }
    }
    err_t e2;
    if (cache_close(c, &e2) && !rc) { fprintf(stderr, "gsw: %s\n", e2.msg); rc = GSW_EFAIL; }
    return rc;
}

static const cli_opt_t cache_own[] = {
    OPT_DB,
    { "sample", OPT_U64, "N", "verify: about N random rows (default: every row)", 1, 1e15, NULL },
    { "fix", OPT_FLAG, NULL, "verify: delete the wrong rows", 0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const cache_opts[] = { opts_json, opts_search, opts_budget, cache_own, NULL };

const cli_verb_t verb_cache = {
    "cache", "gsw cache stats|check|verify [GAME[:VARIANT]] [--sample N] [--fix] [--db PATH]",
      "statistics, an integrity check, or the stored values proved again (verify; --fix deletes wrong rows)", cli_cache,
      2, NULL, .opts = cache_opts
};

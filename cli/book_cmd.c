/* gsw book build|stats: a game's opening book in the cache (the work is in
 * solve/book.c); this file parses, prints progress on stderr and results on
 * stdout. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "solve/book.h"
#include "cli/book_cmd.h"
#include "cli/opts.h"
#include "cli/json.h"


/* Progress on stderr: one line redrawn in place on a terminal (cleared at
 * the end); elsewhere (a log) the lines that end a phase. */
static void book_cli_progress(void *ctx, const char *line)
{
    (void)ctx;
    if (isatty(2)) fprintf(stderr, "\r\033[K%.*s", 150, line);
    else if (strstr(line, ": done")) fprintf(stderr, "%s\n", line);
}

static void book_cli_notice(void *ctx, const char *msg)
{
    (void)ctx;
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    fprintf(stderr, "gsw: %s\n", msg);
}

static int book_cli_build(cli_args_t *o, gv_t *v, cache_t *cache, err_t *err)
{
    book_options_t bo = { .ply = args_int(o, "ply", 0), .threads = args_given(o, "threads") ? opts_threads(o) : 0, .hash_mb = opts_hash_mb(o),
                          .stop = &opts_stop, .progress = book_cli_progress, .notice = book_cli_notice };
    static book_report_t r;
    int rc = book_build(v, cache, &bo, &r, err);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (rc) return rc;
    char spec[96], n1[32], n2[32], n3[32], n4[32];
    game_spec(v, spec, sizeof spec);
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_str(&j, "variant", v->name);
        json_int(&j, "ply", r.ply);
        json_bool(&j, "complete", r.complete);
        json_int(&j, "positions", r.positions);
        json_arr(&j, "plies");
        for (int k = 0; k <= r.ply; k++) {
            json_obj(&j, NULL);
            json_int(&j, "ply", k);
            json_int(&j, "positions", r.at_ply[k]);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_int(&j, "searched", r.searched);
        json_int(&j, "stored", r.stored);
        json_int(&j, "derived", r.derived);
        json_int(&j, "nodes", (int64_t)r.nodes);
        json_num(&j, "time_ms", r.ms);
        json_str(&j, "cache", cache_filename(cache));
        json_end(&j);
    } else if (r.complete)
        printf("%s book to ply %d: %s positions; ply %d: %s solved by search, %s found in the book; %s valued from "
               "their children; %.1f s, in %s\n", spec, r.ply, opts_thousands((uint64_t)r.positions, n1, sizeof n1),
               r.ply, opts_thousands((uint64_t)r.searched, n2, sizeof n2), opts_thousands((uint64_t)r.stored, n3, sizeof n3),
               opts_thousands((uint64_t)r.derived, n4, sizeof n4), r.ms / 1000, cache_filename(cache));
    if (!r.complete)
        return err_set(err, GSW_EFAIL, "stopped: %lld ply-%d positions solved are kept; run again to resume",
                       (long long)(r.searched + r.stored), r.ply);
    return GSW_OK;
}

static int book_cli_stats(cli_args_t *o, gv_t *v, cache_t *cache, err_t *err)
{
    static book_stats_t st;
    if (book_stats(v, cache, &st, err)) return err->code;
    char spec[96], shipped[1100];
    game_spec(v, spec, sizeof spec);
    /* the book gsw ships for v answers before the cache's */
    int have_shipped = book_shipped_path(v, shipped, sizeof shipped), sdepth = have_shipped ? book_file_depth(shipped) : -1;
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_str(&j, "variant", v->name);
        if (have_shipped) {
            json_obj(&j, "shipped");
            json_str(&j, "path", shipped);
            json_int(&j, "max_ply", sdepth);
            json_close(&j, '}');
        } else json_null(&j, "shipped");
        json_int(&j, "max_ply", st.max_ply);
        json_arr(&j, "plies");
        for (int k = 0; k <= st.max_ply; k++) {
            json_obj(&j, NULL);
            json_int(&j, "ply", k);
            json_int(&j, "positions", st.ply[k].positions);
            json_int(&j, "wins", st.ply[k].wins);
            json_int(&j, "draws", st.ply[k].draws);
            json_int(&j, "losses", st.ply[k].losses);
            json_int(&j, "unsolved", st.ply[k].unsolved);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_int(&j, "positions", st.total.positions);
        json_int(&j, "wins", st.total.wins);
        json_int(&j, "draws", st.total.draws);
        json_int(&j, "losses", st.total.losses);
        json_int(&j, "unsolved", st.total.unsolved);
        json_str(&j, "cache", cache_filename(cache));
        json_end(&j);
        return GSW_OK;
    }
    if (have_shipped)
        printf("%s: the shipped book answers first: %s (plies 0-%d)\n", spec, shipped, sdepth);
    if (st.max_ply < 0) {
        printf("%s has no book in %s (gsw book build %s --ply N)\n", spec, cache_filename(cache), spec);
        return GSW_OK;
    }
    printf("%s book in %s: values for the first player\n", spec, cache_filename(cache));
    printf("%5s %12s %12s %12s %12s%s\n", "ply", "positions", "wins", "draws", "losses",
           st.total.unsolved ? "     unsolved" : "");
    char a[32], b[32], c[32], d[32], e[32];
    for (int k = 0; k <= st.max_ply + 1; k++) {
        const book_ply_t *p = k <= st.max_ply ? &st.ply[k] : &st.total;
        char ply[16];
        if (k <= st.max_ply) snprintf(ply, sizeof ply, "%d", k);
        else snprintf(ply, sizeof ply, "all");
        printf("%5s %12s %12s %12s %12s", ply, opts_thousands((uint64_t)p->positions, a, sizeof a),
               opts_thousands((uint64_t)p->wins, b, sizeof b), opts_thousands((uint64_t)p->draws, c, sizeof c),
               opts_thousands((uint64_t)p->losses, d, sizeof d));
        if (st.total.unsolved) printf(" %12s", opts_thousands((uint64_t)p->unsolved, e, sizeof e));
        printf("\n");
    }
    if (st.total.unsolved)
        printf("unsolved: book positions whose value is no longer in the cache (gsw book build solves them again)\n");
    return GSW_OK;
}

/* One book file's summary: what it holds and its checksum. */
static void book_cli_file(cli_args_t *o, const char *what, const char *spec, const char *path,
                          const book_file_report_t *r)
{
    char n1[32];
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "file", path);
        json_int(&j, "positions", r->positions);
        json_int(&j, "max_ply", r->max_ply);
        char sum[24];
        snprintf(sum, sizeof sum, "%016llx", (unsigned long long)r->checksum);
        json_str(&j, "fnv1a64", sum);
        json_end(&j);
    } else
        printf("%s: %s book, %s positions to ply %d, FNV-1a 64 %016llx (%s)\n", path, spec,
               opts_thousands((uint64_t)r->positions, n1, sizeof n1), r->max_ply, (unsigned long long)r->checksum, what);
}

/* gsw book check GAME [FILE]: read a book file (the shipped one by
 * default) as the solver would, and say what it holds. */
static int book_cli_check(cli_args_t *o, gv_t *v, err_t *err)
{
    char path[1100], spec[96];
    game_spec(v, spec, sizeof spec);
    if (o->npos >= 3) snprintf(path, sizeof path, "%s", o->pos[2]);
    else if (!book_shipped_path(v, path, sizeof path))
        return err_set(err, GSW_EINPUT, "gsw ships no book for %s (name a book file)", spec);
    book_t *b;
    book_file_report_t r;
    if (book_open_file(&b, v, path, &r, err)) return err->code;
    book_free(b);
    if (args_flag(o, "record") && book_file_record(path, o->argc, o->argv, r.positions, err)) return err->code;
    book_cli_file(o, "read and checked", spec, path, &r);
    return GSW_OK;
}

static int book_cli_export(cli_args_t *o, gv_t *v, cache_t *cache, err_t *err)
{
    char spec[96];
    game_spec(v, spec, sizeof spec);
    book_file_report_t r;
    if (book_export(v, cache, o->pos[2], &r, err)) return err->code;
    if (book_file_record(o->pos[2], o->argc, o->argv, r.positions, err)) return err->code;   /* its folder's MANIFEST */
    book_cli_file(o, "written", spec, o->pos[2], &r);
    return GSW_OK;
}

static int cli_book(cli_args_t *o)
{
    if (o->npos < 1) return opts_usage_error(o, 2, "book needs build, stats, export or check");
    const char *sub = o->pos[0];
    if (strcmp(sub, "build") && strcmp(sub, "stats") && strcmp(sub, "export") && strcmp(sub, "check")) {
        fprintf(stderr, "gsw: book: unknown subverb '%s' (build, stats, export or check)\n", sub);
        return GSW_EINPUT;
    }
    if (o->npos < 2) return opts_usage_error(o, 2, "book needs a GAME[:VARIANT]");
    int build = !strcmp(sub, "build"), export = !strcmp(sub, "export"), check = !strcmp(sub, "check");
    if (export && o->npos != 3) return opts_usage_error(o, 2, "book export needs a GAME[:VARIANT] and a FILE");
    if (!export && o->npos > (check ? 3 : 2)) {
        fprintf(stderr, "gsw: unexpected argument '%s'\n", o->pos[check ? 3 : 2]);
        return GSW_EINPUT;
    }
    if (args_flag(o, "record") && !check) {
        fprintf(stderr, "gsw: --record is for book check (export records the file it writes)\n");
        return GSW_EINPUT;
    }
    if (build && !args_given(o, "ply")) return opts_usage_error(o, 2, "book build needs --ply N");
    if (!build && args_given(o, "ply")) {
        fprintf(stderr, "gsw: --ply is for book build (the other subverbs take every ply of the book)\n");
        return GSW_EINPUT;
    }
    if (args_flag(o, "no-cache") && !check) {
        fprintf(stderr, "gsw: --no-cache: the book lives in the cache (--db PATH names another file)\n");
        return GSW_EINPUT;
    }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[1], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    int rc = book_supported(v, &err);
    cache_t *cache = NULL;
    if (!rc && check) rc = book_cli_check(o, v, &err);
    else if (!rc) rc = opts_cache_open(o, &cache, &err);
    if (!rc && !check)
        rc = build ? book_cli_build(o, v, cache, &err) : export ? book_cli_export(o, v, cache, &err)
                                                              : book_cli_stats(o, v, cache, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    err_t e2;
    if (cache && cache_close(cache, &e2) && !rc) { fprintf(stderr, "gsw: %s\n", e2.msg); rc = GSW_EFAIL; }
    game_close(v);
    return rc;
}

static const cli_opt_t book_own[] = {
    { "ply", OPT_INT, "N", "build: the book's depth in plies", 0, 1000, NULL },
    { "record", OPT_FLAG, NULL, "check: record the file, once checked, in its folder's MANIFEST", 0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const book_opts[] = { opts_json, opts_cache, opts_search, book_own, NULL };

const cli_verb_t verb_book = {
    "book", "gsw book build|stats|export|check connect4[:WxH] [FILE] [--ply N] [--record] [--threads N] [--hash MB] [--db PATH]\n"
              "  build: solve every position up to ply N exactly (mirror images once; a finished game is no book\n"
              "  position) into the cache: ply N by search on --threads workers (default: all cores), the plies\n"
              "  above from their children's values. Ctrl-C keeps what is solved; building again resumes, and\n"
              "  a deeper --ply extends the book. stats: book positions per ply, won/drawn/lost for the first\n"
              "  player. export: write the cache's book to FILE (a compact, checksummed book file), recorded in\n"
              "  its folder's MANIFEST. check: read a book file (default: the one gsw ships,\n"
              "  data/books/connect4-7x6.book; GSW_BOOKS=DIR moves it) and say what it holds; --record: then\n"
              "  record it in its folder's MANIFEST. The shipped book is read only when that MANIFEST lists it\n"
              "  with its size (GSW_TRUST=1, or --trust where a verb takes it: used anyway, with a warning). Solves, analyses and the workbench answer book positions at once (the\n"
              "  shipped book first, read-only, then the cache's), and a search from a shallower position stops\n"
              "  at the book's positions.",
      "opening books: build (every position to ply N, solved), statistics, export, check", cli_book, 3, NULL, .opts = book_opts
};

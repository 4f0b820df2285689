/* The command line's dispatcher (cli/cli.h): the verb named by argv[1]
 * from the table main.c hands over, its options parsed, its usage on
 * --help; and the two verbs that need the table, help and version. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/err.h"
#include "db/manifest.h"
#include "cli/json.h"
#include "dist/dist.h"
#include "games/chess/ch_syzygy.h"
#include "solve/solver.h"
#include "solve/trust.h"

#ifndef GSW_VERSION
#define GSW_VERSION "unknown"
#endif

static const cli_verb_t *const *cli_table;
static int cli_dispatch(int argc, char **argv);

const cli_verb_t *cli_find(const char *name)
{
    for (int i = 0; cli_table && cli_table[i]; i++)
        if (!strcmp(cli_table[i]->name, name)) return cli_table[i];
    return NULL;
}

/* Does v take --json at all (some use of it prints a document)? */
static int cli_verb_json(const cli_verb_t *v)
{
    for (int t = 0; v->opts && v->opts[t]; t++)
        for (const cli_opt_t *d = v->opts[t]; d->name; d++)
            if (!strcmp(d->name, "json")) return 1;
    return 0;
}

static void cli_usage(FILE *f)
{
    fprintf(f, "gsw %s — a game-solving workbench\n\nusage: gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]\n\n",
            GSW_VERSION);
    for (int i = 0; cli_table[i]; i++) fprintf(f, "  %-8s %s\n", cli_table[i]->name, cli_table[i]->summary);
    fprintf(f, "\nA verb's options: gsw help VERB (or gsw VERB --help); --json (where a verb takes it): one JSON\n"
               "document on stdout.\n"
               "POSITION \"\" or startpos is the start. Exit status: 0 ok, 2 bad input, 1 other failure.\n");
}

/* v's options as a JSON array "options": name, kind, value (null: a flag), help. */
static void cli_help_opts_json(json_t *j, const cli_verb_t *v)
{
    json_arr(j, "options");
    for (int t = 0; v->opts && v->opts[t]; t++)
        for (const cli_opt_t *d = v->opts[t]; d->name; d++) {
            json_obj(j, NULL);
            static const char *const kinds[] = { "flag", "string", "int", "number", "u64", "list" };
            json_str(j, "name", d->name);
            json_str(j, "kind", kinds[d->kind]);
            if (d->value) json_str(j, "value", d->value);
            else json_null(j, "value");
            json_str(j, "help", d->help);
            json_close(j, '}');
        }
    json_close(j, ']');
}

/* One verb's usage and options, as text or JSON. */
static void cli_verb_help(const cli_verb_t *v, int json)
{
    if (!json) {
        printf("%s\n  %s\n\n", v->usage, v->summary);
        opts_help(stdout, v);
        return;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", v->name);
    json_str(&j, "usage", v->usage);
    json_str(&j, "summary", v->summary);
    cli_help_opts_json(&j, v);
    json_bool(&j, "json", cli_verb_json(v));
    json_end(&j);
}

static int cli_help(cli_args_t *o)
{
    int json = args_flag(o, "json");
    if (o->npos >= 1) {
        const cli_verb_t *v = cli_find(o->pos[0]);
        if (!v) { fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", o->pos[0]); return GSW_EINPUT; }
        cli_verb_help(v, json);
        return GSW_OK;
    }
    if (!json) {
        cli_usage(stdout);
        return GSW_OK;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", "gsw");
    json_str(&j, "version", GSW_VERSION);
    json_str(&j, "usage", "gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]");
    json_arr(&j, "verbs");
    for (int i = 0; cli_table[i]; i++) {
        json_obj(&j, NULL);
        json_str(&j, "name", cli_table[i]->name);
        json_str(&j, "usage", cli_table[i]->usage);
        json_str(&j, "summary", cli_table[i]->summary);
        cli_help_opts_json(&j, cli_table[i]);
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_obj(&j, "exit_status");
    json_str(&j, "0", "ok");
    json_str(&j, "1", "a failure: a corrupt cache, a budget spent, Ctrl-C, a batch mismatch");
    json_str(&j, "2", "an argument or input that cannot be parsed or is illegal");
    json_close(&j, '}');
    json_end(&j);
    return GSW_OK;
}

static int cli_version(cli_args_t *o)
{
    if (!args_flag(o, "json")) {
        printf("gsw %s (commit %s)\n", GSW_VERSION, manifest_gsw_commit());
        return GSW_OK;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", "gsw");
    json_str(&j, "version", GSW_VERSION);
    json_str(&j, "commit", manifest_gsw_commit());
    json_end(&j);
    return GSW_OK;
}

int cli_main(const cli_verb_t *const *verbs, int argc, char **argv)
{
    cli_table = verbs;
    return cli_dispatch(argc, argv);
}

/* The Syzygy tablebases' folders: --syzygy where the verb takes it, else
 * $GSW_SYZYGY; a folder that is not one, or holds no table, is refused.
 * The tables checked are remembered beside --db's cache where it is given. */
static int cli_syzygy(const cli_args_t *o)
{
    const char *dirs = args_has(o, "syzygy") ? args_str(o, "syzygy") : NULL, *from = "--syzygy";
    if (!dirs) {
        dirs = getenv("GSW_SYZYGY");
        from = "$GSW_SYZYGY";
    }
    if (!dirs || !*dirs) return 0;
    err_t err;
    if (!ch_syzygy_open(dirs, args_has(o, "db") ? args_str(o, "db") : NULL, &err)) return 0;
    fprintf(stderr, "gsw: %s: %s\n", from, err.msg);
    return 1;
}

static int cli_dispatch(int argc, char **argv)
{
    double t_start = gsw_now_ms();   /* a --time budget counts from here: start-up is in it */
    if (argc < 2) {
        if (!isatty(0) || !isatty(1)) {
            fprintf(stderr, "gsw: not a terminal: the workbench needs one. For scripts use `gsw shell` "
                            "(reads commands from a pipe) or the CLI verbs (gsw help)\n");
            return GSW_EINPUT;
        }
        argv[1] = (char *)"play";   /* gsw alone: the workbench, at its game picker */
        argc = 2;
    }
    const cli_verb_t *v = cli_find(opts_verb_alias(argv[1]));
    if (!v) {
        fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", argv[1]);
        return GSW_EINPUT;
    }
    for (int i = 2; i < argc; i++)   /* a worker rank says only what rank 0 cannot */
        if (argv[i][0] == '-' && argv[i][1] == '-' && !strcmp(argv[i] + 2, opts_mpi[0].name)) dist_quiet_worker();
    cli_args_t o;
    memset(&o, 0, sizeof o);
    o.t_start = t_start;
    int help;
    if (opts_parse(argc, argv, 2, v, &o, &help)) return GSW_EINPUT;
    int json = args_has(&o, "json") && args_flag(&o, "json");
    if (help) {
        cli_verb_help(v, json);
        return GSW_OK;
    }
    const char *na = json && v->no_json ? v->no_json(&o) : NULL;
    if (na) {
        fprintf(stderr, "gsw: --json does not apply to gsw %s: %s\n", v->name, na);
        return GSW_EINPUT;
    }
    if (o.npos > v->max_pos) return opts_usage_error(&o, v->max_pos, NULL);
    o.notices = !v->screen;   /* (a screen is no place for them) */
    if (args_has(&o, "trust") && args_flag(&o, "trust")) source_set_trust(1);
    if (cli_syzygy(&o)) return GSW_EINPUT;
    opts_signals();
    if (args_has(&o, "mpi") && args_flag(&o, "mpi")) {   /* one rank of an mpirun job */
        if (!v->mpi_sub || (*v->mpi_sub && !(o.npos >= 1 && !strcmp(o.pos[0], v->mpi_sub)))) {
            fprintf(stderr, "gsw: --mpi applies to gsw egdb build, gsw proof run and gsw tune\n");
            return GSW_EINPUT;
        }
        err_t err;
        if (dist_start(&argc, &argv, &o.dist, &err)) {
            if (err.msg[0]) fprintf(stderr, "gsw: %s\n", err.msg);
            dist_end(o.dist);
            return err.code;
        }
        if (dist_rank(o.dist) != 0) {   /* only rank 0 writes stdout and opens the cache */
            if (!freopen("/dev/null", "w", stdout)) { dist_end(o.dist); return GSW_EFAIL; }
            args_set_flag(&o, "no-cache");
        }
    }
    int rc = v->run(&o);
    if (o.dist) dist_end(o.dist);
    return rc;
}

static const cli_opt_t *const help_opts[] = { opts_json, NULL };

const cli_verb_t verb_help = {
    "help", "gsw help [VERB]", "this list, or one verb's usage and options", cli_help, 1, NULL, .opts = help_opts
};

const cli_verb_t verb_version = {
    "version", "gsw version (or gsw --version)", "gsw's version", cli_version, 0, NULL, .opts = help_opts
};

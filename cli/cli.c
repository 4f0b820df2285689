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
#include "cli/json.h"
#include "dist/dist.h"
#include "solve/solver.h"

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

static const char *cli_common_opts =
    "options: --json (one JSON document on stdout), --db PATH (cache file; also $GSW_DB),\n"
    "         --no-cache, --hash MB (transposition table, default 128), --threads N, --time MS,\n"
    "         --nodes N\n";
/* ... for a verb that draws a screen or speaks a protocol: no --json */
static const char *cli_screen_opts =
    "options: --db PATH (cache file; also $GSW_DB), --no-cache, --hash MB (transposition table,\n"
    "         default 128), --threads N, --time MS, --nodes N\n";

/* Does --json apply to v at all (some use of it prints a document)? */
static int cli_verb_json(const cli_verb_t *v)
{
    cli_opts_t z;
    memset(&z, 0, sizeof z);
    return !v->no_json || !v->no_json(&z);
}

static void cli_usage(FILE *f)
{
    fprintf(f, "gsw %s — a game-solving workbench\n\nusage: gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]\n\n",
            GSW_VERSION);
    for (int i = 0; cli_table[i]; i++) fprintf(f, "  %-8s %s\n", cli_table[i]->name, cli_table[i]->summary);
    fprintf(f, "\n%s\nPOSITION \"\" or startpos is the start. Exit status: 0 ok, 2 bad input, 1 other failure.\n",
            cli_common_opts);
}

/* One verb's usage, as text or JSON. */
static void cli_verb_help(const cli_verb_t *v, int json)
{
    const char *opts = cli_verb_json(v) ? cli_common_opts : cli_screen_opts;
    if (!json) {
        printf("%s\n  %s\n\n%s", v->usage, v->summary, opts);
        return;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", v->name);
    json_str(&j, "usage", v->usage);
    json_str(&j, "summary", v->summary);
    json_str(&j, "options", opts);
    json_bool(&j, "json", cli_verb_json(v));
    json_end(&j);
}

static int cli_help(cli_opts_t *o)
{
    if (o->npos >= 1) {
        const cli_verb_t *v = cli_find(o->pos[0]);
        if (!v) { fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", o->pos[0]); return GSW_EINPUT; }
        cli_verb_help(v, o->json);
        return GSW_OK;
    }
    if (!o->json) {
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
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_str(&j, "options", cli_common_opts);
    json_obj(&j, "exit_status");
    json_str(&j, "0", "ok");
    json_str(&j, "1", "a failure: a corrupt cache, a budget spent, Ctrl-C, a batch mismatch");
    json_str(&j, "2", "an argument or input that cannot be parsed or is illegal");
    json_close(&j, '}');
    json_end(&j);
    return GSW_OK;
}

static int cli_version(cli_opts_t *o)
{
    if (!o->json) {
        printf("gsw %s\n", GSW_VERSION);
        return GSW_OK;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", "gsw");
    json_str(&j, "version", GSW_VERSION);
    json_end(&j);
    return GSW_OK;
}

int cli_main(const cli_verb_t *const *verbs, int argc, char **argv)
{
    cli_table = verbs;
    return cli_dispatch(argc, argv);
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
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) name = "help";
    else if (!strcmp(name, "--version") || !strcmp(name, "-V")) name = "version";
    const cli_verb_t *v = cli_find(name);
    if (!v) {
        fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", argv[1]);
        return GSW_EINPUT;
    }
    for (int i = 2; i < argc; i++)   /* a worker rank says only what rank 0 cannot */
        if (!strcmp(argv[i], "--mpi")) dist_quiet_worker();
    cli_opts_t o;
    memset(&o, 0, sizeof o);
    o.verb = v->name;
    o.t_start = t_start;
    o.hash_mb = GSW_HASH_MB_DEFAULT;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = nc > 0 ? (int)nc : 1;
    o.entry = v;
    if (opts_parse(argc, argv, 2, &o)) return GSW_EINPUT;
    if (o.help) {
        cli_verb_help(v, o.json);
        return GSW_OK;
    }
    const char *na = o.json && v->no_json ? v->no_json(&o) : NULL;
    if (na) {
        fprintf(stderr, "gsw: --json does not apply to gsw %s: %s\n", v->name, na);
        return GSW_EINPUT;
    }
    if (o.npos > v->max_pos) return opts_usage_error(&o, v->max_pos, NULL);
    opts_egdb_dir(&o);
    if (strcmp(v->name, "play") && strcmp(v->name, "lesson"))   /* (the workbench's screen is no place for them) */
        o.notices = 1;
    opts_signals();
    if (o.mpi) {   /* one rank of an mpirun job */
        int sub = o.npos >= 1 && !strcmp(o.pos[0], !strcmp(v->name, "egdb") ? "build" : "run");
        if (!(((!strcmp(v->name, "egdb") || !strcmp(v->name, "proof")) && sub) || !strcmp(v->name, "tune"))) {
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
            o.no_cache = 1;
        }
    }
    int rc = v->run(&o);
    if (o.dist) dist_end(o.dist);
    return rc;
}


const cli_verb_t verb_help = {
    "help", "gsw help [VERB]", "this list, or one verb's usage", cli_help, 1, NULL
};

const cli_verb_t verb_version = {
    "version", "gsw version (or gsw --version)", "gsw's version", cli_version, 0, NULL
};

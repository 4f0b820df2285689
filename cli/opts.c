/* Shared option helpers of the verbs (cli/opts.h): parsing, usage errors,
 * counts, the verb's cache, the stop flags. */
#include "cli/opts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solve/solver.h"

gsw_flag_t opts_stop, opts_term;

/* SIGINT stops the work at hand; SIGTERM and SIGHUP stop it and end the
 * program once what was proven is stored (the shell reads no more lines).
 * A second signal leaves at once. */
static void opts_sigint(int sig)
{
    if (opts_stop && (sig == SIGINT || opts_term)) _exit(128 + sig);
    if (sig != SIGINT) opts_term = 1;
    opts_stop = 1;
}

const char *opts_thousands(uint64_t n, char *buf, size_t len)
{
    char digits[24], out[32];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), k = 0;
    for (int i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

/* The first line of a verb's usage. */
int opts_usage_line(const cli_verb_t *v)
{
    return (int)strcspn(v->usage, "\n");
}

int opts_usage_error(const cli_args_t *o, int max, const char *what)
{
    const cli_verb_t *v = o->entry;
    char why[300];
    if (o->npos > max) snprintf(why, sizeof why, "unexpected argument '%s'", o->pos[max]);
    else snprintf(why, sizeof why, "%s", what ? what : "missing arguments");
    int more = strchr(v->usage, '\n') != NULL;
    fprintf(stderr, "gsw: %s; usage: %.*s%s%s%s\n", why, opts_usage_line(v), v->usage, more ? " (more: gsw help " : "",
            more ? v->name : "", more ? ")" : "");
    return GSW_EINPUT;
}

/* A number option: lo..hi, a whole number where whole. Bounds print as whole
 * numbers with separators. */
int opts_parse_num(const char *opt, const char *s, double lo, double hi, int whole, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || errno || !(d >= lo && d <= hi) || (whole && d != (double)(uint64_t)d)) {
        char l[32], h[32];
        opts_thousands((uint64_t)lo, l, sizeof l);
        opts_thousands((uint64_t)hi, h, sizeof h);
        fprintf(stderr, "gsw: %s: bad value \"%s\" (expected a %s from %s to %s)\n", opt, s,
                whole ? "whole number" : "number", l, h);
        return GSW_EINPUT;
    }
    *out = d;
    return GSW_OK;
}

const cli_opt_t opts_json[] = { OPT_JSON, OPT_END };
const cli_opt_t opts_cache[] = { OPT_DB, OPT_NO_CACHE, OPT_END };
const cli_opt_t opts_search[] = { OPT_HASH, OPT_THREADS, OPT_END };
const cli_opt_t opts_budget[] = { OPT_TIME, OPT_NODES, OPT_END };
const cli_opt_t opts_egdb[] = {
    { "dir", OPT_STR, "DIR", "the endgame databases' folder (also $GSW_EGDB; default egdb/ beside the cache)", 0, 0,
      NULL },
    OPT_TRUST,
    { "syzygy", OPT_STR, "DIR[:DIR]", "chess: the Syzygy tablebases' folders (also $GSW_SYZYGY)", 0, 0, NULL },
    OPT_END,
};
const cli_opt_t opts_mpi[] = {
    { "mpi", OPT_FLAG, NULL, "one rank of an mpirun job", 0, 0, NULL },
    OPT_END,
};

const char *opts_verb_alias(const char *arg)
{
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) return "help";
    if (!strcmp(arg, "--version") || !strcmp(arg, "-V")) return "version";
    return arg;
}

/* The declaration of --NAME (len: its length) in v's tables; NULL: none. */
static const cli_opt_t *opts_decl(const cli_verb_t *v, const char *name, size_t len)
{
    for (int t = 0; v->opts && v->opts[t]; t++)
        for (const cli_opt_t *d = v->opts[t]; d->name; d++)
            if (strlen(d->name) == len && !strncmp(d->name, name, len)) return d;
    return NULL;
}

/* One option's value from s into val, as its kind says. */
static int opts_value(const cli_opt_t *d, const char *s, cli_val_t *val)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", d->name);
    switch (d->kind) {
    case OPT_FLAG: break;
    case OPT_STR:
        if (d->check && d->check(s)) return GSW_EINPUT;
        val->str = s;
        break;
    case OPT_INT: case OPT_U64: case OPT_NUM:
        if (opts_parse_num(opt, s, d->lo, d->hi, d->kind != OPT_NUM, &val->num)) return GSW_EINPUT;
        break;
    case OPT_LIST:
        if (!strchr(s, '=') || s[0] == '=') {
            fprintf(stderr, "gsw: %s %s: expected NAME=VALUE\n", opt, s);
            return GSW_EINPUT;
        }
        if (val->n >= (int)d->hi || val->n >= CLI_MAX_LIST) {
            fprintf(stderr, "gsw: %s: at most %d\n", opt, (int)d->hi);
            return GSW_EINPUT;
        }
        val->list[val->n++] = s;
        break;
    }
    val->given = 1;
    return GSW_OK;
}

int opts_parse(int argc, char **argv, int first, const cli_verb_t *v, cli_args_t *a, int *help)
{
    a->entry = v;
    a->nopt = 0;
    a->argc = argc;
    a->argv = argv;
    for (int t = 0; v->opts && v->opts[t]; t++)
        for (const cli_opt_t *d = v->opts[t]; d->name; d++) {
            if (a->nopt >= CLI_MAX_OPTS) {
                fprintf(stderr, "gsw %s: internal error: over %d options declared\n", v->name, CLI_MAX_OPTS);
                abort();
            }
            memset(&a->val[a->nopt], 0, sizeof a->val[a->nopt]);
            a->decl[a->nopt++] = d;
        }
    *help = 0;
    for (int i = first; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) { *help = 1; continue; }
        if (!strcmp(s, "-o") && opts_decl(v, "out", 3)) s = "--out";   /* the one short form: -o FILE */
        if (s[0] != '-' || s[1] != '-') {
            if (a->npos >= CLI_MAX_POS) {
                fprintf(stderr, "gsw: unexpected argument '%s'\n", s);
                return GSW_EINPUT;
            }
            a->pos[a->npos++] = s;
            continue;
        }
        const cli_opt_t *d = opts_decl(v, s + 2, strlen(s + 2));
        if (!d) {
            const char *na = !strcmp(s, "--json") && v->no_json ? v->no_json(a) : NULL;
            if (na) fprintf(stderr, "gsw: --json does not apply to gsw %s: %s\n", v->name, na);
            else fprintf(stderr, "gsw %s: no option %s (gsw %s --help)\n", v->name, s, v->name);
            return GSW_EINPUT;
        }
        int k = 0;
        while (a->decl[k] != d) k++;
        if (d->kind != OPT_FLAG && i + 1 >= argc) {
            fprintf(stderr, "gsw: %s needs a value\n", s);
            return GSW_EINPUT;
        }
        if (opts_value(d, d->kind == OPT_FLAG ? NULL : argv[++i], &a->val[k])) return GSW_EINPUT;
    }
    return GSW_OK;
}

/* The value of a declared option of that kind (OPT_U64 and OPT_INT are
 * both whole numbers); a programming error otherwise. */
static const cli_val_t *args_val(const cli_args_t *a, const char *name, int kind)
{
    for (int k = 0; k < a->nopt; k++) {
        if (strcmp(a->decl[k]->name, name)) continue;
        int dk = (int)a->decl[k]->kind;
        if (kind < 0 || dk == kind || (kind == OPT_INT && dk == OPT_U64) || (kind == OPT_U64 && dk == OPT_INT))
            return &a->val[k];
        break;
    }
    fprintf(stderr, "gsw %s: internal error: reads option --%s, which it does not declare (as that kind)\n",
            a->entry ? a->entry->name : "?", name);
    abort();
}

int args_has(const cli_args_t *a, const char *name)
{
    for (int k = 0; k < a->nopt; k++)
        if (!strcmp(a->decl[k]->name, name)) return 1;
    return 0;
}

int args_given(const cli_args_t *a, const char *name) { return args_val(a, name, -1)->given; }
int args_flag(const cli_args_t *a, const char *name) { return args_val(a, name, OPT_FLAG)->given; }
const char *args_str(const cli_args_t *a, const char *name) { return args_val(a, name, OPT_STR)->str; }

int args_int(const cli_args_t *a, const char *name, int def)
{
    const cli_val_t *v = args_val(a, name, OPT_INT);
    return v->given ? (int)v->num : def;
}

double args_num(const cli_args_t *a, const char *name, double def)
{
    const cli_val_t *v = args_val(a, name, OPT_NUM);
    return v->given ? v->num : def;
}

uint64_t args_u64(const cli_args_t *a, const char *name, uint64_t def)
{
    const cli_val_t *v = args_val(a, name, OPT_U64);
    return v->given ? (uint64_t)v->num : def;
}

int args_list(const cli_args_t *a, const char *name, const char *const **items)
{
    const cli_val_t *v = args_val(a, name, OPT_LIST);
    *items = v->list;
    return v->n;
}

void args_set_flag(cli_args_t *a, const char *name)
{
    for (int k = 0; k < a->nopt; k++)
        if (!strcmp(a->decl[k]->name, name) && a->decl[k]->kind == OPT_FLAG) a->val[k].given = 1;
}

int opts_threads(const cli_args_t *a)
{
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    return args_int(a, "threads", nc > 0 ? (int)nc : 1);
}

size_t opts_hash_mb(const cli_args_t *a)
{
    return (size_t)args_int(a, "hash", GSW_HASH_MB_DEFAULT);
}

void opts_help(FILE *f, const cli_verb_t *v)
{
    int any = 0;
    for (int t = 0; v->opts && v->opts[t]; t++)
        for (const cli_opt_t *d = v->opts[t]; d->name; d++) {
            fprintf(f, "%s  --%s%s%s: %s\n", any ? "" : "options:\n", d->name, d->value ? " " : "",
                    d->value ? d->value : "", d->help);
            any = 1;
        }
    fprintf(f, "%s  -h, --help: this usage\n", any ? "" : "options:\n");
}

/* The cache's notices (a lock waited for, a read-only file) on stderr. */
static void opts_notice(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "gsw: %s\n", msg);
}

int opts_cache_open(const cli_args_t *o, cache_t **c, err_t *err)
{
    char path[1024];
    const char *db = args_str(o, "db");
    if (db) snprintf(path, sizeof path, "%s", db);
    else if (cache_default_path(path, sizeof path, err)) return err->code;
    return cache_open_notice(path, o->notices ? opts_notice : NULL, NULL, c, err);
}


void opts_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = opts_sigint;   /* no SA_RESTART: a read waiting for input returns */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

const char *opts_egdb_dir(const cli_args_t *o)
{
    if (!o->entry->egdb) return NULL;   /* (a verb that reads no endgame databases; strong's --dir is its own) */
    const char *dir = args_str(o, "dir"), *env = getenv("GSW_EGDB");
    if (!dir && env && *env) dir = env;
    return dir;
}

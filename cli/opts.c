/* Shared option helpers of the verbs (cli/opts.h): parsing, usage errors,
 * counts, the verb's cache, the stop flags. */
#include "cli/opts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile int opts_stop, opts_term;

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

int opts_usage_error(const cli_opts_t *o, int max, const char *what)
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

int opts_parse(int argc, char **argv, int first, cli_opts_t *o)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        double d;
#define NEEDARG() do { if (i + 1 >= argc) { fprintf(stderr, "gsw: %s needs a value\n", a); return GSW_EINPUT; } } while (0)
        if (!strcmp(a, "--json")) o->json = 1;
        else if (!strcmp(a, "--no-cache")) o->no_cache = 1;
        else if (!strcmp(a, "--wdl")) o->wdl = 1;
        else if (!strcmp(a, "--no-line")) o->no_line = 1;
        else if (!strcmp(a, "--clear-hash")) o->clear_hash = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
        else if (!strcmp(a, "--min-moves")) o->min_moves = 1;
        else if (!strcmp(a, "--solutions")) o->solutions = 1;
        else if (!strcmp(a, "--positions")) o->positions = 1;
        else if (!strcmp(a, "--players")) o->players = 1;
        else if (!strcmp(a, "--divide")) o->divide = 1;
        else if (!strcmp(a, "--file")) { NEEDARG(); o->file = argv[++i]; }
        else if (!strcmp(a, "--game")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1 << 20, 1, &d)) return GSW_EINPUT;
            o->game_no = (int)d;
        }
        else if (!strcmp(a, "--metric")) { NEEDARG(); o->metric = argv[++i]; }
        else if (!strcmp(a, "--dir")) { NEEDARG(); o->dir = argv[++i]; }
        else if (!strcmp(a, "--for")) { NEEDARG(); o->for_pos = argv[++i]; }
        else if (!strcmp(a, "--plan")) o->plan = 1;
        else if (!strcmp(a, "--line")) o->line = 1;
        else if (!strcmp(a, "--convention")) { NEEDARG(); o->convention = argv[++i]; }
        else if (!strcmp(a, "--engine")) { NEEDARG(); o->engine = argv[++i]; }
        else if (!strcmp(a, "--openings")) { NEEDARG(); o->openings = argv[++i]; }
        else if (!strcmp(a, "--pgn")) { NEEDARG(); o->pgn = argv[++i]; }
        else if (!strcmp(a, "--option") || !strcmp(a, "--ours-option")) {
            NEEDARG();
            int ours = a[2] == 'o' && a[3] == 'u';
            const char *val = argv[++i];
            if (!strchr(val, '=') || val[0] == '=') {
                fprintf(stderr, "gsw: %s %s: expected NAME=VALUE\n", a, val);
                return GSW_EINPUT;
            }
            int *cnt = ours ? &o->n_ours_opt : &o->n_engine_opt;
            int max = ours ? (int)(sizeof o->ours_opt / sizeof o->ours_opt[0])
                           : (int)(sizeof o->engine_opt / sizeof o->engine_opt[0]);
            if (*cnt >= max) { fprintf(stderr, "gsw: %s: at most %d\n", a, max); return GSW_EINPUT; }
            (ours ? o->ours_opt : o->engine_opt)[(*cnt)++] = val;
        }
        else if (!strcmp(a, "--games")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1000000, 1, &d)) return GSW_EINPUT;
            o->games = (int)d;
        }
        else if (!strcmp(a, "--movetime")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 3600000, 0, &d)) return GSW_EINPUT;
            o->movetime = d;
        }
        else if (!strcmp(a, "--seed")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 0, 1e18, 1, &d)) return GSW_EINPUT;
            o->seed = (uint64_t)d;
            o->seed_set = 1;
        }
        else if (!strcmp(a, "--concurrency")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 256, 1, &d)) return GSW_EINPUT;
            o->concurrency = (int)d;
        }
        else if (!strcmp(a, "--population") || !strcmp(a, "--generations") || !strcmp(a, "--max-moves")) {
            NEEDARG();   /* gsw tune */
            int *to = a[2] == 'p' ? &o->population : a[2] == 'g' ? &o->generations : &o->max_moves;
            if (opts_parse_num(a, argv[++i], a[2] == 'p' ? 2 : 1, a[2] == 'p' ? 1000 : 1000000, 1, &d)) return GSW_EINPUT;
            *to = (int)d;
        }
        else if (!strcmp(a, "--out")) { NEEDARG(); o->out = argv[++i]; }
        else if (!strcmp(a, "--ply")) {
            NEEDARG();   /* gsw book build */
            if (opts_parse_num(a, argv[++i], 0, 1000, 1, &d)) return GSW_EINPUT;
            o->ply = (int)d;
            o->ply_set = 1;
        }
        else if (!strcmp(a, "--pieces")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 32, 1, &d)) return GSW_EINPUT;
            o->pieces = (int)d;
        }
        else if (!strcmp(a, "--divide-above")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 0, 1e15, 1, &d)) return GSW_EINPUT;
            o->divide_above = (uint64_t)d + 1;
        }
        else if (!strcmp(a, "--max-per-side")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 32, 1, &d)) return GSW_EINPUT;
            o->max_per_side = (int)d;
        }
        else if (!strcmp(a, "--board")) { NEEDARG(); o->board = argv[++i]; }
        else if (!strcmp(a, "--player")) { NEEDARG(); o->player = argv[++i]; }
        else if (!strcmp(a, "--db")) { NEEDARG(); o->db = argv[++i]; }
        else if (!strcmp(a, "--batch")) { NEEDARG(); o->batch = argv[++i]; }
        else if (!strcmp(a, "--opponent")) { NEEDARG(); o->opponent = argv[++i]; }
        else if (!strcmp(a, "--goal")) { NEEDARG(); o->goal = argv[++i]; }
        else if (!strcmp(a, "--resume")) o->resume = 1;
        else if (!strcmp(a, "--mpi")) o->mpi = 1;
        else if (!strcmp(a, "--relative")) o->relative = 1;
        else if (!strcmp(a, "--encoding")) { NEEDARG(); o->encoding = argv[++i]; }
        else if (!strcmp(a, "--order")) { NEEDARG(); o->order = argv[++i]; }
        else if (!strcmp(a, "--memory")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 0.001, 4096, 0, &d)) return GSW_EINPUT;
            o->memory_gb = d;
        }
        else if (!strcmp(a, "--from-ply")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 0, 128, 1, &d)) return GSW_EINPUT;
            o->from_ply = (int)d;
        }
        else if (!strcmp(a, "--mate")) o->mate = 1;
        else if (!strcmp(a, "--fix")) o->fix = 1;
        else if (!strcmp(a, "--sample")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1e15, 1, &d)) return GSW_EINPUT;
            o->sample = (int64_t)d;
        }
        else if (!strcmp(a, "--workers")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 64, 1, &d)) return GSW_EINPUT;
            o->workers = (int)d;
        }
        else if (!strcmp(a, "--format")) { NEEDARG(); o->format = argv[++i]; }
        else if (!strcmp(a, "--algo")) {
            NEEDARG();
            o->algo = argv[++i];
            if (strcmp(o->algo, "ab") && strcmp(o->algo, "dfpn") && strcmp(o->algo, "manager")) {
                fprintf(stderr, "gsw: --algo: unknown algorithm \"%s\" (ab, dfpn, manager)\n", o->algo);
                return GSW_EINPUT;
            }
        }
        else if (!strcmp(a, "--side")) { NEEDARG(); o->side = argv[++i]; }
        else if (!strcmp(a, "--ascii")) o->ascii = 1;
        else if (!strcmp(a, "--mono")) o->mono = 1;
        else if (!strcmp(a, "--hash")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1 << 20, 1, &d)) return GSW_EINPUT;
            o->hash_mb = (size_t)d;
            o->hash_set = 1;
        } else if (!strcmp(a, "--threads")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 256, 1, &d)) return GSW_EINPUT;
            o->threads = (int)d;
            o->threads_set = 1;
        } else if (!strcmp(a, "--time")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1e12, 0, &d)) return GSW_EINPUT;
            o->time_ms = d;
        } else if (!strcmp(a, "--nodes")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1e18, 1, &d)) return GSW_EINPUT;
            o->nodes = (uint64_t)d;
        } else if (!strcmp(a, "--depth")) {
            NEEDARG();
            if (opts_parse_num(a, argv[++i], 1, 1000, 1, &d)) return GSW_EINPUT;
            o->depth = (int)d;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "gsw: unknown option %s (see gsw help)\n", a);
            return GSW_EINPUT;
        } else {
            if (o->npos >= (int)(sizeof o->pos / sizeof o->pos[0])) {
                fprintf(stderr, "gsw: unexpected argument '%s'\n", a);
                return GSW_EINPUT;
            }
            o->pos[o->npos++] = a;
        }
#undef NEEDARG
    }
    return GSW_OK;
}

/* The cache's notices (a lock waited for, a read-only file) on stderr. */
static void opts_notice(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "gsw: %s\n", msg);
}

int opts_cache_open(const cli_opts_t *o, cache_t **c, err_t *err)
{
    char path[1024];
    if (o->db) snprintf(path, sizeof path, "%s", o->db);
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

void opts_egdb_dir(cli_opts_t *o)
{
    static const char *const verbs[] = { "egdb", "solve", "analyze", "proof", "play", "shell", "lesson", NULL };
    int reads = 0;
    for (int i = 0; verbs[i]; i++) reads |= !strcmp(o->verb, verbs[i]);
    if (!reads) return;
    const char *env = getenv("GSW_EGDB");
    if (!o->dir && env && *env) o->dir = env;
}

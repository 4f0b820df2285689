/* Shared option helpers of every front end's verbs: a verb's table entry
 * (cli_verb_t: name, usage, summary, run, the options it declares), the
 * declarations (cli_opt_t), a command line parsed against them (cli_args_t)
 * and read through the args_ accessors, usage errors, counts with
 * separators, the cache a verb opens, and the stop flags that SIGINT,
 * SIGTERM and SIGHUP set. Verbs of cli/, workbench/ and protocol/ use it; it
 * uses no verb. */
#ifndef GSW_OPTS_H
#define GSW_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "core/err.h"
#include "db/cache.h"

/* One option a verb takes, as `gsw VERB --help` lists it: --NAME VALUE:
 * help. A verb declares its options as a NULL-terminated list of tables
 * (each ended by an entry whose name is NULL): the shared groups below
 * and its own, as tmux's commands declare their flags. */
typedef enum { OPT_FLAG, OPT_STR, OPT_INT, OPT_NUM, OPT_U64, OPT_LIST } cli_opt_kind_t;

typedef struct cli_opt {
    const char *name;          /* without the "--" */
    cli_opt_kind_t kind;       /* a flag, a string, a whole number (int or u64), a number, NAME=VALUE repeatable */
    const char *value;         /* the value's name in help ("MS"); NULL for a flag */
    const char *help;          /* one line */
    double lo, hi;             /* a number's range; a list's most values (hi) */
    int (*check)(const char *val);   /* NULL, or a string's test: nonzero (said on stderr) refuses it */
} cli_opt_t;

/* Options many verbs take, to put in a verb's own table ... */
#define OPT_JSON { "json", OPT_FLAG, NULL, "one JSON document on stdout", 0, 0, NULL }
#define OPT_DB { "db", OPT_STR, "PATH", "the cache file (also $GSW_DB; default gsw.db in the data folder)", 0, 0, NULL }
#define OPT_NO_CACHE { "no-cache", OPT_FLAG, NULL, "neither read nor store the cache", 0, 0, NULL }
#define OPT_HASH { "hash", OPT_INT, "MB", "the transposition table, default 128", 1, 1 << 20, NULL }
#define OPT_THREADS { "threads", OPT_INT, "N", "search threads (default: all cores)", 1, 256, NULL }
#define OPT_TIME { "time", OPT_NUM, "MS", "a budget of wall time, counted from the process's start", 1, 1e12, NULL }
#define OPT_NODES { "nodes", OPT_U64, "N", "a budget of nodes searched", 1, 1e18, NULL }
#define OPT_NO_LINE { "no-line", OPT_FLAG, NULL, "the position's value alone: no move-count rule, no repetitions", 0, 0, NULL }
#define OPT_END { NULL, 0, NULL, NULL, 0, 0, NULL }
/* ... and the groups of them. */
extern const cli_opt_t opts_json[];     /* --json */
extern const cli_opt_t opts_cache[];    /* --db PATH, --no-cache */
extern const cli_opt_t opts_search[];   /* --hash MB, --threads N */
extern const cli_opt_t opts_budget[];   /* --time MS, --nodes N */
extern const cli_opt_t opts_egdb[];     /* --dir DIR: the endgame databases' folder; --trust; --syzygy DIRS */
#define OPT_TRUST { "trust", OPT_FLAG, NULL, "use database files whose MANIFEST does not vouch for them (with a warning; also $GSW_TRUST=1)", 0, 0, NULL }
extern const cli_opt_t opts_mpi[];      /* --mpi */

#define CLI_MAX_OPTS 48        /* options one verb takes, at most */
#define CLI_MAX_LIST 32        /* values of one repeatable option, at most */
#define CLI_MAX_POS 8          /* positional arguments, at most */

typedef struct cli_val {
    int given;
    double num;                /* a number's value */
    const char *str;           /* a string's */
    int n;                     /* a list's values */
    const char *list[CLI_MAX_LIST];
} cli_val_t;

struct cli_verb;

/* A command line parsed against its verb's declaration: the positional
 * arguments, one value per declared option (read through the args_
 * accessors below), and the run's context that is no option. */
typedef struct cli_args {
    const struct cli_verb *entry;   /* the verb being run (its name, usage for errors) */
    int npos;
    const char *pos[CLI_MAX_POS];   /* positional arguments after the verb */
    double t_start;            /* gsw_now_ms() when the process began (0: unknown): --time counts from it */
    struct dist *dist;         /* --mpi: this rank's part of the job (cli_dispatch starts it) */
    int notices;               /* the cache's notices go to stderr (not under the workbench's screen) */
    int argc;                  /* the command line as typed (opts_parse's): builds record it in their */
    char *const *argv;         /* folders' MANIFEST (db/manifest.h) */
    int nopt;
    const cli_opt_t *decl[CLI_MAX_OPTS];
    cli_val_t val[CLI_MAX_OPTS];
} cli_args_t;

typedef struct cli_verb {
    const char *name;
    const char *usage;         /* its first line is the one-line form */
    const char *summary;
    int (*run)(cli_args_t *o);
    int max_pos;               /* positional arguments it takes at most (more: named, exit 2) */
    /* NULL, or why --json does not apply to this use of the verb (exit 2
     * before anything runs); every other use prints one JSON document */
    const char *(*no_json)(const cli_args_t *o);
    const cli_opt_t *const *opts;   /* the options it takes: NULL-terminated tables */
    const char *mpi_sub;       /* --mpi: the subverb that takes it ("": the verb itself); NULL: none */
    int screen;                /* it draws a screen: the cache's notices are not said on stderr */
    int egdb;                  /* it reads the endgame databases' folder (opts_egdb_dir) */
} cli_verb_t;

/* Parse argv[first..argc-1] against v's declaration into a (zeroed here;
 * a->t_start and the rest of the context are the caller's): options and
 * positional arguments. -h and --help set *help. An option v does not take,
 * a missing or bad value is said in one line on stderr; returns GSW_EINPUT
 * then. */
int opts_parse(int argc, char **argv, int first, const cli_verb_t *v, cli_args_t *a, int *help);

/* The options' values. Asking for an option the verb does not declare, or
 * with the wrong kind, is a programming error: it aborts, naming both. */
int args_has(const cli_args_t *a, const char *name);     /* declared by the verb */
int args_given(const cli_args_t *a, const char *name);   /* on the command line */
int args_flag(const cli_args_t *a, const char *name);
const char *args_str(const cli_args_t *a, const char *name);   /* NULL: not given */
int args_int(const cli_args_t *a, const char *name, int def);
double args_num(const cli_args_t *a, const char *name, double def);
uint64_t args_u64(const cli_args_t *a, const char *name, uint64_t def);
/* A repeatable option's values (*items: n of them). */
int args_list(const cli_args_t *a, const char *name, const char *const **items);
/* Set a declared flag as if given (a worker rank's --no-cache); nothing if not declared. */
void args_set_flag(cli_args_t *a, const char *name);
/* --threads (default: every core), --hash (default GSW_HASH_MB_DEFAULT). */
int opts_threads(const cli_args_t *a);
size_t opts_hash_mb(const cli_args_t *a);

/* argv[1] as a verb's name: --help and -h are help, --version and -V version. */
const char *opts_verb_alias(const char *arg);
/* A verb's options as `gsw VERB --help` lists them, on f. */
void opts_help(FILE *f, const cli_verb_t *v);

/* A number option: lo..hi, a whole number where whole; a bad one is said
 * on stderr (opt names it) and gives GSW_EINPUT. */
int opts_parse_num(const char *opt, const char *s, double lo, double hi, int whole, double *out);
/* A usage error as one line on stderr: the first positional argument past
 * max named ("unexpected argument 'x'"), else what is missing (what, if not
 * NULL), then the verb's usage (its first line). Returns GSW_EINPUT. */
int opts_usage_error(const cli_args_t *o, int max, const char *what);
/* The first line of a verb's usage, its length (for "%.*s"). */
int opts_usage_line(const cli_verb_t *v);
/* A count with thousands separators, "1,048,576", into buf (32 bytes do). */
const char *opts_thousands(uint64_t n, char *buf, size_t len);
/* The cache a verb uses: --db PATH, else $GSW_DB, else the default file;
 * its notices go to stderr when o->notices is set. */
int opts_cache_open(const cli_args_t *o, cache_t **c, err_t *err);

/* The stop flag set by SIGINT, SIGTERM and SIGHUP; opts_term by the last
 * two (finish storing, then end). opts_signals installs the handlers. */
extern gsw_flag_t opts_stop, opts_term;
void opts_signals(void);

/* The endgame databases' folder, one rule for every verb that reads them
 * (cli_verb_t.egdb: egdb, solve, analyze, proof, play, shell, lesson):
 * --dir DIR, else $GSW_EGDB, else NULL (egdb/ beside the cache). The
 * workbench's session takes it from there (session_t.egdb_dir). */
const char *opts_egdb_dir(const cli_args_t *o);

#endif

/* Shared option helpers of every front end's verbs: the options of a
 * command line (cli_opts_t), a verb's table entry (cli_verb_t: name, usage,
 * summary, run), option parsing, usage errors, counts with separators, the
 * cache a verb opens, and the stop flags that SIGINT, SIGTERM and SIGHUP
 * set. Verbs of cli/, workbench/ and protocol/ use it; it uses no verb. */
#ifndef GSW_OPTS_H
#define GSW_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "db/cache.h"

typedef struct cli_opts {
    int json;
    int no_cache;
    const char *db;            /* --db PATH */
    size_t hash_mb;
    int threads;
    int threads_set;
    int hash_set;              /* --hash was given */
    const char *batch;         /* --batch FILE ("-" = stdin) */
    int wdl;                   /* --wdl: win/draw/loss only */
    int no_line;               /* --no-line: values of the position alone (no move-count rule,
                                  no repetitions), not the game's */
    int clear_hash;            /* --clear-hash: empty the table before each batch line */
    double time_ms;
    double t_start;            /* gsw_now_ms() when the process began (0: unknown): --time counts from it */
    uint64_t nodes;
    int depth;
    int help;
    const char *algo;          /* --algo ab|dfpn */
    const char *goal;          /* --goal win|draw */
    int mate;                  /* solve --mate: the shortest forced mate (chess) */
    const char *format;        /* --format dot|json */
    int workers;               /* --workers N (the proof-tree manager) */
    int resume;                /* --resume: continue a stored manager tree */
    int mpi;                   /* --mpi: one rank of an mpirun job (egdb build, proof run) */
    struct dist *dist;         /* ... its part of the job (cli_dispatch starts it) */
    const char *opponent;      /* --opponent perfect|heuristic:L|... */
    const char *side;          /* --side first|second|both|none */
    int ascii;                 /* --ascii: no Unicode glyphs */
    int mono;                  /* --mono: no colours */
    const char *board;         /* --board FILE: a puzzle board from text art */
    const char *player;        /* --player heuristic:NAME */
    int min_moves;             /* --min-moves */
    int solutions, positions;  /* count --solutions / --positions */
    int players;               /* bench --players */
    int64_t sample;            /* cache verify --sample N (0: every row) */
    int fix;                   /* cache verify --fix: delete the wrong rows */
    int notices;               /* the cache's notices go to stderr (not under the TUI's screen) */
    int divide;                /* perft --divide: the count under each root move */
    const char *file;          /* play --file F: open a game record (F.pdn) */
    int game_no;               /* --game N: which game of a record file with several (0: the first) */
    int pieces;                /* egdb build / count --pieces N */
    const char *metric;        /* egdb build --metric wld|dtc|dtw */
    const char *dir;           /* --dir DIR: the endgame databases (egdb, solve, analyze, proof, play,
                                  shell: opts_egdb_dir), strong's folder of solutions */
    const char *for_pos;       /* egdb build --for POSITION */
    int plan;                  /* egdb build --plan: what it would build */
    int line;                  /* egdb probe --line: the whole line of best moves */
    const char *convention;    /* egdb stats --convention material|first: the longest win and loss's reading */
    int max_per_side;          /* egdb build --max-per-side N (0: any) */
    uint64_t divide_above;     /* egdb build --divide-above P: under --mpi, divide units of more than P positions */
    const char *engine;        /* match --engine "CMD [ARGS]": the UCI opponent */
    const char *engine_opt[32];   /* match --option NAME=VALUE (the opponent's), repeatable */
    int n_engine_opt;
    const char *ours_opt[16];  /* match --ours-option NAME=VALUE (ours: Hash, PawnValue..), repeatable */
    int n_ours_opt;
    int games;                 /* match --games N */
    double movetime;           /* match --movetime MS */
    uint64_t seed;             /* match --seed S (seed_set: given) */
    int seed_set;
    const char *openings;      /* match --openings FILE */
    const char *pgn;           /* match --pgn FILE */
    int concurrency;           /* match --concurrency N: games at once */
    int population;            /* tune --population N (0: not given) */
    int generations;           /* tune --generations G: finished generations to reach */
    int max_moves;             /* tune --max-moves M: a game's cap in moves; solve --mate: the longest mate looked for */
    const char *out;           /* tune --out DIR */
    int relative;              /* tune --relative: values as ratios to a 100 cp pawn */
    int ply, ply_set;          /* book build --ply N: the book's depth (ply_set: given) */
    const char *encoding;      /* count / strong build --encoding compressed|cellwise (Connect Four BDDs) */
    const char *order;         /* ... --order column|row: the variables' order */
    double memory_gb;          /* ... --memory GB: the BDD node table's limit (0: not given) */
    int from_ply;              /* strong build --from-ply P: solve the last plies down to P (0: all) */
    int npos;
    const char *pos[8];        /* positional arguments after the verb */
    const char *verb;          /* the verb being run */
    const struct cli_verb *entry;   /* its entry (usage for errors) */
} cli_opts_t;

typedef struct cli_verb {
    const char *name;
    const char *usage;         /* its first line is the one-line form */
    const char *summary;
    int (*run)(cli_opts_t *o);
    int max_pos;               /* positional arguments it takes at most (more: named, exit 2) */
    /* NULL, or why --json does not apply to this use of the verb (exit 2
     * before anything runs); every other use prints one JSON document */
    const char *(*no_json)(const cli_opts_t *o);
} cli_verb_t;

/* Parse argv[first..argc-1] into o (its defaults already set): options
 * and positional arguments. A bad option or value is said on stderr;
 * returns GSW_EINPUT then. */
int opts_parse(int argc, char **argv, int first, cli_opts_t *o);
/* A number option: lo..hi, a whole number where whole; a bad one is said
 * on stderr (opt names it) and gives GSW_EINPUT. */
int opts_parse_num(const char *opt, const char *s, double lo, double hi, int whole, double *out);
/* A usage error as one line on stderr: the first positional argument past
 * max named ("unexpected argument 'x'"), else what is missing (what, if not
 * NULL), then the verb's usage (its first line). Returns GSW_EINPUT. */
int opts_usage_error(const cli_opts_t *o, int max, const char *what);
/* The first line of a verb's usage, its length (for "%.*s"). */
int opts_usage_line(const cli_verb_t *v);
/* A count with thousands separators, "1,048,576", into buf (32 bytes do). */
const char *opts_thousands(uint64_t n, char *buf, size_t len);
/* The cache a verb uses: --db PATH, else $GSW_DB, else the default file;
 * its notices go to stderr when o->notices is set. */
int opts_cache_open(const cli_opts_t *o, cache_t **c, err_t *err);

/* The stop flag set by SIGINT, SIGTERM and SIGHUP; opts_term by the last
 * two (finish storing, then end). opts_signals installs the handlers. */
extern volatile int opts_stop, opts_term;
void opts_signals(void);

/* The endgame databases' folder, one rule for every verb that reads them
 * (egdb, solve, analyze, proof, play, shell): --dir DIR, else $GSW_EGDB,
 * else egdb/ beside the cache (o->dir left NULL). The workbench's
 * session takes it from there (session_t.egdb_dir). */
void opts_egdb_dir(cli_opts_t *o);
/* Its line in those verbs' usage. */
#define OPTS_EGDB_DIR_HELP "\n  --dir DIR: the endgame databases' folder (also $GSW_EGDB; default egdb/ beside the cache)"

#endif

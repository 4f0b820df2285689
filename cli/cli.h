/* The command-line verbs: `gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION]
 * [ARGS] [OPTIONS]`. One table entry per verb (name, usage, summary,
 * function), from which `gsw help` is generated. */
#ifndef GSW_CLI_H
#define GSW_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "core/ab.h"

typedef struct cli_opts {
    int json;
    int no_cache;
    const char *db;            /* --db PATH */
    size_t hash_mb;
    int threads;
    int threads_set;
    const char *batch;         /* --batch FILE ("-" = stdin) */
    int wdl;                   /* --wdl: win/draw/loss only */
    int clear_hash;            /* --clear-hash: empty the table before each batch line */
    double time_ms;
    uint64_t nodes;
    int depth;
    int help;
    const char *algo;          /* --algo ab|dfpn */
    const char *goal;          /* --goal win|draw */
    int mate;                  /* solve --mate: the shortest forced mate (chess) */
    const char *format;        /* --format dot|json */
    int workers;               /* --workers N (the proof-tree manager) */
    int resume;                /* --resume: continue a stored manager tree */
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
    int pieces;                /* egdb build / count --pieces N */
    const char *metric;        /* egdb build --metric wld|dtc|dtw */
    const char *dir;           /* egdb --dir DIR (default: egdb/ beside the cache) */
    const char *for_pos;       /* egdb build --for POSITION */
    int plan;                  /* egdb build --plan: what it would build */
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
    int npos;
    const char *pos[8];        /* positional arguments after the verb */
    const char *verb;          /* the verb being run */
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

extern const cli_verb_t cli_verbs[];
const cli_verb_t *cli_find(const char *name);
/* A usage error as one line on stderr: the first positional argument past
 * max named ("unexpected argument 'x'"), else what is missing (what, if not
 * NULL), then the verb's usage (its first line). Returns GSW_EINPUT. */
int cli_usage_error(const cli_opts_t *o, int max, const char *what);
/* A count with thousands separators, "1,048,576", into buf (32 bytes do). */
const char *cli_thousands(uint64_t n, char *buf, size_t len);
/* Run argv (argv[0] is the program); returns the exit status. */
int cli_main(int argc, char **argv);
/* The stop flag set by SIGINT, SIGTERM and SIGHUP; cli_term by the last two
 * (finish storing, then end). */
extern volatile int cli_stop, cli_term;

#endif

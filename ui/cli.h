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
    int npos;
    const char *pos[8];        /* positional arguments after the verb */
} cli_opts_t;

typedef struct cli_verb {
    const char *name;
    const char *usage;
    const char *summary;
    int (*run)(cli_opts_t *o);
} cli_verb_t;

extern const cli_verb_t cli_verbs[];
const cli_verb_t *cli_find(const char *name);
/* Run argv (argv[0] is the program); returns the exit status. */
int cli_main(int argc, char **argv);
/* The stop flag set by SIGINT, SIGTERM and SIGHUP; cli_term by the last two
 * (finish storing, then end). */
extern volatile int cli_stop, cli_term;

#endif

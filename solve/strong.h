/* Strong solutions: every position's value, by ply, as BDD sets on disk
 * (Connect Four; games/connect4/c4_bdd.h computes them).
 *
 * A board's solution lives in DIR/connect4-WxH/: a manifest (below) and,
 * per ply K, three BDD files (db/bddfile.h) plyKK-won.bdd, -drawn, -lost:
 * the positions of ply K won, drawn and lost for the side to move (one
 * whose last move made four is lost). DIR is --dir, else strong/ beside
 * the cache file.
 *
 * The manifest is text, a line each:
 *   gsw-strong 1
 *   board connect4 WxH
 *   encoding compressed|cellwise ORDER   (ORDER: column|row)
 *   ply K positions N terminal T          (from the forward pass)
 *   set K won|drawn|lost COUNT NODES CHECKSUM   (a file written and checked)
 *   complete                              (every ply is solved)
 * A build rewrites it (atomically) after each ply: a stopped build resumes
 * from the lowest ply whose three sets are listed. */
#ifndef GSW_STRONG_H
#define GSW_STRONG_H

#include <pthread.h>
#include <stddef.h>

#include "core/game.h"
#include "db/bddfile.h"
#include "games/connect4/c4_bdd.h"

#define STRONG_MAX_PLIES 129

typedef struct strong_manifest {
    int w, h;
    c4b_encoding_t enc;
    c4b_order_t order;
    int complete;
    struct strong_ply {
        int counted;                 /* the ply line was read */
        u256_t positions, terminal;
        int have[3];                 /* the set line was read */
        u256_t count[3];
        long nodes[3];
        uint64_t checksum[3];
    } ply[STRONG_MAX_PLIES];
} strong_manifest_t;

/* Parse a manifest's text (name for messages). One-line errors. */
int strong_manifest_parse(const char *text, size_t n, const char *name, strong_manifest_t *m, err_t *err);
int strong_manifest_write(const char *path, const strong_manifest_t *m, err_t *err);

/* Does the game have strong solutions (Connect Four)? */
int strong_supported(const gv_t *v);
/* strong/ beside the cache file db (NULL: the default cache). */
int strong_default_dir(const char *db, char *buf, size_t n, err_t *err);
/* dir/connect4-WxH */
void strong_board_dir(const gv_t *v, const char *dir, char *buf, size_t n);
/* The file of ply k's set (C4B_WON...) in board folder bdir. */
void strong_set_path(const char *bdir, int k, int value, char *buf, size_t n);
const char *strong_value_name(int value);   /* "won", "drawn", "lost" */

/* --- building --- */
typedef struct strong_build_options {
    const char *dir;             /* DIR (the board's folder is made in it) */
    c4b_encoding_t enc;
    c4b_order_t order;
    double memory_gb;
    volatile int *stop;
    /* one line of progress (no newline), and each solved ply's row */
    void (*progress)(void *ctx, const char *line);
    void *ctx;
} strong_build_options_t;

typedef struct strong_report {
    strong_manifest_t m;         /* what the board's folder holds at the end */
    int resumed_from;            /* -1: a fresh build; else the lowest ply solved before (0: complete) */
    long peak_nodes;             /* the most live BDD nodes; the largest node table */
    long table_nodes;
    double forward_ms, backward_ms;
    int forward_done;            /* the forward pass finished (a stop before it keeps nothing new) */
} strong_report_t;

int strong_build(const gv_t *v, const strong_build_options_t *o, strong_report_t *rep, err_t *err);

/* --- reading --- */
typedef struct strong {
    const gv_t *v;
    char dir[1100];              /* the board's folder */
    strong_manifest_t m;
    c4b_spec_t spec;
    bddf_t (*set)[3];            /* by ply, loaded on first use */
    char *loaded;
    pthread_mutex_t lock;
    gsw_oracle_t oracle;         /* probe and ctx (this struct) */
    char damage[512];            /* the last file found damaged ("" none) */
} strong_t;

/* Open the solution of v's board in dir (the DIR above). 1: opened, 0:
 * there is none (a missing or unfinished folder), -1: an error (a damaged
 * manifest, one made for another board: GSW_EFAIL with one line). */
int strong_open(strong_t **out, const gv_t *v, const char *dir, err_t *err);
void strong_close(strong_t *s);
/* pos's value for its side to move: C4B_WON, C4B_DRAWN or C4B_LOST, or -1
 * on error (a damaged or missing file: err). */
int strong_value(strong_t *s, const void *pos, err_t *err);

#endif

/* Strong solutions: every position's value, by ply, as BDD sets on disk
 * (Connect Four; games/connect4/c4_bdd.h computes them).
 *
 * A board's solution lives in DIR/connect4-WxH/: a manifest (below) and,
 * per ply K, five BDD files (db/bddfile.h): from the forward pass
 * plyKK-go.bdd and plyKK-ended.bdd (the positions reachable at ply K that
 * go on, and those whose last move made four), and from the backward pass
 * plyKK-won.bdd, -drawn, -lost: the positions of ply K won, drawn and lost
 * for the side to move (one whose last move made four is lost), or, for a
 * ply made in parts, plyKK-won-partIIofNN.bdd ... (below). DIR is
 * --dir, else strong/ beside the cache file. `gsw count` keeps the forward
 * sets there too, and a build goes on from them.
 *
 * The manifest is text, a line each:
 *   gsw-strong 1
 *   board connect4 WxH
 *   encoding compressed|cellwise ORDER   (ORDER: column|row)
 *   ply K positions N terminal T [nodes X ms Y]   (from the forward pass:
 *                                         the ply's BDD nodes and time)
 *   set K won|drawn|lost|go|ended COUNT NODES CHECKSUM   (a file written)
 *   split K S                             (ply K's value sets in 2^S parts:
 *                                         c4_assign.h's cofactors on the
 *                                         first S variables)
 *   part K won|drawn|lost I COUNT NODES CHECKSUM   (part I's file written:
 *                                         plyKK-won-partIIofNN.bdd)
 *   complete                              (every ply is solved)
 * A build or count rewrites it (atomically) after each ply: a stopped one
 * goes on after the last ply whose forward sets are listed, and from the
 * lowest ply whose three value sets (and every later ply's) are. Beside it,
 * MANIFEST (solve/strong_prov.h) says where the sets came from, with their
 * SHA-256: brought up to date each time this one is written. */
#ifndef GSW_STRONG_H
#define GSW_STRONG_H

#include <pthread.h>
#include <stddef.h>

#include "core/game.h"
#include "db/bddfile.h"
#include "solve/trust.h"
#include "games/connect4/c4_bdd.h"

#define STRONG_MAX_PLIES 129
/* A part's sets are read a frame at a time (bddf_lazy) for this many
 * positions, then whole (a search probes many more than a query). */
#define STRONG_LAZY_PROBES 4096
#define STRONG_MAX_PARTS (1 << C4B_MAX_SPLIT)
/* the sets of a ply: C4B_WON, C4B_DRAWN, C4B_LOST, then the forward pass's */
enum { STRONG_GO = 3, STRONG_ENDED = 4, STRONG_SETS = 5 };

typedef struct strong_manifest {
    int w, h;
    c4b_encoding_t enc;
    c4b_order_t order;
    int complete;
    struct strong_ply {
        int counted;                 /* the ply line was read */
        u256_t positions, terminal;
        long fnodes;                 /* its BDD nodes, its time (ms) in the forward pass (0: not noted) */
        double fms;
        int have[STRONG_SETS];       /* the set line was read */
        u256_t count[STRONG_SETS];
        long nodes[STRONG_SETS];
        uint64_t checksum[STRONG_SETS];
        /* the value sets in 2^split parts (0: one file each); then have,
           count and nodes above are the parts' (have: every part listed) */
        int split;
        struct strong_part {
            int have;
            u256_t count;
            long nodes;
            uint64_t checksum;
        } part[3][STRONG_MAX_PARTS];
    } ply[STRONG_MAX_PLIES];
} strong_manifest_t;

/* Parse a manifest's text (name for messages). One-line errors. */
int strong_manifest_parse(const char *text, size_t n, const char *name, strong_manifest_t *m, err_t *err);
int strong_manifest_write(const char *path, const strong_manifest_t *m, err_t *err);
/* The manifest of board folder bdir: 1 read, 0 none, -1 an error (err). */
int strong_manifest_load(const char *bdir, strong_manifest_t *m, err_t *err);

/* Does the game have strong solutions (Connect Four)? */
int strong_supported(const gv_t *v);
/* strong/ beside the cache file db (NULL: the default cache). */
int strong_default_dir(const char *db, char *buf, size_t n, err_t *err);
/* dir/connect4-WxH */
void strong_board_dir(const gv_t *v, const char *dir, char *buf, size_t n);
/* The files of ply k's set v as m has it: 1, or its parts; file i's name
 * (plyKK-won.bdd, plyKK-won-partIIofNN.bdd), whether m lists it, and its
 * count, nodes and checksum. */
int strong_files(const strong_manifest_t *m, int k, int v);
void strong_file_name(const strong_manifest_t *m, int k, int v, int i, char *buf, size_t n);
int strong_file_listed(const strong_manifest_t *m, int k, int v, int i);
struct strong_part strong_file_rec(const strong_manifest_t *m, int k, int v, int i);
const char *strong_value_name(int value);   /* "won", "drawn", "lost", "go", "ended" */
/* The last ply k such that plies 0..k are counted with both forward sets
 * listed (-1: none); the lowest ply p such that plies p..last have their
 * three value sets listed (cells + 1: none). */
int strong_forward_done(const strong_manifest_t *m);
int strong_lowest_solved(const strong_manifest_t *m);

/* --- building --- */
typedef struct strong_build_options {
    const char *dir;             /* DIR (the board's folder is made in it) */
    c4b_encoding_t enc;
    c4b_order_t order;
    double memory_gb;
    int from_ply;                /* solve plies cells down to this one (0: all) */
    /* the value sets of the plies made in 2^split parts (c4_assign.h); 0:
       whole, a ply made again in twice as many parts (up to the board's
       most) when the node table fills */
    int split;
    int forward_only;            /* the forward pass alone (gsw count) */
    int split_only;              /* no building: the whole plies from from_ply up cut into 2^split parts
                                    (gsw strong split) */
    gsw_flag_t *stop;
    /* one line of progress (no newline), and each solved ply's row */
    void (*progress)(void *ctx, const char *line);
    void *ctx;
    /* the command as typed, for the folder's MANIFEST (solve/strong_prov.h) */
    int argc;
    char *const *argv;
} strong_build_options_t;

typedef struct strong_report {
    strong_manifest_t m;         /* what the board's folder holds at the end */
    int resumed_from;            /* -1: a fresh build; else the lowest ply solved before (0: complete) */
    int forward_from;            /* the forward pass went on after this ply (-1: from the empty board;
                                    cells: it was done before) */
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
    int lowest;                  /* plies lowest .. cells are solved (a build --from-ply stops there) */
    c4b_spec_t spec;
    struct strong_held {
        bddf_t set[2];   /* won and drawn (lost: in neither) */
        int loaded;      /* 1: set[] read whole; 2: lazy[] open, a frame at a time */
        bddf_lazy_t lazy[2];
        unsigned probes; /* (lazy) positions looked up: past STRONG_LAZY_PROBES, read whole */
    } **held;                    /* by ply and part, loaded on first use */
    pthread_mutex_t lock;
    gsw_oracle_t oracle;         /* probe and ctx (this struct) */
    char damage[512];            /* the last file found damaged ("" none) */
    int guard;                   /* set files the folder's MANIFEST does not vouch for are refused (solve/trust.h) */
    trust_dir_t trust;
} strong_t;

/* Open the solution of v's board in dir (the DIR above), whole or its
 * last plies (a build --from-ply, or one stopped). 1: opened, 0: there is
 * none (a missing folder, or no ply solved), -1: an error (a damaged
 * manifest, one made for another board: GSW_EFAIL with one line). */
int strong_open(strong_t **out, const gv_t *v, const char *dir, err_t *err);
void strong_close(strong_t *s);
/* Read file i of ply k's set v in bdir and check it against m (its
 * checksum, count and tag): GSW_OK, or a one-line error naming the file. */
int strong_set_check(const char *bdir, const strong_manifest_t *m, int k, int v, int i, err_t *err);
/* pos's value for its side to move: C4B_WON, C4B_DRAWN or C4B_LOST, or -1
 * on error (a damaged or missing file, a ply not solved: err). */
int strong_value(strong_t *s, const void *pos, err_t *err);
/* The same, with the file it was found in (for a certificate's leaf) */
int strong_value_file(strong_t *s, const void *pos, char *path, size_t n, err_t *err);

#endif

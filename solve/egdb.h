/* Endgame databases as the solvers see them: a directory of slice files
 * (db/egdb.h) for one game, what their codes mean, probes by position, and
 * the builder that fills the directory with core/retro.c. Layout:
 * DIR/GAME/METRIC/SLICE.egdb, METRIC one of wld, dtc, dtw.
 *
 * Codes: win/draw/loss files hold 2 bits (0 draw, 1 win, 2 loss for the
 * side to move). Distance-to-win files hold a byte: 0 draw, else the
 * distance in plies plus one (1..254: distances 0..253; a win's distance is
 * odd, a loss's even), 255 meaning "see the exception table", which holds
 * the longer distances as retro_val_t. Distance-to-conversion files: 0
 * draw, 1..127 a win in 0..126 plies, 128..254 a loss in 0..126, 255 an
 * exception likewise. */
#ifndef GSW_SOLVE_EGDB_H
#define GSW_SOLVE_EGDB_H

#include <stdint.h>

#include "core/game.h"
#include "core/retro.h"
#include "db/egdb.h"

typedef struct egdb_set egdb_set_t;

/* The default directory: egdb/ beside the cache (db, else the default
 * cache path), as the shell's history is. */
int egdb_default_dir(const char *db, char *buf, size_t n, err_t *err);
/* The newest change (ns) to v's folder in dir and its metrics' folders: a
 * file added there (a build, in this gsw or another) changes it; 0 when
 * there is none. */
int64_t egdb_folder_stamp(const char *dir, const gv_t *v);

/* The databases of v's game in dir (which need not exist yet). */
int egdb_set_open(const gv_t *v, const char *dir, egdb_set_t **out, err_t *err);
void egdb_set_close(egdb_set_t *s);
const char *egdb_set_dir(const egdb_set_t *s);
const gv_t *egdb_set_variant(const egdb_set_t *s);
/* Refuse files the metric folder's MANIFEST does not vouch for (listed,
 * the listed size) when they are first opened, unless trust is on
 * (solve/trust.h): the oracle's sets and probe's and stats' do; the
 * builder and verify do not (verify checks the manifest itself). */
void egdb_set_guard(egdb_set_t *s, int on);
int egdb_set_guarded(const egdb_set_t *s);
/* That check alone, for metric m's file of slice: GSW_OK, or the reason. */
int egdb_slice_vouched(egdb_set_t *s, retro_metric_t m, uint64_t slice, err_t *err);
/* The path of a slice's file. */
void egdb_slice_path(const egdb_set_t *s, retro_metric_t m, uint64_t slice, char *buf, size_t n);
/* 1 if the slice's file exists (not checked). */
int egdb_slice_present(egdb_set_t *s, retro_metric_t m, uint64_t slice);
/* The open file of a slice (opened and its header checked on first use;
 * kept open): GSW_OK, or an error (missing, corrupt) naming the file. */
int egdb_slice_file(egdb_set_t *s, retro_metric_t m, uint64_t slice, egdb_file_t **f, err_t *err);
/* Forget a slice's open file (it is about to be replaced). */
void egdb_slice_forget(egdb_set_t *s, retro_metric_t m, uint64_t slice);

/* A probe handle: one per thread (its block cache is its own). */
typedef struct egdb_prober {
    egdb_set_t *set;
    egdb_cache_t *cache;
    /* the last files used, by (metric, slice), so most probes take no lock */
    struct { uint64_t slice; int metric, state; egdb_file_t *f; } recent[8];   /* state 1 open, 2 missing */
} egdb_prober_t;
int egdb_prober_init(egdb_prober_t *p, egdb_set_t *s, size_t cache_mb, err_t *err);
void egdb_prober_free(egdb_prober_t *p);

/* The stored value of one indexed position in metric m: GSW_OK and *r
 * (win/draw/loss files give distance 0 for a loss, 1 for a win: only the
 * sign means anything), or an error (file missing, corrupt). */
int egdb_probe_index(egdb_prober_t *p, retro_metric_t m, uint64_t slice, uint64_t index, retro_val_t *r,
                     err_t *err);
/* A probe of egdb_probe_index to come: its code asked of the memory now,
 * where its block is in p's cache (a build lists moves ahead of valuing
 * them, so that the random reads of their exits overlap). */
void egdb_probe_prefetch(egdb_prober_t *p, retro_metric_t m, uint64_t slice, uint64_t index);

/* The value of pos from the databases: 1 with bounds [*lo, *hi] (exact with
 * the distance-to-win file, else win/draw/loss bounds), 0 when no file
 * holds it, -1 on error (a corrupt file: err names it). *metric (may be
 * NULL) says which file answered. */
int egdb_probe(egdb_prober_t *p, const void *pos, val_t *lo, val_t *hi, retro_metric_t *metric, err_t *err);

/* The distance to conversion of pos from its distance-to-conversion
 * file: 1 with *plies (a win or a loss for the side to move: the plies
 * until a conversion into a position of the same result), 0 when no such
 * file holds pos or it is a draw, -1 on error. */
int egdb_conversion(egdb_prober_t *p, const void *pos, int *plies, err_t *err);

/* The databases as the searches' oracle (core/game.h): probes from any
 * thread, over a few probers each behind its own lock. A file found
 * damaged answers nothing (the search goes on without it); its message is
 * kept in `damaged` for the caller to show. */
#define EGDB_ORACLE_SLOTS 16
typedef struct egdb_oracle {
    gsw_oracle_t oracle;       /* probe and ctx (this struct) */
    egdb_set_t *set;           /* owned */
    void *slot;                /* EGDB_ORACLE_SLOTS locked probers */
    int damaged;
    char damage[512];
} egdb_oracle_t;
/* Open dir's databases of v as an oracle: 1 when the directory holds any
 * file of the game, 0 when none (nothing to close), -1 on error. */
int egdb_oracle_open(egdb_oracle_t *o, const gv_t *v, const char *dir, err_t *err);
void egdb_oracle_close(egdb_oracle_t *o);
/* egdb_conversion through the oracle's probers (any thread): 1 with
 * *plies, 0 when unknown (no file; an error is kept in `damaged`). */
int egdb_oracle_conversion(egdb_oracle_t *o, const void *pos, int *plies);
/* The same for dir, or (NULL) egdb/ beside the cache file db (NULL: the
 * default cache's). */
int egdb_oracle_open_at(egdb_oracle_t *o, const gv_t *v, const char *dir, const char *db, err_t *err);

/* What a byte or 2-bit code means, and back (for the builder and tests). */
int egdb_code_decode(retro_metric_t m, uint8_t code, retro_val_t *r);   /* 1: exception, look it up */
uint8_t egdb_code_encode(retro_metric_t m, retro_val_t r, int *exception);

/* --- building ---------------------------------------------------------- */
typedef struct egdb_build_options {
    int pieces;                 /* every slice of 1..pieces pieces; or */
    const void *for_pos;        /* (non-NULL) the slices this position can reach; or */
    const uint64_t *for_slice;  /* (non-NULL) this slice and those it can reach */
    int unit_only;              /* with for_slice: only the unit holding it (the slices it exits to
                                   must be there: dtc needs only their win/draw/loss) */
    retro_metric_t metric;      /* wld, dtc (builds wld first), dtw (dtm; writes wld too) */
    int threads;                /* 0: every core */
    int plan_only;              /* 1: count what the target needs, build nothing */
    int max_per_side;           /* with pieces: only slices with at most this many pieces a side (0: any) */
    uint64_t memory;            /* bytes one unit's build may hold (0: EGDB_MEMORY_DEFAULT): what its arrays
                                   leave keeps the move lists for the check */
    gsw_flag_t *stop;         /* Ctrl-C: stop after cleaning up (finished slices stay) */
    /* progress lines ("[3/40] 2K-1K.b-w: propagate 45%"); NULL: quiet */
    void (*progress)(void *ctx, const char *line);
    void *progress_ctx;
    /* (non-NULL, workers > 0) units built elsewhere: see egdb_farm_t */
    const struct egdb_farm *farm;
    /* With a farm of 2 or more workers: a unit of at least this many
     * positions is divided between all of them (0: the units whose arrays,
     * 8 to 10 bytes a position, do not fit in `memory`; the CLI's
     * --divide-above P gives P + 1) */
    uint64_t divide;
    /* A worker's part of divided units (non-NULL on a farm's workers):
     * how the parts meet */
    const struct egdb_parts *parts;
    /* The command as typed, for the metric folders' MANIFEST
     * (solve/egdb_manifest.h); NULL: a build gsw began on its own */
    int argc;
    char *const *argv;
} egdb_build_options_t;

/* The workers of a farm, as the parts of a divided unit: retro_comm_t's
 * collectives among them (parts, me, ctx, exchange and max; lo is set per
 * unit), and gather: part 0 receives every part's bytes, part by part
 * (size[p] from part p; `mine` is this part's), the others send theirs. */
#define EGDB_PARTS_MAX 1024
typedef struct egdb_parts {
    retro_comm_t comm;
    int (*gather)(void *ctx, const void *mine, const uint64_t *size, void *all, err_t *err);
} egdb_parts_t;

/* One unit of a plan handed to a worker (another process: dist/): */
typedef struct egdb_unit_job {
    int unit;                  /* its place in the plan (0: the first built) */
    int ns;
    const uint64_t *slice;     /* its slices */
    int nneed;
    int need[2];               /* the metrics to build, in order (retro_metric_t; RETRO_METRICS: done) */
    int parts;                 /* > 1: divided between that many workers (every worker of the farm), */
    int part;                  /* this worker being that part (0: the part that writes the files) */
} egdb_unit_job_t;

/* Workers 1..workers that build units: egdb_build hands a unit to an idle
 * worker as soon as every unit it exits into is finished (give), and
 * waits for any worker's answer (take: the worker, its unit, and what
 * egdb_build_job reported there, or *failed with unit_err: 1, or 2 when
 * the worker stopped because another part of its divided unit failed).
 * A divided unit goes to every worker at once, each with its part, and
 * is finished when every part has answered. Both return nonzero when the
 * transport fails (err). */
typedef struct egdb_build_report egdb_build_report_t;
typedef struct egdb_farm {
    int workers;
    void *ctx;
    int (*give)(void *ctx, int worker, const egdb_unit_job_t *job, err_t *err);
    int (*take)(void *ctx, int *worker, int *unit, egdb_build_report_t *part, int *failed, err_t *unit_err,
                err_t *err);
} egdb_farm_t;

/* One unit of a plan (egdb_build_report_t.units), in build order. */
typedef struct egdb_unit_plan {
    char first[64];             /* its first slice's name */
    int slices;
    uint64_t positions;
    int finished;               /* its files are there and pass their checksums */
    int unit;                   /* its place in the plan's build order */
    uint64_t memory;            /* bytes a build of it holds at most (estimate: see egdb_unit_memory) */
    uint64_t disk;              /* bytes its files take (estimate) */
} egdb_unit_plan_t;

/* What building a unit of n positions in metric m on `threads` threads
 * holds in memory, and what its files take on disk: estimates, from the
 * engine's 8 bytes a position (6 while solving, 2 for the values), its
 * frontier, the probers' block caches, the move lists kept for the check
 * (14 bytes a position, as far as budget allows: 4K v 3K, 4.25 moves inside
 * a position, takes 10.4), and the bytes a position
 * took in the 5-piece files (dtw 0.37, wld 0.08). */
#define EGDB_MEMORY_DEFAULT 12000000000ull   /* 12 GB: the limit is 16 GiB */
/* A unit whose distances to conversion a solve with a budget builds on
 * demand (a few seconds at most): larger ones only without a budget.
 * $GSW_EGDB_DTC_QUICK overrides it. */
#define EGDB_DTC_QUICK 5000000ull
/* exit_mb: the block cache the unit's exits need (egdb_unit_exit_mb), which
 * caps each thread's as the build does. */
uint64_t egdb_unit_memory(uint64_t n, retro_metric_t m, int threads, uint64_t budget, size_t exit_mb);
uint64_t egdb_unit_disk(uint64_t n, retro_metric_t m);

struct egdb_build_report {
    int slices;                 /* slices the target needs */
    int built, reused;          /* ... built now, found finished and checked */
    uint64_t positions;         /* positions in the slices built now */
    uint64_t planned, finished; /* plan_only: positions the target needs, and those already built */
    uint64_t largest;           /* plan_only: the largest unit's positions */
    egdb_unit_plan_t *units;    /* plan_only: every unit (free() it) */
    int nunits;
    uint64_t memory, disk;      /* plan_only: the most one unit holds; the disk the unbuilt units take */
    double ms;
    double solve_ms, write_ms;  /* of ms: the engine's (its phases and the passes between them), and writing
                                   the files (encoding, compressing, syncing), summed over the units built */
    retro_stats_t engine;       /* the engine's phases and threads, summed over the units built */
    uint64_t critical;          /* plan_only: positions along the longest chain of units to build, each
                                   waiting on the next (no farm builds the target faster than that) */
    /* with a farm: its workers, and their time (ms, summed over them): building units (busy), the
       rest of each unit's round trip (comm), idle while units were left that waited on others
       (wait), idle after the last unit went out (tail) */
    int farm_workers;
    int divided;                /* units divided between every worker (egdb_build_options_t.divide) */
    double farm_busy_ms, farm_comm_ms, farm_wait_ms, farm_tail_ms;
};

/* Build (or reuse, after checking) every slice the options ask for, in
 * dependency order; each finished slice is checked for consistency (every
 * position's value agrees with its moves') before its file is renamed into
 * place. Stopping keeps what is finished: running again resumes. */
int egdb_build(egdb_set_t *s, const egdb_build_options_t *o, egdb_build_report_t *rep, err_t *err);
/* A worker's side of a farm: build job's unit with o's metric, threads and
 * memory (its exits must be finished); rep gets what it built. */
int egdb_build_job(egdb_set_t *s, const egdb_build_options_t *o, const egdb_unit_job_t *job,
                   egdb_build_report_t *rep, err_t *err);

/* Check slice files: their checksums, then the consistency of every
 * position with its moves (values read from the files). slice: one slice,
 * or all present when NULL. Reports progress like egdb_build. *checked
 * receives the number of files checked. */
int egdb_verify(egdb_set_t *s, const uint64_t *slice, int threads, gsw_flag_t *stop,
                void (*progress)(void *ctx, const char *line), void *ctx, int *checked, err_t *err);
/* A damaged slice file's error (err, naming the file) gets the command
 * that rebuilds it: "(rebuild it: gsw egdb build GAME SLICE --metric M
 * --dir DIR)". Returns err->code. */
int egdb_damage_hint(const egdb_set_t *s, retro_metric_t m, uint64_t slice, err_t *err);

/* Statistics, one row per material (its sub-slices summed), side to move
 * Black: positions, wins, draws and losses for the side to move, from the
 * distance-to-win files where they exist (else win/draw/loss: no
 * distances). Indices that hold no legal position (retro_game_t.legal) are
 * not counted.
 *
 * The longest win and loss (win, loss) follow Trice & Dodgen's perfect-play
 * tables, in one of two readings, both over positions where the side to
 * move has no capture:
 * - EGDB_TABLE_MATERIAL (the default): the longest win and the longest
 *   loss among the material's positions, whichever side is to move (White
 *   to move is read from the mirror material, Black to move, whose counts
 *   swap the two sides' halves). It fits every published row of 2 to 6
 *   pieces we hold but the three of one man against one piece; of the
 *   readings that fit them, it is the only one that makes a 6-piece row 6
 *   plies longer in both columns (3K v 2K+1C). tests/data/README.md (checkers)
 *   has the evidence.
 * - EGDB_TABLE_FIRST: the longest win of Black (the first-named side) with
 *   Black to move, and the longest loss of White with White to move.
 * The two agree wherever the first-named side's wins are the material's
 * longest. -1: none (no distances, or the mirror material is missing). */
typedef enum { EGDB_TABLE_MATERIAL = 0, EGDB_TABLE_FIRST } egdb_table_t;
/* "material" or "first" into *t: 0, or -1 for another name. */
int egdb_table_parse(const char *name, egdb_table_t *t);
const char *egdb_table_name(egdb_table_t t);

/* A longest distance and where it is: plies (-1: none) at index of slice;
 * mirrored: the position is the colour-reversed image of that index (White
 * to move in the row's material). */
typedef struct egdb_extreme {
    int plies;
    uint64_t slice, index;
    int mirrored;
} egdb_extreme_t;

typedef struct egdb_stat {
    int counts[RETRO_MAX_COUNTS], ncounts;
    uint64_t slice;            /* a slice of the material (its only one in chess) */
    uint64_t positions, wins, draws, losses;
    int distances;             /* 1: counted from distance-to-win files */
    egdb_extreme_t win, loss;  /* the table's, in the reading asked for */
    /* with Black to move in this material, no capture for Black */
    egdb_extreme_t btm_win, btm_loss;
    /* the longest win over every position, whoever moves (chess: the
     * longest mate, with the winner to move); -1: none */
    int longest_win_plies;
    uint64_t longest_slice, longest_index;
    /* the longest loss over every position, whoever moves (chess: the
     * longest defence, the loser to move, mated in plies / 2 moves) */
    int longest_loss_plies;
    uint64_t longest_loss_slice, longest_loss_index;
} egdb_stat_t;
/* Parse a material ("2,0,1,0": one count per material_names entry, in
 * order, separated by commas) into counts: their number, or -1 with err
 * (GSW_EINPUT) naming the text. */
int egdb_material_parse(const gv_t *v, const char *text, int *counts, err_t *err);
/* Rows for every material present, or only the one whose counts are only
 * (nonly > 0). *out is the caller's to free. */
int egdb_stats(egdb_set_t *set, const int *only, int nonly, egdb_table_t table, egdb_stat_t **out, int *nout,
               gsw_flag_t *stop, err_t *err);

/* The slices present in the directory for metric m (their count; out may
 * be NULL), in no particular order. */
int egdb_list(egdb_set_t *s, retro_metric_t m, uint64_t *out, int max);

#endif

/* The messages between gsw's ranks (dist/): each packed by its sender and
 * checked by its reader here, one pair per kind. A unit of a database
 * build and its answer, a manager leaf (sent and answered whole), a
 * tuning game and its result. Every rank runs the same binary (dist_start
 * checks), so structs travel as bytes; the readers still check sizes and
 * ranges, and tests/fuzz/fuzz_dist_wire.c feeds them junk. */
#ifndef GSW_DIST_WIRE_H
#define GSW_DIST_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/evolve.h"
#include "core/manager.h"
#include "solve/egdb.h"

/* A unit: this header, then ns slice ids. */
typedef struct dist_job_hdr {
    int32_t unit, ns, nneed, need[2];
    int32_t parts, part;       /* a divided unit: its parts, and the receiver's (0 and 0: whole) */
} dist_job_hdr_t;
/* Pack job into a malloc'd buffer (*n bytes); NULL when out of memory. */
void *dist_job_pack(const egdb_unit_job_t *job, size_t *n);
/* Read a unit: job filled, its slices in *ids (malloc'd, free() them).
 * GSW_EFAIL (err) when the bytes are not one. */
int dist_job_read(const void *b, size_t n, egdb_unit_job_t *job, uint64_t **ids, err_t *err);

/* A worker's answer for a unit (failed: 0, 1, or 2 when it stopped
 * because another part of its divided unit failed). */
typedef struct dist_done {
    int32_t unit, failed;
    err_t err;
    egdb_build_report_t part;
} dist_done_t;
int dist_done_read(const void *b, size_t n, dist_done_t *m, err_t *err);

/* A manager leaf, out and back: the reader clears its pointers (v, o: the
 * reader's own are set by who uses it) and checks the line's length. */
int dist_leaf_read(const void *b, size_t n, mg_leaf_t *leaf, err_t *err);

/* A tuning game (its place in the round), and its result. */
typedef struct dist_game {
    int32_t idx;
    evo_game_t g;
} dist_game_t;
typedef struct dist_result {
    int32_t idx, result;
} dist_result_t;
int dist_game_read(const void *b, size_t n, dist_game_t *m, err_t *err);
int dist_result_read(const void *b, size_t n, dist_result_t *m, err_t *err);

#endif

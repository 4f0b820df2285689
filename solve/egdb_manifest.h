/* The provenance of endgame-database files (db/manifest.h): each metric's
 * folder (DIR/GAME/METRIC/) holds a MANIFEST that a build rewrites after
 * each unit it finishes: the build (gsw's version and commit, the command,
 * the date, the cores, the time so far), each slice file it wrote (its
 * SHA-256, size and positions) and the files of the slices it read exits
 * from (and, for distances to conversion, the win/draw/loss files) with
 * theirs. Used by solve/egdb_build.c (the builder; rank 0 of a farm) and
 * by `egdb verify` (checking a folder, adopting one built before
 * manifests). */
#ifndef GSW_SOLVE_EGDB_MANIFEST_H
#define GSW_SOLVE_EGDB_MANIFEST_H

#include "db/manifest.h"
#include "solve/egdb.h"

typedef struct egdb_prov egdb_prov_t;

/* A build's record keeper for set (o: the command as typed, argc/argv;
 * none: a build gsw started on its own). NULL when out of memory. The
 * set's guard (egdb_set_guard) is off until egdb_prov_close: the build
 * reads the files it has just written before its MANIFEST lists them. */
egdb_prov_t *egdb_prov_open(egdb_set_t *set, const egdb_build_options_t *o);
/* The unit of these slices is finished, metrics `wrote` (a bit 1 << m
 * for each metric m this build wrote for it): each of their files of
 * those metrics written since the build began is recorded (a file of
 * another metric is not this build's, even when another gsw wrote it a
 * moment ago), and the folders' manifests written
 * (at most four times a second: a stopped build writes them on its way
 * out; one killed leaves the last unit's files unlisted, and running it
 * again records them, egdb_prov_found). */
int egdb_prov_unit(egdb_prov_t *p, const uint64_t *slices, int ns, unsigned wrote, err_t *err);
/* The unit of these slices was found finished (its files passed their
 * checksums): those its folders' manifests do not list (a build killed
 * before it wrote them; a folder from before manifests) are recorded as
 * this build's. */
int egdb_prov_found(egdb_prov_t *p, const uint64_t *slices, int ns, err_t *err);
/* The build's time set, the manifests written once more, p freed. */
int egdb_prov_close(egdb_prov_t *p, err_t *err);

/* `egdb verify`'s check of every metric folder of set that holds files
 * against its MANIFEST: each file's line said through say(ctx, "NAME:
 * STATUS") (ok, differs from the manifest, missing, not in the manifest;
 * a folder without one: every file not in the manifest), *files and
 * *bad counted, and *folders the folders looked at. */
int egdb_manifest_verify(egdb_set_t *set, void (*say)(void *ctx, const char *metric, const char *name, int status),
                         void *ctx, int *files, int *bad, err_t *err);
/* `egdb verify --record`: each metric folder's files (all of which the
 * consistency check has just passed) recorded under a build whose command
 * is argv's, the manifest written (files already listed keep their
 * record when their SHA-256 is the same). *recorded counts them. */
int egdb_manifest_record(egdb_set_t *set, int argc, char *const *argv, int *recorded, err_t *err);

#endif

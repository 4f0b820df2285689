/* Manifests: where a folder's files came from. Every database, tablebase,
 * strong-solution and book folder holds a text file MANIFEST that says,
 * for each build that wrote files there, gsw's version and commit, the
 * exact command, the date, the machine's core count and the time it took;
 * for each file, its SHA-256 (as `sha256sum` prints it), its position
 * count and the build that made it; and for each file, the files it was
 * built from with their SHA-256. A build rewrites it atomically after
 * each file it writes, so a stopped build leaves it true.
 *
 * The text, a line each (fields separated by single spaces; a command
 * is the rest of its line; lines starting with '#' are comments):
 *   gsw-manifest 1
 *   build ID version V commit C date YYYY-MM-DDTHH:MM:SSZ cores N seconds S
 *   command ID THE COMMAND AS TYPED
 *   file NAME sha256 HEX bytes B positions N build ID
 *   from NAME INPUT sha256 HEX      (INPUT: a path relative to the folder,
 *                                    "../wld/X.egdb" for a file beside it)
 * NAME is a path relative to the folder, without spaces. B is the file's
 * size, which a reader opening the folder compares cheaply (a full SHA-256
 * is for `verify`); a manifest without it parses, and then only verify's
 * SHA-256 checks the file. Builds come before the files that name them,
 * a build's command line after its build line, a file's from lines right
 * after its file line (before the next file): a line that breaks this, or any other malformed line, is
 * refused with its number.
 *
 * This module only reads and writes manifests and hashes files; it is a
 * file reader the separate checker (check/) links too, so it uses nothing
 * of solve/ or of the cache. */
#ifndef GSW_MANIFEST_H
#define GSW_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define MANIFEST_NAME "MANIFEST"
#define MANIFEST_SHA_HEX 65          /* 64 hex digits and the terminator */

typedef struct manifest_build {
    int id;
    char version[32], commit[48];
    char date[32];                   /* UTC, ISO 8601 */
    int cores;
    double seconds;
    char command[1024];
} manifest_build_t;

typedef struct manifest_file {
    char name[160];
    char sha256[MANIFEST_SHA_HEX];
    uint64_t bytes;                  /* its size, or MANIFEST_NO_BYTES */
    uint64_t positions;
    int build;
} manifest_file_t;

#define MANIFEST_NO_BYTES UINT64_MAX

typedef struct manifest_input {
    char name[160];                  /* the file built */
    char input[256];                 /* a file it was built from, relative to the folder */
    char sha256[MANIFEST_SHA_HEX];
} manifest_input_t;

typedef struct manifest {
    manifest_build_t *build;
    int nbuild;
    manifest_file_t *file;
    int nfile;
    manifest_input_t *input;
    int ninput;
    /* manifest_find's index of file names (rebuilt when stale; a zeroed
     * manifest_t has none): open addressing, hcap a power of two */
    int *hash, hcap, hfiles;
} manifest_t;

/* Parse a manifest's text (name for messages): GSW_OK, or GSW_EINPUT
 * with a one-line error naming the line. *m is emptied first. */
int manifest_parse(const char *text, size_t n, const char *name, manifest_t *m, err_t *err);
/* dir's MANIFEST into *m: 1 read, 0 there is none, -1 an error (err). */
int manifest_load(const char *dir, manifest_t *m, err_t *err);
/* Write *m as dir's MANIFEST (under a temporary name, then renamed),
 * holding the folder's lock (an flock of the folder) while it does. */
int manifest_write(const char *dir, const manifest_t *m, err_t *err);
/* Change dir's MANIFEST in place under the folder's lock: it is loaded
 * afresh (an empty one when there is none), change(ctx, m, err) alters
 * it, and it is written back unless change fails. Two processes writing
 * files into one folder go through here, so neither loses the other's
 * records. */
int manifest_update(const char *dir, int (*change)(void *ctx, manifest_t *m, err_t *err), void *ctx, err_t *err);
void manifest_free(manifest_t *m);

/* The file named name, or NULL. */
const manifest_file_t *manifest_find(const manifest_t *m, const char *name);
/* A new build record (its id is returned): version and commit are
 * gsw's, the date now, the cores online; seconds 0 until
 * manifest_build_done. command: the words as typed, joined by spaces. */
int manifest_build_begin(manifest_t *m, int argc, char *const *argv);
void manifest_build_done(manifest_t *m, int build, double seconds);
/* Record (or replace) file name as made by build, with its hash and
 * positions; its inputs are forgotten until manifest_add_input. */
int manifest_set_file(manifest_t *m, int build, const char *name, const char *sha256, uint64_t positions);
int manifest_add_input(manifest_t *m, const char *name, const char *input, const char *sha256);
/* Copy build record `build` of from, and the files from says it made
 * with their inputs, into `into` (replacing those files' records there),
 * then prune. files[nfiles] (indices into from->file) limits the copy to
 * those files (NULL: every file of the build). The build keeps its id in
 * `into` when `into` holds the same record already (the same version,
 * commit, date, cores and command; its seconds are updated), else it
 * takes the next free id. */
int manifest_fold(manifest_t *into, const manifest_t *from, int build, const int *files, int nfiles);
/* Forget builds no file names any more. */
void manifest_prune(manifest_t *m);

/* Forget file name and its inputs: 1 it was listed, 0 not. */
int manifest_remove_file(manifest_t *m, const char *name);
/* Hash dir/name and record it (manifest_set_file) with its size. */
int manifest_record_file(manifest_t *m, int build, const char *dir, const char *name, uint64_t positions,
                         err_t *err);

/* One file recorded in its folder's MANIFEST under a new build whose
 * command is argv's (an exported book, a file adopted): loaded, recorded,
 * pruned, written. */
int manifest_record_path(const char *path, int argc, char *const *argv, uint64_t positions, err_t *err);

/* The cheap check of a reader opening dir/name: it is listed in m and its
 * size is the listed one (GSW_OK), else GSW_EFAIL and a one-line reason
 * naming the file. */
int manifest_check_size(const char *dir, const manifest_t *m, const char *name, err_t *err);
/* Check every file m lists in dir against its SHA-256 (and size), and
 * find the files in dir (not below it) that want accepts (every file when
 * want is NULL; MANIFEST itself and dot files never) but m does not list.
 * report(ctx, name, status) is told each, listed files first in m's
 * order, then the unlisted ones by name. Returns how many are not
 * MANIFEST_OK, or -1 with err when a file cannot be read. */
enum { MANIFEST_OK, MANIFEST_DIFFERS, MANIFEST_MISSING, MANIFEST_UNLISTED };
int manifest_verify(const char *dir, const manifest_t *m, int (*want)(const char *name),
                    void (*report)(void *ctx, const char *name, int status), void *ctx, err_t *err);
/* "ok", "differs from the manifest", "missing", "not in the manifest". */
const char *manifest_status_name(int status);

/* gsw's version and the commit it was built from ("unknown" outside git;
 * "-dirty" after it when the tree had changes), as build records give them. */
const char *manifest_gsw_version(void);
const char *manifest_gsw_commit(void);

/* The SHA-256 of the file at path, as 64 lower-case hex digits. */
int manifest_sha256_file(const char *path, char hex[MANIFEST_SHA_HEX], err_t *err);
/* The same of n bytes in memory. */
void manifest_sha256(const void *data, size_t n, char hex[MANIFEST_SHA_HEX]);

#endif

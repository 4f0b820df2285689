/* The evidence files of the separate checker: a file's SHA-256 against
 * the certificate's and its folder's MANIFEST (db/manifest.h); a
 * database's value of a position (db/egdb.h's reader, the game's
 * indexing, the codes decoded here: what they mean is the checker's own
 * reading of the format, not solve/egdb.c's); a strong solution's set
 * evaluated at a position (db/bddfile.h, games/connect4/c4_assign.h). */
#ifndef GSW_CHECK_FILES_H
#define GSW_CHECK_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "check/cert.h"
#include "check/rules.h"
#include "core/err.h"

struct egdb_file;

/* path's SHA-256 is sha256, and the MANIFEST of its folder (or of the
 * nearest folder above it that has one) lists it with that SHA-256:
 * GSW_OK, else GSW_EFAIL with a reason naming the file. */
int files_attest(const char *path, const char *sha256, err_t *err);

/* The value a code of a database file stands for (cert.h's scale: a
 * win/draw/loss file's classes as win, draw, loss; distances exact),
 * reading the exception table for code 255. */
int files_decode(struct egdb_file *f, int metric, uint64_t index, uint8_t code, int32_t *v, err_t *err);

/* The value database file path holds for pos, which must be in the
 * file's slice: *lo and *hi, the least and greatest value it allows
 * (a class: win is win .. win/1). */
int files_db_value(const rules_t *r, const char *path, const void *pos, int32_t *lo, int32_t *hi, err_t *err);

/* 1 when pos is in the strong solution's set f (a Connect Four position of
 * f's board and ply), 0 when not; -1 with err when f or pos does not fit. */
int files_strong_has(const rules_t *r, const cert_file_t *f, const void *pos, err_t *err);

#endif

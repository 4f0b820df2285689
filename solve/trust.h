/* Provenance at the door: the knowledge sources (endgame databases,
 * strong solutions, books) read a file of a folder only when the folder's
 * MANIFEST (db/manifest.h) lists it with the size it has now: a cheap
 * check at open (a full SHA-256 of a multi-GB folder is verify's work;
 * egdb files also check each block's checksum as they are read). A file
 * the manifest does not vouch for is refused with a one-line reason that
 * names it and the fix, unless trust is on (--trust, or $GSW_TRUST=1):
 * then it is used and a warning goes to stderr once. */
#ifndef GSW_TRUST_H
#define GSW_TRUST_H

#include "core/err.h"
#include "db/manifest.h"

/* --trust for this process (the CLI sets it from the verb's option). */
void source_set_trust(int on);
/* Trust on: --trust given, or $GSW_TRUST is 1. */
int source_trusted(void);

/* One folder's manifest, read at the first file asked about. */
typedef struct trust_dir {
    char dir[1100];
    int state;                 /* 0 not read yet, 1 read, 2 none, 3 unreadable */
    manifest_t m;
    char why[400];             /* state 3: why */
    long long mtime_ns, size;  /* MANIFEST's when read (-1: none): a miss reads it again when it changed */
} trust_dir_t;

/* May dir/name be used? GSW_OK (listed with its size; or trust is on, and
 * the first time a file is used so a warning is said), else GSW_EFAIL
 * with a reason naming the file, how to check the folder (fix: "gsw egdb
 * verify checkers --dir D", say) and how to adopt it (fix --record, when
 * record is set). t is reset when dir changes; a file it does not vouch
 * for has the MANIFEST read again first when that changed since (a build
 * in this process or another has listed more). */
int trust_file(trust_dir_t *t, const char *dir, const char *name, const char *fix, int record, err_t *err);
void trust_dir_free(trust_dir_t *t);

#endif

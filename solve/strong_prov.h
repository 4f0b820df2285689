/* The provenance of a strong solution's files (db/manifest.h): beside the
 * board folder's own `manifest` (solve/strong.h: what is solved, the sets'
 * 64-bit checksums, for resuming), a MANIFEST with the builds that wrote
 * its set files, each set's SHA-256, size and positions, and the sets of
 * the neighbouring plies it was made from. A build (or count) brings it up
 * to date each time it rewrites its `manifest`; `strong verify` checks it. */
#ifndef GSW_SOLVE_STRONG_PROV_H
#define GSW_SOLVE_STRONG_PROV_H

#include "db/manifest.h"
#include "solve/strong.h"

typedef struct strong_prov strong_prov_t;

/* A build's record keeper for board folder bdir (argv: the command as
 * typed; NULL: unknown). NULL when out of memory. */
strong_prov_t *strong_prov_open(const char *bdir, int argc, char *const *argv);
/* Make bdir's MANIFEST list the sets m lists: a set written since the
 * build began, or one the MANIFEST lacks or gives another size, is hashed
 * and recorded as this build's; a set m no longer lists is forgotten. */
int strong_prov_sync(strong_prov_t *p, const strong_manifest_t *m, err_t *err);
int strong_prov_close(strong_prov_t *p, err_t *err);

/* `strong verify`: every set file of bdir against its MANIFEST (say: each
 * file's status; *files and *bad counted); *sets: the sets the board's
 * own manifest lists that the MANIFEST does not (each said as not in the
 * manifest when its file is there). --record first (record): every set
 * the board's manifest lists whose file passes its checksum, recorded
 * under a build whose command is argv's (*recorded counts them). */
int strong_prov_verify(const char *bdir, int record, int argc, char *const *argv,
                       void (*say)(void *ctx, const char *name, int status), void *ctx, int *files, int *bad,
                       int *recorded, err_t *err);

#endif

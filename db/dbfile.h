/* What the db's files share: atomic writes (a temporary name, fsync, a
 * rename), whole-file reads, and the framing of the compressed formats
 * (bddfile.h's BDD files, bookfile.h's opening books). Text files of other
 * layers use them too (protocol/tune_cmd.c's state and CSV). */
#ifndef GSW_DBFILE_H
#define GSW_DBFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* Write n bytes to path through path.tmp, synced, and a rename (a reader
 * never sees half a file). */
int db_write_atomic(const char *path, const void *data, size_t n, err_t *err);
/* Read a whole file into *data (malloc'd; a file that shrank while read
 * comes back empty, for the reader to refuse as truncated). */
int db_read_whole(const char *path, uint8_t **data, size_t *n, err_t *err);
/* The same, at most max bytes from its start. */
int db_read_head(const char *path, size_t max, uint8_t **data, size_t *n, err_t *err);
/* The framing of the compressed files: an 8-byte magic, one zstd frame
 * with its content checksum, and the FNV-1a 64 (bddf_fnv) of every byte
 * before it. db_frame_write writes payload so, atomically, at zstd level
 * level (*checksum, may be NULL, gets the file's FNV); db_frame_read checks
 * data (a whole file) and returns the payload (malloc'd, at least min_raw
 * bytes), or a one-line message naming the file ("not a gsw WHAT file",
 * "damaged (...)"). */
int db_frame_write(const char *path, const char magic[8], const void *payload, size_t raw, int level,
                   uint64_t *checksum, err_t *err);
/* The same cut into independent zstd frames, so that a reader can
 * decompress a part of the payload alone: the first head bytes, then
 * chunk bytes a frame; a skippable frame after them lists each frame's
 * compressed size (the seek table), and the trailer follows as before.
 * db_frame_read reads it whole like any other. */
/* bytes little-endian bytes of x into p; and back (the files' words) */
void db_put_le(uint8_t *p, uint64_t x, int bytes);
uint64_t db_get_le(const uint8_t *p, int bytes);
int db_frame_write_seekable(const char *path, const char magic[8], const void *payload, size_t raw, int level,
                            size_t head, size_t chunk, uint64_t *checksum, err_t *err);
/* A seekable file's seek table: frame f of the payload lies at bytes
 * off[f] .. off[f + 1] of the file (f 0: the head bytes, f >= 1: chunk
 * bytes from head + (f - 1) chunk on, the last one shorter). */
typedef struct db_seek {
    uint64_t head, chunk;
    uint32_t nframes;
    uint64_t *off;   /* nframes + 1 (malloc'd) */
} db_seek_t;
/* The seek table of the file open as fd, file_size bytes long: 1 found
 * (t->off to free), 0 the file has none (one frame: read it whole), -1
 * damaged or unreadable. */
int db_seek_table(int fd, uint64_t file_size, db_seek_t *t);
/* n bytes of fd from offset at (pread, retried): 0, or -1 short or failed. */
int db_read_at(int fd, void *buf, size_t n, uint64_t at);
int db_frame_read(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                  size_t min_raw, uint8_t **out, size_t *out_n, err_t *err);
/* The same for data whose every byte the caller has checked already
 * against a checksum from elsewhere (a manifest's FNV of the whole file):
 * the trailer's FNV is not made again (zstd's content checksum still is). */
int db_frame_read_known(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                        size_t min_raw, uint8_t **out, size_t *out_n, err_t *err);
/* The first bytes of a framed file's payload, without the rest: at most
 * want bytes of it into out (*got says how many), decompressed from the
 * start of data (the file's first bytes, db_read_head: as many as the zstd
 * frame needs to yield them; its blocks are at most 128 KB). Nothing is
 * checked beyond the magic and what the decoder meets, so it is a hint
 * (the deepest ply of a book) that db_frame_read must confirm before the
 * payload is trusted. */
int db_frame_peek(const void *data, size_t n, const char magic[8], const char *what, const char *name,
                  uint8_t *out, size_t want, size_t *got, err_t *err);

#endif

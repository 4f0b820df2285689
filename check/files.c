/* The evidence files: see files.h. */
#include "check/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/retro.h"
#include "db/bddfile.h"
#include "db/egdb.h"
#include "db/manifest.h"
#include "games/connect4/c4_assign.h"

int files_attest(const char *path, const char *sha256, err_t *err)
{
    char hex[MANIFEST_SHA_HEX];
    if (manifest_sha256_file(path, hex, err)) return err->code = GSW_EFAIL;
    if (strcmp(hex, sha256))
        return err_set(err, GSW_EFAIL, "%s has SHA-256 %.12s..., the certificate says %.12s...", path, hex, sha256);
    /* the nearest folder up from the file's with a MANIFEST */
    char dir[1200];
    snprintf(dir, sizeof dir, "%s", path);
    for (int up = 0; up < 4; up++) {
        char *slash = strrchr(dir, '/');
        if (slash == dir) slash[1] = 0;
        else if (slash) *slash = 0;
        else snprintf(dir, sizeof dir, ".");
        manifest_t m;
        int got = manifest_load(dir, &m, err);
        if (got < 0) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            return err_set(err, GSW_EFAIL, "%s: %s", path, why);
        }
        if (got) {
            size_t k = strlen(dir);
            const char *name = !strcmp(dir, ".") ? path : path + k + (dir[k - 1] != '/');
            const manifest_file_t *e = manifest_find(&m, name);
            int ok = e && !strcmp(e->sha256, sha256);
            if (!ok)
                err_set(err, GSW_EFAIL, "%s: %s in %s/%s", path, e ? "another SHA-256" : "not listed", dir, MANIFEST_NAME);
            manifest_free(&m);
            return ok ? GSW_OK : GSW_EFAIL;
        }
        if (!strcmp(dir, ".") || !strcmp(dir, "/")) break;
    }
    return err_set(err, GSW_EFAIL, "%s: no MANIFEST in its folder or above it", path);
}

/* A 16-bit exception: a win or loss and its distance plus one; 0 a draw. */
static int32_t exc_value(uint16_t x)
{
    int d = (x & 0x7fff) - 1;
    if (!x) return 0;
    return x & 0x8000 ? -CV_WIN + d : CV_WIN - d;
}

int files_decode(egdb_file_t *f, int metric, uint64_t index, uint8_t code, int32_t *v, err_t *err)
{
    const char *path = egdb_file_path(f);
    if (code == 0) *v = 0;
    else if (metric == RETRO_WLD) {
        if (code > 2) return err_set(err, GSW_EFAIL, "%s: code %d at position %llu", path, code, (unsigned long long)index);
        *v = code == 1 ? 1 : -1;
    } else if (code == 255) {
        uint16_t x;
        if (!egdb_exception(f, index, &x))
            return err_set(err, GSW_EFAIL, "%s: position %llu has no exception", path, (unsigned long long)index);
        *v = exc_value(x);
    } else if (metric == RETRO_DTW) {   /* code - 1 plies: odd a win, even a loss */
        int d = code - 1;
        *v = d & 1 ? CV_WIN - d : -CV_WIN + d;
    } else
        *v = code < 128 ? CV_WIN - (code - 1) : -CV_WIN + (code - 128);
    return GSW_OK;
}

int files_db_value(const rules_t *r, const char *path, const void *pos, int32_t *lo, int32_t *hi, err_t *err)
{
    if (!r->retro) return err_set(err, GSW_EFAIL, "%s has no databases", r->game);
    uint64_t slice, index, fslice;
    if (!r->retro->locate(NULL, pos, &slice, &index, NULL))
        return err_set(err, GSW_EFAIL, "the position is in no database slice");
    egdb_file_t *f;
    if (egdb_open(path, &f, err)) return err->code;
    const egdb_info_t *in = egdb_file_info(f);
    int rc = GSW_OK;
    char name[64];
    r->retro->slice_name(NULL, slice, name, sizeof name);
    if (strcmp(in->game, r->game)) rc = err_set(err, GSW_EFAIL, "%s is a database of %s", path, in->game);
    else if (r->retro->slice_parse(NULL, in->slice, &fslice, err) || fslice != slice || index >= in->n)
        rc = err_set(err, GSW_EFAIL, "the position is in slice %s, %s holds %s", name, path, in->slice);
    else if (in->metric > RETRO_DTW) rc = err_set(err, GSW_EFAIL, "%s: unknown metric %d", path, in->metric);
    uint8_t *codes = rc ? NULL : malloc(EGDB_BLOCK);
    if (!rc && !codes) rc = err_set(err, GSW_EFAIL, "out of memory");
    int32_t v = 0;
    if (!rc && !egdb_read_block(f, index / EGDB_BLOCK, codes, err))
        rc = files_decode(f, in->metric, index, codes[index % EGDB_BLOCK], &v, err);
    else if (!rc)
        rc = err->code;
    if (!rc) {
        if (in->metric == RETRO_DTC && v) v = v > 0 ? 1 : -1;   /* its classes: the distances are to conversion */
        *lo = v;
        *hi = v;
        if (v == 1) *hi = CV_WIN - 1;     /* a class: win is win .. win/1, */
        if (v == -1) *lo = -CV_WIN;       /* loss is loss/0 .. loss */
    }
    free(codes);
    egdb_close(f);
    return rc;
}

int files_strong_has(const rules_t *r, const cert_file_t *f, const void *pos, err_t *err)
{
    c4b_spec_t s = { .w = f->w, .h = f->h };
    if (!r->w) return err_set(err, GSW_EFAIL, "%s has no strong solution", r->game), -1;
    if (f->w != r->w || f->h != r->h)
        return err_set(err, GSW_EFAIL, "%s is of a %dx%d board", f->path, f->w, f->h), -1;
    if (c4b_encoding_parse(f->enc, &s.enc) || c4b_order_parse(f->order, &s.order))
        return err_set(err, GSW_EFAIL, "%s: unknown encoding %s %s", f->path, f->enc, f->order), -1;
    int8_t cells[128];
    int ply = c4_cells(r, pos, cells);
    if (ply != f->ply) return err_set(err, GSW_EFAIL, "the position is of ply %d, %s of ply %d", ply, f->path, f->ply), -1;
    bddf_t b;
    if (bddf_read(f->path, &b, NULL, err)) return -1;
    uint8_t bits[BDDF_MAX_VARS];
    int in = -1;
    if ((int)b.nvars != c4b_nvars(&s)) err_set(err, GSW_EFAIL, "%s has %u variables, not %d", f->path, b.nvars, c4b_nvars(&s));
    else {
        c4b_assign(&s, cells, ply, bits);
        in = bddf_eval(&b, bits) ? 1 : 0;
    }
    bddf_free(&b);
    return in;
}

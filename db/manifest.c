/* Manifests (db/manifest.h): the text parsed line by line and written
 * back atomically, the build records, and SHA-256 through libcrypto's EVP
 * interface. Only core/err.c besides: the separate checker links this. */
#include "db/manifest.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "gsw_version.h"   /* generated at build time (cmake/gsw_version.cmake) */

const char *manifest_gsw_version(void) { return GSW_VERSION_TEXT; }
const char *manifest_gsw_commit(void) { return GSW_COMMIT_TEXT; }

void manifest_free(manifest_t *m)
{
    free(m->build);
    free(m->file);
    free(m->input);
    free(m->hash);
    memset(m, 0, sizeof *m);
}

/* Grow an array by one zeroed element: its address, or NULL (out of memory).
 * Its room doubles when the count reaches a power of two (the room is
 * always at least the count rounded up to one, arrays only shrinking
 * between), so a build's tens of thousands of records cost linear time:
 * growing by one each time copied the whole array under ASan's allocator
 * (a 4-piece build took 90 s there instead of 5). */
static void *grow(void **arr, int *n, size_t size)
{
    if (!*n || !(*n & (*n - 1))) {
        void *p = realloc(*arr, (size_t)(*n ? 2 * *n : 1) * size);
        if (!p) return NULL;
        *arr = p;
    }
    void *p = *arr;
    void *e = (char *)p + (size_t)*n * size;
    memset(e, 0, size);
    (*n)++;
    return e;
}

static manifest_build_t *build_of(const manifest_t *m, int id)
{
    for (int i = 0; i < m->nbuild; i++)
        if (m->build[i].id == id) return &m->build[i];
    return NULL;
}

/* ---- the index of file names (a build of thousands of slices looks
 * files up by name thousands of times) ---- */

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void hash_put(manifest_t *m, int i)
{
    unsigned j = name_hash(m->file[i].name) & (unsigned)(m->hcap - 1);
    while (m->hash[j] >= 0) j = (j + 1) & (unsigned)(m->hcap - 1);
    m->hash[j] = i;
}

/* The index for every file: 0, or -1 when out of memory (no index). */
static int hash_build(manifest_t *m)
{
    int cap = 16;
    while (cap < 2 * m->nfile + 16) cap *= 2;
    if (cap != m->hcap || !m->hash) {
        int *h = realloc(m->hash, (size_t)cap * sizeof *h);
        if (!h) {
            free(m->hash);
            m->hash = NULL, m->hcap = 0, m->hfiles = -1;
            return -1;
        }
        m->hash = h, m->hcap = cap;
    }
    for (int i = 0; i < cap; i++) m->hash[i] = -1;
    for (int i = 0; i < m->nfile; i++) hash_put(m, i);
    m->hfiles = m->nfile;
    return 0;
}

const manifest_file_t *manifest_find(const manifest_t *m, const char *name)
{
    manifest_t *w = (manifest_t *)m;   /* (the index is a cache: the manifest itself is not changed) */
    if ((!w->hash || w->hfiles != w->nfile) && hash_build(w)) {
        for (int i = 0; i < m->nfile; i++)
            if (!strcmp(m->file[i].name, name)) return &m->file[i];
        return NULL;
    }
    for (unsigned j = name_hash(name) & (unsigned)(w->hcap - 1); w->hash[j] >= 0; j = (j + 1) & (unsigned)(w->hcap - 1))
        if (!strcmp(m->file[w->hash[j]].name, name)) return &m->file[w->hash[j]];
    return NULL;
}

/* ---- parsing ---- */

/* A word of the line at *p (up to a space or its end) into out (size n):
 * 0, or -1 when there is none, it is too long, or a control character. */
static int word(const char **p, char *out, size_t n)
{
    const char *s = *p;
    size_t k = 0;
    while (*s && *s != ' ') {
        if ((unsigned char)*s < 0x20 || *s == 0x7f || k + 1 >= n) return -1;
        out[k++] = *s++;
    }
    out[k] = 0;
    if (!k) return -1;
    if (*s == ' ') s++;
    *p = s;
    return 0;
}

/* The keyword kw next, then a word into out. */
static int field(const char **p, const char *kw, char *out, size_t n)
{
    char k[16];
    return word(p, k, sizeof k) || strcmp(k, kw) || word(p, out, n) ? -1 : 0;
}

static int number(const char *s, uint64_t max, uint64_t *v)
{
    if (!*s || strlen(s) > 20) return -1;
    uint64_t x = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (max - d) / 10) return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int is_hex64(const char *s)
{
    if (strlen(s) != 64) return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))) return 0;
    return 1;
}

static int is_date(const char *s)
{
    const char *shape = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != strlen(shape)) return 0;
    for (int i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i]) return 0;
    return 1;
}

/* A name relative to the folder: no spaces (word() saw to that), not
 * absolute, no empty part, no "." part and (up) no ".." part: a file's
 * name is in the folder or below it, an input's may be beside it. */
static int is_path(const char *s, int up)
{
    if (s[0] == '/') return 0;
    for (const char *p = s; *p;) {
        const char *e = strchr(p, '/');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (!k || (k == 2 && !strncmp(p, "..", 2) && !up) || (k == 1 && *p == '.')) return 0;
        p += k + (e ? 1 : 0);
        if (e && !*p) return 0;
    }
    return 1;
}

static int is_name(const char *s) { return is_path(s, 0); }

/* One line (NUL-terminated, without its newline) into m: NULL, or what is wrong. */
static const char *parse_line(const char *s, manifest_t *m)
{
    char kw[16], a[300], b[300], c[300];
    uint64_t v;
    if (word(&s, kw, sizeof kw)) return "no keyword";
    if (!strcmp(kw, "build")) {
        manifest_build_t e;
        memset(&e, 0, sizeof e);
        if (word(&s, a, sizeof a) || number(a, 1000000000, &v)) return "a build without its number";
        e.id = (int)v;
        if (build_of(m, e.id)) return "a build's number twice";
        if (field(&s, "version", e.version, sizeof e.version)) return "no version";
        if (field(&s, "commit", e.commit, sizeof e.commit)) return "no commit";
        if (field(&s, "date", e.date, sizeof e.date) || !is_date(e.date)) return "no date YYYY-MM-DDTHH:MM:SSZ";
        if (field(&s, "cores", a, sizeof a) || number(a, 1000000, &v)) return "no core count";
        e.cores = (int)v;
        char *end;
        if (field(&s, "seconds", a, sizeof a)) return "no seconds";
        double x = strtod(a, &end);
        if (*end || !(x >= 0 && x <= 1e9) || !isdigit((unsigned char)a[0])) return "seconds not a number";
        /* kept to the millisecond the file is written with, so that a
         * manifest read and written again says the same */
        e.seconds = round(x * 1000) / 1000 + 0.0;
        if (*s) return "more after the seconds";
        manifest_build_t *p = grow((void **)&m->build, &m->nbuild, sizeof *p);
        if (!p) return "out of memory";
        *p = e;
    } else if (!strcmp(kw, "command")) {
        if (word(&s, a, sizeof a) || number(a, 1000000000, &v)) return "a command without its build's number";
        manifest_build_t *bd = build_of(m, (int)v);
        if (!bd) return "a command for a build not listed before it";
        if (bd->command[0]) return "a build's command twice";
        size_t k = strlen(s);
        if (!k) return "an empty command";
        if (k >= sizeof bd->command) return "a command too long";
        for (size_t i = 0; i < k; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return "a control character in a command";
        memcpy(bd->command, s, k + 1);
    } else if (!strcmp(kw, "file")) {
        manifest_file_t e;
        memset(&e, 0, sizeof e);
        e.bytes = MANIFEST_NO_BYTES;
        if (word(&s, e.name, sizeof e.name) || !is_name(e.name)) return "a file without a name relative to the folder";
        if (manifest_find(m, e.name)) return "a file listed twice";
        if (field(&s, "sha256", e.sha256, sizeof e.sha256) || !is_hex64(e.sha256))
            return "no sha256 of 64 lower-case hex digits";
        if (word(&s, a, sizeof a)) return "no positions";
        if (!strcmp(a, "bytes")) {
            if (word(&s, a, sizeof a) || number(a, MANIFEST_NO_BYTES - 1, &e.bytes)) return "bytes not a number";
            if (word(&s, a, sizeof a)) return "no positions";
        }
        if (strcmp(a, "positions") || word(&s, a, sizeof a) || number(a, UINT64_MAX, &e.positions))
            return "no positions";
        if (field(&s, "build", a, sizeof a) || number(a, 1000000000, &v)) return "no build";
        e.build = (int)v;
        if (!build_of(m, e.build)) return "a file of a build not listed before it";
        if (*s) return "more after the build";
        manifest_file_t *p = grow((void **)&m->file, &m->nfile, sizeof *p);
        if (!p) return "out of memory";
        *p = e;
    } else if (!strcmp(kw, "from")) {
        if (word(&s, a, sizeof a) || !m->nfile || strcmp(m->file[m->nfile - 1].name, a))
            return "inputs of a file not listed right before them";
        if (word(&s, b, sizeof b) || !is_path(b, 1) || strlen(b) >= sizeof m->input->input)
            return "an input without a name relative to the folder";
        if (field(&s, "sha256", c, sizeof c) || !is_hex64(c)) return "no sha256 of 64 lower-case hex digits";
        if (*s) return "more after the sha256";
        for (int i = m->ninput - 1; i >= 0 && !strcmp(m->input[i].name, a); i--)   /* (its own, at the end) */
            if (!strcmp(m->input[i].input, b)) return "an input listed twice";
        if (manifest_add_input(m, a, b, c)) return "out of memory";
    } else {
        return "an unknown line";
    }
    return NULL;
}

int manifest_parse(const char *text, size_t n, const char *name, manifest_t *m, err_t *err)
{
    memset(m, 0, sizeof *m);
    int line = 0, head = 0;
    size_t i = 0;
    while (i < n) {
        char buf[1600];
        size_t k = 0;
        int nul = 0, long_line = 0;
        while (i < n && text[i] != '\n') {
            if (!text[i]) nul = 1;
            if (k + 1 < sizeof buf) buf[k++] = text[i];
            else long_line = 1;
            i++;
        }
        if (i < n) i++;
        buf[k] = 0;
        line++;
        const char *why = NULL;
        if (nul) why = "a NUL byte";
        else if (long_line) why = "a line too long";
        else if (!k || buf[0] == '#') continue;
        else if (!head) {
            if (strcmp(buf, "gsw-manifest 1")) {
                manifest_free(m);
                return err_set(err, GSW_EINPUT, "%s is not a gsw manifest (line %d: no \"gsw-manifest 1\")", name,
                               line);
            }
            head = 1;
            continue;
        } else why = parse_line(buf, m);
        if (why) {
            manifest_free(m);
            return err_set(err, GSW_EINPUT, "%s line %d: %s", name, line, why);
        }
    }
    if (!head) return err_set(err, GSW_EINPUT, "%s is not a gsw manifest (it is empty)", name);
    for (int b = 0; b < m->nbuild; b++)
        if (!m->build[b].command[0]) {
            int id = m->build[b].id;
            manifest_free(m);
            return err_set(err, GSW_EINPUT, "%s: build %d has no command line", name, id);
        }
    return GSW_OK;
}

static void join(char *out, size_t n, const char *dir, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

int manifest_load(const char *dir, manifest_t *m, err_t *err)
{
    memset(m, 0, sizeof *m);
    char path[1200];
    join(path, sizeof path, dir, MANIFEST_NAME);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        err_set(err, GSW_EFAIL, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text) break;
        n += fread(text + n, 1, cap - n, f);
        if (n < cap) break;
        if (cap >= (size_t)1 << 30) break;   /* refused below as too long */
        char *t = realloc(text, cap * 2);
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t, cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!text || bad || n == cap) {
        free(text);
        err_set(err, GSW_EFAIL, "cannot read %s: %s", path, !text ? "out of memory" : bad ? "read error" : "too long");
        return -1;
    }
    int rc = manifest_parse(text, n, path, m, err);
    free(text);
    return rc ? -1 : 1;
}

/* ---- writing ---- */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int bad;
} sbuf_t;

static void put(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf_t *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = 1;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->bad = 1;
            return;
        }
        b->s = t, b->cap = cap;
    }
}

static int by_input_name(const void *a, const void *b)
{
    const manifest_input_t *x = *(const manifest_input_t *const *)a, *y = *(const manifest_input_t *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x > y) - (x < y);   /* (stable: a file's inputs in the order they were added) */
}

/* Is an input of the same file with the same name added after order[j]? */
static int twin_later(const manifest_input_t **order, int n, int j)
{
    for (int k = j + 1; k < n && !strcmp(order[k]->name, order[j]->name); k++)
        if (!strcmp(order[k]->input, order[j]->input)) return 1;
    return 0;
}

/* m's inputs by file name (malloc'd; NULL when out of memory), so each
 * file finds its own at once (a build rewrites the manifest after every
 * unit: no quadratic pass). */
static const manifest_input_t **inputs_by_name(const manifest_t *m)
{
    const manifest_input_t **order = malloc(((size_t)m->ninput + 1) * sizeof *order);
    if (!order) return NULL;
    for (int i = 0; i < m->ninput; i++) order[i] = &m->input[i];
    qsort(order, (size_t)m->ninput, sizeof *order, by_input_name);
    return order;
}

/* The first of order[n] (inputs_by_name's) that is an input of name. */
static int first_input(const manifest_input_t **order, int n, const char *name)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (strcmp(order[mid]->name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The manifest's text (malloc'd, *n bytes), or NULL when out of memory. */
static char *format(const manifest_t *m, size_t *n)
{
    const manifest_input_t **order = inputs_by_name(m);
    if (!order) return NULL;
    sbuf_t b = {0};
    put(&b, "gsw-manifest 1\n");
    put(&b, "# where these files came from: gsw's builds, then each file's SHA-256\n"
            "# (as sha256sum prints it), size, positions and the files it was built from\n");
    for (int i = 0; i < m->nbuild; i++) {
        const manifest_build_t *e = &m->build[i];
        put(&b, "build %d version %s commit %s date %s cores %d seconds %.3f\n", e->id, e->version, e->commit,
            e->date, e->cores, e->seconds);
        put(&b, "command %d %s\n", e->id, e->command);
    }
    for (int i = 0; i < m->nfile; i++) {
        const manifest_file_t *e = &m->file[i];
        put(&b, "file %s sha256 %s", e->name, e->sha256);
        if (e->bytes != MANIFEST_NO_BYTES) put(&b, " bytes %" PRIu64, e->bytes);
        put(&b, " positions %" PRIu64 " build %d\n", e->positions, e->build);
        for (int j = first_input(order, m->ninput, e->name); j < m->ninput && !strcmp(order[j]->name, e->name); j++)
            if (!twin_later(order, m->ninput, j))
                put(&b, "from %s %s sha256 %s\n", e->name, order[j]->input, order[j]->sha256);
    }
    free((void *)order);
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    *n = b.n;
    return b.s;
}

/* *m written as dir's MANIFEST; the caller holds the folder's lock. */
static int write_locked(const char *dir, const manifest_t *m, err_t *err)
{
    char path[1200], tmp[1210];
    join(path, sizeof path, dir, MANIFEST_NAME);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    size_t n = 0;
    char *text = format(m, &n);
    if (!text) return err_set(err, GSW_EFAIL, "cannot write %s: out of memory", path);
    /* a temporary name, synced, then renamed: a reader never sees half a
     * manifest (db/dbfile.c's db_write_atomic does the same, but it lives
     * in gsw_db, which the checker does not link) */
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(text, 1, n, f) == n;
    if (f) ok = (fflush(f) == 0) & ok, ok = (fsync(fileno(f)) == 0) & ok, ok = (fclose(f) == 0) & ok;
    if (ok) ok = rename(tmp, path) == 0;
    int e = errno;
    free(text);
    if (!ok) {
        unlink(tmp);
        if (e == ENOSPC || e == EDQUOT)   /* (said as the database files say it) */
            return err_set(err, GSW_EFAIL, "%s: the disk is full: the files finished before it are kept; free some "
                           "space and build again to resume", path);
        return err_set(err, GSW_EFAIL, "cannot write %s: %s", path, strerror(e));
    }
    return GSW_OK;
}

/* The folder's lock (flock on the folder itself: no file of its own to
 * list or to leave behind): a descriptor to unlock_dir, or -1 with err.
 * Every writer of a MANIFEST takes it, so two processes building into one
 * folder (a workbench building an ending while `egdb build` fills the same
 * folder) neither share MANIFEST.tmp nor write over each other's records. */
static int lock_dir(const char *dir, err_t *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        err_set(err, GSW_EFAIL, "cannot write %s/%s: %s", dir, MANIFEST_NAME, strerror(errno));
        return -1;
    }
    while (flock(fd, LOCK_EX))
        if (errno != EINTR) {
            err_set(err, GSW_EFAIL, "cannot lock %s to write its %s: %s", dir, MANIFEST_NAME, strerror(errno));
            close(fd);
            return -1;
        }
    return fd;
}

static void unlock_dir(int fd)
{
    flock(fd, LOCK_UN);
    close(fd);
}

int manifest_write(const char *dir, const manifest_t *m, err_t *err)
{
    int fd = lock_dir(dir, err);
    if (fd < 0) return err->code;
    int rc = write_locked(dir, m, err);
    unlock_dir(fd);
    return rc;
}

int manifest_update(const char *dir, int (*change)(void *ctx, manifest_t *m, err_t *err), void *ctx, err_t *err)
{
    int fd = lock_dir(dir, err);
    if (fd < 0) return err->code;
    manifest_t m;
    int rc = manifest_load(dir, &m, err) < 0 ? err->code : GSW_OK;
    if (!rc) rc = change(ctx, &m, err);
    if (!rc) rc = write_locked(dir, &m, err);
    manifest_free(&m);
    unlock_dir(fd);
    return rc;
}

static int same_build(const manifest_build_t *a, const manifest_build_t *b)
{
    return !strcmp(a->version, b->version) && !strcmp(a->commit, b->commit) && !strcmp(a->date, b->date) &&
           a->cores == b->cores && !strcmp(a->command, b->command);
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* manifest_fold's files: from's file named name when it is one to fold */
static const manifest_file_t *folded(const manifest_t *from, int build, const int *pick, int npick, const char *name)
{
    const manifest_file_t *f = manifest_find(from, name);
    if (!f || f->build != build) return NULL;
    int i = (int)(f - from->file);
    return bsearch(&i, pick, (size_t)npick, sizeof *pick, by_int) ? f : NULL;
}

int manifest_fold(manifest_t *into, const manifest_t *from, int build, const int *files, int nfiles)
{
    const manifest_build_t *b = build_of(from, build);
    if (!b) return GSW_EINPUT;
    /* the files to fold, sorted (a folder of thousands: no quadratic pass) */
    int n = files ? nfiles : from->nfile, npick = 0;
    int *pick = malloc(((size_t)n + 1) * sizeof *pick);
    const manifest_input_t **order = inputs_by_name(from);
    if (!pick || !order) {
        free(pick);
        free((void *)order);
        return GSW_EFAIL;
    }
    for (int k = 0; k < n; k++) {
        int i = files ? files[k] : k;
        if (i >= 0 && i < from->nfile && from->file[i].build == build) pick[npick++] = i;
    }
    qsort(pick, (size_t)npick, sizeof *pick, by_int);
    int id = 1, rc = GSW_OK;
    manifest_build_t *at = NULL;
    for (int i = 0; i < into->nbuild && !at; i++) {
        if (same_build(&into->build[i], b)) at = &into->build[i];
        else if (into->build[i].id >= id) id = into->build[i].id + 1;
    }
    if (at) id = at->id;
    else if (!(at = grow((void **)&into->build, &into->nbuild, sizeof *at))) rc = GSW_EFAIL;
    if (!rc) *at = *b, at->id = id;
    /* into's inputs of the files folded go (from's come instead) */
    int k = 0;
    for (int i = 0; i < into->ninput && !rc; i++)
        if (!folded(from, build, pick, npick, into->input[i].name)) into->input[k++] = into->input[i];
    if (!rc) into->ninput = k;
    /* the files into lists already are replaced in place, the others added */
    for (int i = 0; i < into->nfile && !rc; i++) {
        const manifest_file_t *f = folded(from, build, pick, npick, into->file[i].name);
        if (f) into->file[i] = *f, into->file[i].build = id;
    }
    for (int j = 0; j < npick && !rc; j++) {
        const manifest_file_t *f = &from->file[pick[j]];
        if (!manifest_find(into, f->name)) {
            if (manifest_set_file(into, id, f->name, f->sha256, f->positions)) rc = GSW_EFAIL;
            else ((manifest_file_t *)manifest_find(into, f->name))->bytes = f->bytes;
        }
        for (int i = first_input(order, from->ninput, f->name); !rc && i < from->ninput &&
                                                                  !strcmp(order[i]->name, f->name); i++)
            if (manifest_add_input(into, f->name, order[i]->input, order[i]->sha256)) rc = GSW_EFAIL;
    }
    free(pick);
    free((void *)order);
    if (!rc) manifest_prune(into);
    return rc;
}

/* ---- building ---- */

/* word w into out, quoted for a POSIX shell when it needs it */
static void quote(sbuf_t *b, const char *w)
{
    int plain = *w != 0;
    for (const char *p = w; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("-_./:=+,@%^", *p)) plain = 0;
    if (plain) {
        put(b, "%s", w);
        return;
    }
    put(b, "'");
    for (const char *p = w; *p; p++) {
        if (*p == '\'') put(b, "'\\''");
        else if ((unsigned char)*p < 0x20 || *p == 0x7f) put(b, "?");
        else put(b, "%c", *p);
    }
    put(b, "'");
}

int manifest_build_begin(manifest_t *m, int argc, char *const *argv)
{
    int id = 1;
    for (int i = 0; i < m->nbuild; i++)
        if (m->build[i].id >= id) id = m->build[i].id + 1;
    manifest_build_t *e = grow((void **)&m->build, &m->nbuild, sizeof *e);
    if (!e) return -1;
    e->id = id;
    snprintf(e->version, sizeof e->version, "%s", manifest_gsw_version());
    snprintf(e->commit, sizeof e->commit, "%s", manifest_gsw_commit());
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    e->cores = cores > 0 ? (int)cores : 1;
    sbuf_t b = {0};
    for (int i = 0; i < argc; i++) {
        if (i) put(&b, " ");
        quote(&b, argv[i]);
    }
    const char *cmd = b.s && !b.bad && b.n ? b.s : "(unknown)";
    size_t k = strlen(cmd);
    if (k >= sizeof e->command) k = sizeof e->command - 1;   /* cut, still one line */
    memcpy(e->command, cmd, k);
    e->command[k] = 0;
    free(b.s);
    return id;
}

void manifest_build_done(manifest_t *m, int build, double seconds)
{
    manifest_build_t *e = build_of(m, build);
    if (e) e->seconds = seconds >= 0 && seconds <= 1e9 ? round(seconds * 1000) / 1000 + 0.0 : 0;
}

static void forget_inputs(manifest_t *m, const char *name)
{
    int k = 0;
    for (int i = 0; i < m->ninput; i++)
        if (strcmp(m->input[i].name, name)) m->input[k++] = m->input[i];
    m->ninput = k;
}

int manifest_set_file(manifest_t *m, int build, const char *name, const char *sha256, uint64_t positions)
{
    if (strlen(name) >= sizeof m->file->name || !is_name(name) || !is_hex64(sha256)) return GSW_EINPUT;
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f) return GSW_EINPUT;   /* (a line's words are split at spaces) */
    manifest_file_t *e = (manifest_file_t *)manifest_find(m, name);
    int had = e != NULL;
    if (!e && !(e = grow((void **)&m->file, &m->nfile, sizeof *e))) return GSW_EFAIL;
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->sha256, sizeof e->sha256, "%s", sha256);
    e->bytes = MANIFEST_NO_BYTES;
    e->positions = positions;
    e->build = build;
    if (!had && m->hash && m->hfiles == m->nfile - 1 && 2 * m->nfile + 16 <= m->hcap)
        hash_put(m, m->nfile - 1), m->hfiles++;   /* (else the next find rebuilds the index) */
    if (had) forget_inputs(m, name);
    return GSW_OK;
}

int manifest_add_input(manifest_t *m, const char *name, const char *input, const char *sha256)
{
    if (strlen(name) >= sizeof m->input->name || strlen(input) >= sizeof m->input->input ||
        !is_path(input, 1) || !is_hex64(sha256))
        return GSW_EINPUT;
    for (const char *p = input; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f) return GSW_EINPUT;
    manifest_input_t *e = NULL;   /* the same input again: replaced (looked for among the last file's, at the
                                     end as manifest_set_file leaves them; format() drops any other twin) */
    for (int i = m->ninput - 1; i >= 0 && !e && !strcmp(m->input[i].name, name); i--)
        if (!strcmp(m->input[i].input, input)) e = &m->input[i];
    if (!e && !(e = grow((void **)&m->input, &m->ninput, sizeof *e))) return GSW_EFAIL;
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->input, sizeof e->input, "%s", input);
    snprintf(e->sha256, sizeof e->sha256, "%s", sha256);
    return GSW_OK;
}

int manifest_remove_file(manifest_t *m, const char *name)
{
    int k = 0, gone = 0;
    for (int i = 0; i < m->nfile; i++)
        if (strcmp(m->file[i].name, name)) m->file[k++] = m->file[i];
        else gone = 1;
    m->nfile = k;
    m->hfiles = -1;
    forget_inputs(m, name);
    return gone;
}

void manifest_prune(manifest_t *m)
{
    int k = 0;
    for (int i = 0; i < m->nbuild; i++) {
        int used = 0;
        for (int j = 0; j < m->nfile && !used; j++) used = m->file[j].build == m->build[i].id;
        if (used) m->build[k++] = m->build[i];
    }
    m->nbuild = k;
    k = 0;
    for (int i = 0; i < m->ninput; i++)
        if (manifest_find(m, m->input[i].name)) m->input[k++] = m->input[i];
    m->ninput = k;
}

int manifest_record_file(manifest_t *m, int build, const char *dir, const char *name, uint64_t positions, err_t *err)
{
    char path[1200], hex[MANIFEST_SHA_HEX];
    join(path, sizeof path, dir, name);
    struct stat st;
    if (stat(path, &st)) return err_set(err, GSW_EFAIL, "cannot read %s: %s", path, strerror(errno));
    if (manifest_sha256_file(path, hex, err)) return err->code;
    if (manifest_set_file(m, build, name, hex, positions))
        return err_set(err, GSW_EFAIL, "cannot record %s in the manifest (a name too long or with spaces, or out of "
                       "memory)", path);
    ((manifest_file_t *)manifest_find(m, name))->bytes = (uint64_t)st.st_size;
    return GSW_OK;
}

typedef struct record_one {
    const char *dir, *name;
    int argc;
    char *const *argv;
    uint64_t positions;
} record_one_t;

static int record_one(void *ctx, manifest_t *m, err_t *err)
{
    const record_one_t *r = ctx;
    int build = manifest_build_begin(m, r->argc, r->argv);
    if (build < 0) return err_set(err, GSW_EFAIL, "out of memory");
    int rc = manifest_record_file(m, build, r->dir, r->name, r->positions, err);
    if (!rc) manifest_prune(m);
    return rc;
}

int manifest_record_path(const char *path, int argc, char *const *argv, uint64_t positions, err_t *err)
{
    char dir[1200];
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    record_one_t r = { dir, name, argc, argv, positions };
    return manifest_update(dir, record_one, &r, err);
}

/* ---- checking ---- */

int manifest_check_size(const char *dir, const manifest_t *m, const char *name, err_t *err)
{
    const manifest_file_t *e = manifest_find(m, name);
    if (!e) return err_set(err, GSW_EFAIL, "%s/%s is not in the folder's %s", dir, name, MANIFEST_NAME);
    char path[1200];
    join(path, sizeof path, dir, name);
    struct stat st;
    if (stat(path, &st)) return err_set(err, GSW_EFAIL, "%s is missing: %s", path, strerror(errno));
    if (e->bytes != MANIFEST_NO_BYTES && (uint64_t)st.st_size != e->bytes)
        return err_set(err, GSW_EFAIL, "%s differs from the folder's %s (%lld bytes, %" PRIu64 " listed)", path,
                       MANIFEST_NAME, (long long)st.st_size, e->bytes);
    return GSW_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int manifest_verify(const char *dir, const manifest_t *m, int (*want)(const char *name),
                    void (*report)(void *ctx, const char *name, int status), void *ctx, err_t *err)
{
    int bad = 0;
    for (int i = 0; i < m->nfile; i++) {
        const manifest_file_t *e = &m->file[i];
        char path[1200], hex[MANIFEST_SHA_HEX];
        join(path, sizeof path, dir, e->name);
        struct stat st;
        int status = MANIFEST_OK;
        if (stat(path, &st)) status = MANIFEST_MISSING;
        else if (e->bytes != MANIFEST_NO_BYTES && (uint64_t)st.st_size != e->bytes) status = MANIFEST_DIFFERS;
        else if (manifest_sha256_file(path, hex, err)) return -1;
        else if (strcmp(hex, e->sha256)) status = MANIFEST_DIFFERS;
        bad += status != MANIFEST_OK;
        if (report) report(ctx, e->name, status);
    }
    DIR *d = opendir(dir);
    if (!d) {
        err_set(err, GSW_EFAIL, "cannot read the folder %s: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *x = de->d_name;
        if (x[0] == '.' || !strcmp(x, MANIFEST_NAME) || !strcmp(x, MANIFEST_NAME ".tmp")) continue;
        if ((want && !want(x)) || manifest_find(m, x)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **t = realloc(names, cap * sizeof *names);
            if (!t) break;
            names = t;
        }
        if (!(names[n] = strdup(x))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);   /* a stable report, whatever readdir's order */
    for (size_t i = 0; i < n; i++) {
        if (report) report(ctx, names[i], MANIFEST_UNLISTED);
        free(names[i]);
    }
    free(names);
    return bad + (int)n;
}

const char *manifest_status_name(int status)
{
    switch (status) {
    case MANIFEST_OK: return "ok";
    case MANIFEST_DIFFERS: return "differs from the manifest";
    case MANIFEST_MISSING: return "missing";
    default: return "not in the manifest";
    }
}

/* ---- SHA-256 ---- */

static void to_hex(const unsigned char *d, char hex[MANIFEST_SHA_HEX])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) hex[2 * i] = digits[d[i] >> 4], hex[2 * i + 1] = digits[d[i] & 15];
    hex[64] = 0;
}

int manifest_sha256_file(const char *path, char hex[MANIFEST_SHA_HEX], err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EFAIL, "cannot read %s: %s", path, strerror(errno));
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    unsigned char *buf = malloc(1 << 20);
    int ok = c && buf && EVP_DigestInit_ex(c, EVP_sha256(), NULL) == 1;
    size_t k;
    while (ok && (k = fread(buf, 1, 1 << 20, f)) > 0) ok = EVP_DigestUpdate(c, buf, k) == 1;
    int rerr = ferror(f);
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dn = 0;
    if (ok && !rerr) ok = EVP_DigestFinal_ex(c, d, &dn) == 1 && dn == 32;
    fclose(f);
    free(buf);
    EVP_MD_CTX_free(c);
    if (!ok || rerr)
        return err_set(err, GSW_EFAIL, "cannot hash %s: %s", path, rerr ? "read error" : "SHA-256 failed");
    to_hex(d, hex);
    return GSW_OK;
}

void manifest_sha256(const void *data, size_t n, char hex[MANIFEST_SHA_HEX])
{
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dn = 0;
    if (EVP_Digest(data, n, d, &dn, EVP_sha256(), NULL) != 1 || dn != 32) memset(d, 0, sizeof d);
    to_hex(d, hex);
}

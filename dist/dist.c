/* The transport between gsw's ranks (see dist.h): Open MPI's point-to-point
 * messages, sized by a probe first, and the start-up checks. Without
 * GSW_MPI every entry fails with one line saying how to get it. */
#include "dist/dist.h"

#include "db/cache_path.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dist_built(void)
{
#ifdef GSW_MPI
    return 1;
#else
    return 0;
#endif
}

static int dist_err_fd = -1;   /* a worker's real stderr (dist_quiet_worker) */

/* This process's rank by the launcher's environment, -1 outside mpirun. */
static int dist_env_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = getenv("PMIX_RANK");
    return r ? atoi(r) : -1;
}

void dist_quiet_worker(void)
{
    if (dist_env_rank() <= 0 || dist_err_fd >= 0) return;
    int nul = open("/dev/null", O_WRONLY);
    if (nul < 0) return;
    fflush(stderr);
    dist_err_fd = dup(2);
    dup2(nul, 2);
    close(nul);
}

void dist_say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    dprintf(dist_err_fd >= 0 ? dist_err_fd : 2, "gsw (rank %d): %s\n", dist_env_rank(), line);
}

#ifndef GSW_MPI

int dist_start(int *argc, char ***argv, dist_t **out, err_t *err)
{
    (void)argc;
    (void)argv;
    *out = NULL;
    return err_set(err, GSW_EINPUT, "--mpi: this gsw was built without Open MPI (install libopenmpi-dev and build "
                                    "with cmake -DGSW_MPI=ON)");
}
int dist_rank(const dist_t *d) { (void)d; return 0; }
int dist_size(const dist_t *d) { (void)d; return 1; }
int dist_check_dir(dist_t *d, const char *dir, err_t *err) { (void)d; (void)dir; (void)err; return GSW_OK; }
int dist_bcast(dist_t *d, void *buf, size_t n, err_t *err)
{
    (void)d; (void)buf; (void)n;
    return err_set(err, GSW_EFAIL, "built without Open MPI");
}
void dist_stop_workers(dist_t *d) { (void)d; }
int dist_worker_parts(dist_t *d, egdb_parts_t *out)
{
    (void)d;
    memset(out, 0, sizeof *out);
    return -1;
}
int dist_send(dist_t *d, int to, int tag, const void *buf, size_t n, err_t *err)
{
    (void)d; (void)to; (void)tag; (void)buf; (void)n;
    return err_set(err, GSW_EFAIL, "built without Open MPI");
}
int dist_recv(dist_t *d, int from, int *src, int *tag, void **buf, size_t *n, err_t *err)
{
    (void)d; (void)from; (void)src; (void)tag; (void)buf; (void)n;
    return err_set(err, GSW_EFAIL, "built without Open MPI");
}
void dist_end(dist_t *d) { (void)d; }

#else

#include <mpi.h>

struct dist {
    int rank, size;
    MPI_Comm workers;          /* ranks 1..size-1 (MPI_COMM_NULL on rank 0): the parts of divided units */
};

/* FNV-1a over the running binary: the same build on every rank. */
static uint64_t dist_binary_hash(void)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    uint64_t h = 0xcbf29ce484222325ull;
    if (!f) return 0;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
    fclose(f);
    return h;
}

int dist_start(int *argc, char ***argv, dist_t **out, err_t *err)
{
    *out = NULL;
    /* mpirun (Open MPI's, or another PMIx launcher) sets these for every rank */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_RANK"))
        return err_set(err, GSW_EINPUT, "--mpi: not started by mpirun (run mpirun -np N gsw ... --mpi, "
                                        "or leave out --mpi)");
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited && MPI_Init(argc, argv) != MPI_SUCCESS) return err_set(err, GSW_EFAIL, "--mpi: MPI_Init failed");
    dist_t *d = calloc(1, sizeof *d);
    if (!d) return err_set(err, GSW_EFAIL, "out of memory");
    MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->size);
    d->workers = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, d->rank == 0 ? MPI_UNDEFINED : 1, d->rank, &d->workers);
    *out = d;
    uint64_t mine = dist_binary_hash();
    uint64_t *all = malloc((size_t)d->size * sizeof *all);
    if (!all) return err_set(err, GSW_EFAIL, "out of memory");
    MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    int other = -1;
    for (int r = 1; r < d->size && other < 0; r++)
        if (all[r] != all[0] || !all[r]) other = r;
    free(all);
    if (other >= 0) {
        err->code = GSW_EFAIL;
        err->msg[0] = 0;
        if (d->rank == 0)
            err_set(err, GSW_EFAIL, "--mpi: rank %d runs another gsw binary than rank 0: every rank must run "
                                    "the same build", other);
        return GSW_EFAIL;
    }
    return GSW_OK;
}

int dist_rank(const dist_t *d) { return d ? d->rank : 0; }
int dist_size(const dist_t *d) { return d ? d->size : 1; }

int dist_check_dir(dist_t *d, const char *dir, err_t *err)
{
    char name[1200], token[64] = "";
    int ok = 1;
    err_t mk;
    if (d->rank == 0 && cache_mkdir_p(dir, "database folder", &mk)) ok = 0;
    if (d->rank == 0 && ok) {
        snprintf(token, sizeof token, "gsw-mpi %ld %ld", (long)getpid(), (long)time(NULL));
        snprintf(name, sizeof name, "%s/.gsw-mpi-%ld", dir, (long)getpid());
        FILE *f = fopen(name, "w");
        ok = f && fputs(token, f) >= 0;
        if (f && fclose(f)) ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        err->msg[0] = 0;
        err->code = GSW_EFAIL;
        if (d->rank == 0) err_set(err, GSW_EFAIL, "--mpi: cannot write a file in %s", dir);
        return GSW_EFAIL;
    }
    MPI_Bcast(token, sizeof token, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (d->rank != 0) {   /* the same path, under this rank's own --dir */
        const char *base = strrchr(name, '/');
        char mine[1200], got[64] = "";
        snprintf(mine, sizeof mine, "%s%s", dir, base ? base : "/");
        FILE *f = fopen(mine, "r");
        ok = f && fgets(got, sizeof got, f) && !strcmp(got, token);
        if (f) fclose(f);
    }
    int bad = ok ? -1 : d->rank, first = -1;
    MPI_Allreduce(&bad, &first, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (d->rank == 0) remove(name);
    if (first >= 0) {
        err->msg[0] = 0;
        err->code = GSW_EFAIL;
        if (d->rank == 0)
            err_set(err, GSW_EFAIL, "--mpi: rank %d cannot see %s (rank 0 wrote a file there): --dir must be "
                                    "a folder every rank sees", first, dir);
        return GSW_EFAIL;
    }
    return GSW_OK;
}

int dist_bcast(dist_t *d, void *buf, size_t n, err_t *err)
{
    (void)d;
    if (n > INT32_MAX) return err_set(err, GSW_EFAIL, "a message of %zu bytes", n);
    if (MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return err_set(err, GSW_EFAIL, "--mpi: a broadcast failed");
    return GSW_OK;
}

void dist_stop_workers(dist_t *d)
{
    err_t e;
    for (int r = 1; r < d->size; r++) dist_send(d, r, DIST_TAG_STOP, "", 0, &e);
}

int dist_send(dist_t *d, int to, int tag, const void *buf, size_t n, err_t *err)
{
    (void)d;
    if (n > INT32_MAX) return err_set(err, GSW_EFAIL, "a message of %zu bytes", n);
    if (MPI_Send(buf, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD) != MPI_SUCCESS)
        return err_set(err, GSW_EFAIL, "--mpi: sending to rank %d failed", to);
    return GSW_OK;
}

int dist_recv(dist_t *d, int from, int *src, int *tag, void **buf, size_t *n, err_t *err)
{
    (void)d;
    MPI_Status st;
    /* wait without spinning: MPI_Probe polls at full speed, and a manager that mostly waits would take
       a core from the workers; sleeps from 10 us growing to 250 us cost a unit or a leaf that much
       latency at most (2 ms naps cost the 4-piece checkers build's 600 small units 1.6 s in all) */
    long nap = 10000;
    for (;;) {
        int flag = 0;
        if (MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
            return err_set(err, GSW_EFAIL, "--mpi: receiving failed");
        if (flag) break;
        struct timespec ts = { 0, nap };
        nanosleep(&ts, NULL);
        if (nap < 250000) nap += nap / 4;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    void *b = malloc(count > 0 ? (size_t)count : 1);
    if (!b) return err_set(err, GSW_EFAIL, "out of memory");
    if (MPI_Recv(b, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        free(b);
        return err_set(err, GSW_EFAIL, "--mpi: receiving from rank %d failed", st.MPI_SOURCE);
    }
    *src = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    *buf = b;
    *n = (size_t)count;
    return GSW_OK;
}

/* --- the workers as the parts of a divided unit ------------------------ */

enum { DIST_PART_TAG = 7 };
#define DIST_PIECE ((uint64_t)1 << 30)   /* (a message of at most 1 GiB; larger ones go in pieces) */

static int parts_exchange(void *ctx, void *const *send, const size_t *ns, void **recv, size_t *rcount, int *failed,
                          err_t *err)
{
    dist_t *d = ctx;
    int P = d->size - 1, me = d->rank - 1, f = *failed, any = 0;
    *recv = NULL;
    if (MPI_Allreduce(&f, &any, 1, MPI_INT, MPI_MAX, d->workers) != MPI_SUCCESS)
        return err_set(err, GSW_EFAIL, "--mpi: the parts of a divided unit could not meet");
    *failed = any;
    if (any) return GSW_OK;
    uint64_t *sc = malloc((size_t)P * sizeof *sc), *rc = malloc((size_t)P * sizeof *rc);
    if (!sc || !rc) {
        free(sc), free(rc);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    for (int p = 0; p < P; p++) sc[p] = ns[p];
    MPI_Alltoall(sc, 1, MPI_UINT64_T, rc, 1, MPI_UINT64_T, d->workers);
    size_t total = 0, nrq = 0;
    for (int p = 0; p < P; p++) {
        total += rcount[p] = (size_t)rc[p];
        nrq += (size_t)((sc[p] + DIST_PIECE - 1) / DIST_PIECE + (rc[p] + DIST_PIECE - 1) / DIST_PIECE);
    }
    char *b = malloc(total ? total : 1);
    MPI_Request *rq = malloc((nrq ? nrq : 1) * sizeof *rq);
    int bad = !b || !rq || sc[me] || rc[me], anybad = 1;   /* (nothing goes to oneself) */
    /* a part that cannot take part says so, and all leave together rather than wait for it */
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, d->workers);
    bad = anybad;
    int n = 0;
    size_t at = 0;
    for (int p = 0; !bad && p < P; at += rc[p], p++)   /* in pieces of at most 1 GiB */
        for (uint64_t k = 0; k < rc[p] || k < sc[p]; k += DIST_PIECE) {
            if (k < rc[p])
                MPI_Irecv(b + at + k, (int)(rc[p] - k < DIST_PIECE ? rc[p] - k : DIST_PIECE), MPI_BYTE, p, DIST_PART_TAG,
                          d->workers, &rq[n++]);
            if (k < sc[p])
                MPI_Isend((const char *)send[p] + k, (int)(sc[p] - k < DIST_PIECE ? sc[p] - k : DIST_PIECE), MPI_BYTE,
                          p, DIST_PART_TAG, d->workers, &rq[n++]);
        }
    int ok = !bad && MPI_Waitall(n, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    free(sc);
    free(rc);
    free(rq);
    if (!ok) {
        free(b);
        return err_set(err, GSW_EFAIL, "--mpi: an exchange between the parts of a divided unit failed%s",
                       bad ? " (one of them is out of memory)" : "");
    }
    *recv = b;
    return GSW_OK;
}

static int parts_max(void *ctx, int64_t *x, int k, err_t *err)
{
    dist_t *d = ctx;
    if (MPI_Allreduce(MPI_IN_PLACE, x, k, MPI_INT64_T, MPI_MAX, d->workers) != MPI_SUCCESS)
        return err_set(err, GSW_EFAIL, "--mpi: the parts of a divided unit could not meet");
    return GSW_OK;
}

static int parts_gather(void *ctx, const void *mine, const uint64_t *size, void *all, err_t *err)
{
    dist_t *d = ctx;
    int P = d->size - 1, me = d->rank - 1;
    if (me != 0) {
        for (uint64_t at = 0; at < size[me]; at += DIST_PIECE) {
            uint64_t k = size[me] - at < DIST_PIECE ? size[me] - at : DIST_PIECE;
            if (MPI_Send((const char *)mine + at, (int)k, MPI_BYTE, 0, DIST_PART_TAG, d->workers) != MPI_SUCCESS)
                return err_set(err, GSW_EFAIL, "--mpi: sending a part's values failed");
        }
        return GSW_OK;
    }
    char *b = all;
    if (mine != all) memcpy(b, mine, size[0]);
    uint64_t off = size[0];
    for (int p = 1; p < P; off += size[p], p++)
        for (uint64_t at = 0; at < size[p]; at += DIST_PIECE) {
            uint64_t k = size[p] - at < DIST_PIECE ? size[p] - at : DIST_PIECE;
            if (MPI_Recv(b + off + at, (int)k, MPI_BYTE, p, DIST_PART_TAG, d->workers, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                return err_set(err, GSW_EFAIL, "--mpi: receiving a part's values failed");
        }
    return GSW_OK;
}

int dist_worker_parts(dist_t *d, egdb_parts_t *out)
{
    memset(out, 0, sizeof *out);
    if (d->rank == 0 || d->workers == MPI_COMM_NULL) return -1;
    out->comm = (retro_comm_t){ .parts = d->size - 1, .me = d->rank - 1, .ctx = d, .exchange = parts_exchange,
                                .max = parts_max };
    out->gather = parts_gather;
    return 0;
}

void dist_end(dist_t *d)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (d && d->workers != MPI_COMM_NULL && init && !fin) MPI_Comm_free(&d->workers);
    if (init && !fin) MPI_Finalize();
    free(d);
}

#endif

/* A gsw tune run's record (db/tunelog.h): its generations' CSV files
 * written and read back, and its chart drawn as SVG and as text. */
#include "db/tunelog.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/dbfile.h"

static const char *const piece[TUNE_PIECES] = { "pawn", "knight", "bishop", "rook", "queen" };
static const char *const letter = "PNBRQ";

int tunelog_path(char *buf, size_t n, const char *dir, const char *name)
{
    return snprintf(buf, n, "%s/%s", dir, name) < (int)n ? 0 : -1;
}

static const char *csv_header =
    "generation,rank,id,origin,pawn,knight,bishop,rook,queen,raw_pawn,raw_knight,raw_bishop,raw_rook,raw_queen,"
    "games,wins,draws,losses,generation_games,generation_draws";

/* The ranked generation gen as DIR/gen-NNNN.csv: a row per individual, best first. */
int tunelog_write_gen(const char *dir, int gen, const evo_ind_t *pop, const int *order, int n, int games, int draws,
                     err_t *err)
{
    size_t cap = 256 + (size_t)n * 160, len = 0;
    char *buf = malloc(cap), path[1024], name[32];
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory");
    len += (size_t)snprintf(buf + len, cap - len, "%s\n", csv_header);
    for (int r = 0; r < n; r++) {
        const evo_ind_t *x = &pop[order[r]];
        len += (size_t)snprintf(buf + len, cap - len, "%d,%d,%llu,%c", gen, r + 1, (unsigned long long)x->id, x->origin);
        for (int a = 0; a < TUNE_PIECES; a++) len += (size_t)snprintf(buf + len, cap - len, ",%d", (int)lround(1000.0 * x->v[a] / x->v[0]));
        for (int a = 0; a < TUNE_PIECES; a++) len += (size_t)snprintf(buf + len, cap - len, ",%d", x->v[a]);
        len += (size_t)snprintf(buf + len, cap - len, ",%d,%d,%d,%d,%d,%d\n", x->games, x->wins, x->draws, x->losses,
                                games, draws);
    }
    snprintf(name, sizeof name, "gen-%04d.csv", gen);
    int rc = tunelog_path(path, sizeof path, dir, name) ? err_set(err, GSW_EINPUT, "%s: path too long", dir)
                                                   : db_write_atomic(path, buf, len, err);
    free(buf);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Read one generation's CSV into *g: 1, 0 when the file is missing, -1 on damage. */
static int read_csv(const char *dir, int gen, tune_gen_t *g, err_t *err)
{
    char path[1024], name[32], line[512];
    snprintf(name, sizeof name, "gen-%04d.csv", gen);
    if (tunelog_path(path, sizeof path, dir, name)) return err_set(err, GSW_EINPUT, "%s: path too long", dir), -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        return err_set(err, GSW_EINPUT, "cannot read %s (%s)", path, strerror(errno)), -1;
    }
    memset(g, 0, sizeof *g);
    g->gen = gen;
    double *vals = NULL;
    int rows = 0, lineno = 0, rc = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t ll = strlen(line);
        if (!ll || line[ll - 1] != '\n') { err_set(err, GSW_EINPUT, "%s line %d: too long or cut short", path, lineno); rc = -1; break; }
        line[--ll] = 0;
        if (lineno == 1) {
            if (strcmp(line, csv_header)) { err_set(err, GSW_EINPUT, "%s: not a gsw tune generation (its header)", path); rc = -1; break; }
            continue;
        }
        long f20[20];
        int k = 0;
        char *p = line, origin = 0;
        for (; k < 20; k++) {
            char *end;
            if (k == 3) {   /* the origin letter */
                origin = *p;
                end = p + (origin != 0);
            } else {
                errno = 0;
                f20[k] = strtol(p, &end, 10);
                if (end == p || errno || f20[k] < 0 || f20[k] > 100000000) break;
            }
            if (k < 19 && *end != ',') break;
            if (k == 19 && *end) break;
            p = end + 1;
        }
        if (k < 20 || !strchr("irkmc", origin ? origin : '?') || f20[0] != gen || f20[1] != rows + 1 ||
            f20[9] < 1) {
            err_set(err, GSW_EINPUT, "%s line %d: a malformed row", path, lineno);
            rc = -1;
            break;
        }
        double *nv = realloc(vals, (size_t)(rows + 1) * TUNE_PIECES * sizeof *vals);
        if (!nv) { err_set(err, GSW_EFAIL, "out of memory"); rc = -1; break; }
        vals = nv;
        for (int a = 0; a < TUNE_PIECES; a++) vals[rows * TUNE_PIECES + a] = 1000.0 * f20[9 + a] / f20[9];
        if (!rows) {
            for (int a = 0; a < TUNE_PIECES; a++) {
                g->elite[a] = 1000.0 * f20[9 + a] / f20[9];
                g->elite_raw[a] = (int)f20[9 + a];
            }
            g->games = (int)f20[18];
            g->draws = (int)f20[19];
        }
        rows++;
    }
    fclose(f);
    if (rc == 1 && rows == 0) rc = -1, err_set(err, GSW_EINPUT, "%s: no rows", path);
    if (rc == 1) {
        double *col = malloc((size_t)rows * sizeof *col);
        if (!col) rc = -1, err_set(err, GSW_EFAIL, "out of memory");
        for (int a = 0; col && a < TUNE_PIECES; a++) {
            for (int r = 0; r < rows; r++) col[r] = vals[r * TUNE_PIECES + a];
            qsort(col, (size_t)rows, sizeof *col, cmp_double);
            g->median[a] = rows % 2 ? col[rows / 2] : (col[rows / 2 - 1] + col[rows / 2]) / 2;
        }
        free(col);
        g->n = rows;
    }
    free(vals);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int tune_history(const char *dir, tune_gen_t **h, int *n, err_t *err)
{
    *h = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return err_set(err, GSW_EINPUT, "no gsw tune run in %s (%s)", dir, strerror(errno));
    int *gens = NULL, ng = 0, rc = GSW_OK;
    struct dirent *de;
    while ((de = readdir(d))) {   /* gen-NNNN.csv, by number */
        char name[32];
        int g = 0;
        if (strncmp(de->d_name, "gen-", 4) || sscanf(de->d_name + 4, "%7d", &g) != 1 || g < 1) continue;
        snprintf(name, sizeof name, "gen-%04d.csv", g);
        if (strcmp(name, de->d_name)) continue;
        int *ngs = realloc(gens, (size_t)(ng + 1) * sizeof *gens);
        if (!ngs) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
        gens = ngs;
        gens[ng++] = g;
    }
    closedir(d);
    if (!rc && !ng) rc = err_set(err, GSW_EINPUT, "no gsw tune run in %s (no gen-0001.csv)", dir);
    if (!rc && !(*h = malloc((size_t)ng * sizeof **h))) rc = err_set(err, GSW_EFAIL, "out of memory");
    if (!rc) qsort(gens, (size_t)ng, sizeof *gens, cmp_int);
    for (int i = 0; !rc && i < ng; i++) {
        int r = read_csv(dir, gens[i], &(*h)[*n], err);
        if (r < 0) rc = err->code;
        else if (r > 0) ++*n;   /* (one removed meanwhile is left out) */
    }
    if (!rc && !*n) rc = err_set(err, GSW_EINPUT, "no gsw tune run in %s (no gen-0001.csv)", dir);
    free(gens);
    if (rc) { free(*h); *h = NULL; *n = 0; }
    return rc;
}

/* A round scale top over v: 1, 2 or 5 times a power of ten, in thousands at least. */
static double nice_top(double v)
{
    double p = 1000;
    while (p * 10 < v) p *= 10;
    for (;;) {
        if (v <= p) return p;
        if (v <= 2 * p) return 2 * p;
        if (v <= 5 * p) return 5 * p;
        p *= 10;
    }
}

static double hist_top(const tune_gen_t *h, int n)
{
    double top = 1000;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < TUNE_PIECES; a++) {
            if (h[i].elite[a] > top) top = h[i].elite[a];
            if (h[i].median[a] > top) top = h[i].median[a];
        }
    return nice_top(top);
}

/* The chart as SVG, by hand: elite (solid) and median (dashed) by generation. */
int tunelog_write_svg(const char *dir, const tune_gen_t *h, int n, err_t *err)
{
    static const char *const colour[TUNE_PIECES] = { "#888888", "#1f77b4", "#2ca02c", "#ff7f0e", "#d62728" };
    const double W = 820, H = 500, L = 70, R = 150, T = 40, B = 50, pw = W - L - R, ph = H - T - B;
    double top = hist_top(h, n);
    size_t cap = 8192 + (size_t)n * 600, len = 0;
    char *s = malloc(cap), path[1024];
    if (!s) return err_set(err, GSW_EFAIL, "out of memory");
#define OUT(...) (len += (size_t)snprintf(s + len, len < cap ? cap - len : 0, __VA_ARGS__))
    OUT("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    OUT("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
    OUT("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    OUT("<text x=\"%.0f\" y=\"22\" font-size=\"15\">gsw tune chess: piece values (pawn = 1000) by generation"
        "</text>\n", L);
    for (int i = 0; i <= 5; i++) {   /* the value axis */
        double y = T + ph - ph * i / 5, val = top * i / 5;
        OUT("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", L, y, L + pw, y);
        OUT("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", L - 6, y + 4, val);
    }
    int step = n <= 10 ? 1 : n <= 25 ? 5 : n <= 100 ? 10 : n <= 500 ? 50 : 100;
#define GX(i) (n > 1 ? L + pw * (h[i].gen - h[0].gen) / (h[n - 1].gen - h[0].gen) : L + pw / 2)
#define GY(v) (T + ph - ph * ((v) > top ? top : (v)) / top)
    for (int i = 0; i < n; i++)   /* the generation axis */
        if (h[i].gen % step == 0 || i == 0)
            OUT("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", GX(i), T + ph + 18, h[i].gen);
    OUT("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">generation</text>\n", L + pw / 2, H - 10);
    OUT("<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n", L, T, pw, ph);
    for (int a = 0; a < TUNE_PIECES; a++)
        for (int m = 0; m < 2; m++) {
            OUT("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", colour[a], m ? "1.2" : "2.2",
                m ? " stroke-dasharray=\"5,4\"" : "");
            for (int i = 0; i < n; i++) OUT("%s%.1f,%.1f", i ? " " : "", GX(i), GY(m ? h[i].median[a] : h[i].elite[a]));
            OUT("\"/>\n");
            if (n == 1) OUT("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", GX(0), GY(h[0].elite[a]), colour[a]);
        }
    for (int a = 0; a < TUNE_PIECES; a++) {   /* the legend, with the last elite value */
        double y = T + 16 + 20 * a;
        OUT("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2.2\"/>\n", L + pw + 12, y,
            L + pw + 34, y, colour[a]);
        OUT("<text x=\"%.0f\" y=\"%.0f\">%s %.0f</text>\n", L + pw + 40, y + 4, piece[a], h[n - 1].elite[a]);
    }
    OUT("<text x=\"%.0f\" y=\"%.0f\">solid: elite (rank 1)</text>\n", L + pw + 12, T + 130);
    OUT("<text x=\"%.0f\" y=\"%.0f\">dashed: median</text>\n", L + pw + 12, T + 148);
    OUT("</svg>\n");
#undef OUT
#undef GX
#undef GY
    int rc = len >= cap ? err_set(err, GSW_EFAIL, "the chart outgrew its buffer")
           : tunelog_path(path, sizeof path, dir, TUNE_SVG) ? err_set(err, GSW_EINPUT, "%s: path too long", dir)
           : db_write_atomic(path, s, len, err);
    free(s);
    return rc;
}

int tune_chart_text(const char *dir, int width, int height, char **text, err_t *err)
{
    tune_gen_t *h;
    int n;
    *text = NULL;
    if (width < 10) width = 10;
    if (height < 4) height = 4;
    if (tune_history(dir, &h, &n, err)) return err->code;
    double top = 1000;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < TUNE_PIECES; a++)
            if (h[i].elite[a] > top) top = h[i].elite[a];
    top = nice_top(top);
    char *grid = malloc((size_t)width * height);
    size_t cap = (size_t)(width + 16) * (height + 12) + 1024, len = 0;
    char *s = malloc(cap);
    if (!grid || !s) { free(grid); free(s); free(h); return err_set(err, GSW_EFAIL, "out of memory"); }
    memset(grid, ' ', (size_t)width * height);
    for (int i = 0; i < n; i++) {
        int x = n > 1 ? (int)lround((double)(h[i].gen - h[0].gen) * (width - 1) / (h[n - 1].gen - h[0].gen)) : 0;
        for (int a = 0; a < TUNE_PIECES; a++) {
            double v = h[i].elite[a] > top ? top : h[i].elite[a];
            int y = height - 1 - (int)lround(v / top * (height - 1));
            char *c = &grid[y * width + x];
            *c = *c == ' ' || *c == letter[a] ? letter[a] : '*';
        }
    }
#define OUT(...) (len += (size_t)snprintf(s + len, len < cap ? cap - len : 0, __VA_ARGS__))
    OUT("%s: %d generation%s, population %d; elite (rank 1) values, pawn = 1000\n", dir, n, n > 1 ? "s" : "", h[n - 1].n);
    for (int y = 0; y < height; y++) {
        double val = top * (height - 1 - y) / (height - 1);
        int label = (height - 1 - y) * 4 % (height - 1) == 0;   /* quarters, where rows fall on them */
        if (label) OUT("%6.0f |", val);
        else OUT("%6s |", "");
        int w = width;
        while (w > 0 && grid[(size_t)y * width + w - 1] == ' ') w--;
        OUT("%.*s\n", w, grid + (size_t)y * width);
    }
    OUT("%6s +", "");
    for (int x = 0; x < width; x++) OUT("-");
    if (n > 1) OUT("\n%6s  %-*d%d (generation)\n", "", width - 1, h[0].gen, h[n - 1].gen);
    else OUT("\n%6s  %d (generation)\n", "", h[0].gen);
    OUT("P pawn  N knight  B bishop  R rook  Q queen  (* where two meet)\n");
    const tune_gen_t *g = &h[n - 1];
    OUT("generation %d: elite N %.0f B %.0f R %.0f Q %.0f\n", g->gen, g->elite[1], g->elite[2], g->elite[3], g->elite[4]);
    OUT("  median N %.0f B %.0f R %.0f Q %.0f; %d games, %d draws\n", g->median[1], g->median[2], g->median[3],
        g->median[4], g->games, g->draws);
#undef OUT
    free(grid);
    free(h);
    if (len >= cap) { free(s); return err_set(err, GSW_EFAIL, "the chart outgrew its buffer"); }
    *text = s;
    return GSW_OK;
}


/* A genetic algorithm over integer vectors whose fitness is a ranking by a
 * quick-tournament: a random pivot plays every other individual of its
 * group (the pivot as the second player), the group splits into those who
 * beat it and the rest, and each part recurses, as quicksort does (about
 * N log N games a generation). Then parents by rank, crossover of 2-4
 * parents, Gaussian mutation, and the survivors' rules. Game-independent:
 * a callback plays one game between two individuals (gsw tune chess in
 * protocol/tune_cmd.c). Every random choice comes from a seed: the tournament's
 * from (seed, generation, pairing), breeding from a saved generator, so a
 * run is the same on any number of threads and after a resume. */
#ifndef GSW_EVOLVE_H
#define GSW_EVOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define EVO_MAX_ALLELES 8
#define EVO_MAX_POP 1000
#define EVO_MAX_META 16

/* ---- random numbers: xoshiro256**, seeded by splitmix64 ---- */

typedef struct evo_rng {
    uint64_t s[4];
} evo_rng_t;
void evo_rng_seed(evo_rng_t *r, uint64_t seed);
uint64_t evo_rng_next(evo_rng_t *r);
/* Uniform in [0, 1). */
double evo_rng_unit(evo_rng_t *r);
/* Uniform in [0, n) (n >= 1), without modulo bias. */
uint64_t evo_rng_below(evo_rng_t *r, uint64_t n);
/* Standard normal (Box-Muller). */
double evo_rng_gauss(evo_rng_t *r);
/* A seed derived from a and b (splitmix64 of their mix): chains name a
 * game by (seed, generation, pairing). */
uint64_t evo_mix(uint64_t a, uint64_t b);

/* ---- the algorithm's parameters ---- */

typedef struct evo_config {
    int n;                     /* population, 2..EVO_MAX_POP */
    int alleles;               /* values per individual, 1..EVO_MAX_ALLELES */
    int init_lo, init_hi;      /* new random individuals: uniform in [init_lo, init_hi] */
    int lo, hi;                /* every value stays in [lo, hi] (lo >= 1) */
    double sigma;              /* mutation: Gaussian of this deviation ... */
    double p_mutate;           /* ... added to each value with this probability */
    double p_inherit;          /* crossover: a value from one random parent (else their mean) */
    int min_parents, max_parents;
    double frac_bottom;        /* replaced by random individuals */
    double frac_top;           /* kept */
    double p_keep, p_mutant;   /* the middle: kept, a mutant of itself, else a child */
} evo_config_t;

/* The study's parameters: values from 800 to 17000 (kept in 1..17000),
 * sigma 400 with probability 0.4, a parent's value with probability 2/3
 * (else the mean), 2-4 parents, bottom 20% new, top 20% kept, the middle
 * kept 20% / mutant 40% / child 40%. */
void evo_config_default(evo_config_t *c, int n, int alleles);
/* How many individuals are the bottom and the top: round(frac * n). */
int evo_bottom(const evo_config_t *c);
int evo_top(const evo_config_t *c);

/* ---- individuals ---- */

typedef struct evo_ind {
    int v[EVO_MAX_ALLELES];
    uint64_t id;               /* unique within a run */
    char origin;               /* 'i' initial, 'r' random newcomer, 'k' kept, 'm' mutant, 'c' child */
    /* this generation's tournament */
    int rank;                  /* 1 = best */
    int games, wins, draws, losses;
} evo_ind_t;

/* ---- the quick-tournament ---- */

/* Play one game, white against black (the tournament's pivot is always
 * black), varied by seed; worker: 0..threads-1, the calling thread's own
 * slot (its own search tables). Returns +1 (white won), 0 (a draw), -1
 * (black won), or EVO_STOPPED to abandon the generation. Called from
 * several threads at once. */
#define EVO_STOPPED 2
typedef int (*evo_game_fn)(void *ctx, int worker, const evo_ind_t *white, const evo_ind_t *black, uint64_t seed);

/* One game of a round, as a farm gets it: the two individuals (copies),
 * the game's seed; result (out) as play returns it. */
typedef struct evo_game {
    evo_ind_t white, black;
    uint64_t seed;
    int result;
} evo_game_t;

typedef struct evo_hooks {
    evo_game_fn play;
    void *ctx;
    /* (non-NULL) every game of a round played elsewhere (dist/: other
     * processes, each game by play there): results filled in; 0, or -1
     * when stopped. play and threads are then not used here. */
    int (*farm)(void *farm_ctx, evo_game_t *games, int n);
    void *farm_ctx;
    int threads;               /* games at once (>= 1) */
    gsw_flag_t *stop;        /* polled between games; NULL: none */
    /* after each game (from the thread that played it, under a lock) */
    void (*progress)(void *ctx, int generation, int games_done);
} evo_hooks_t;

/* Rank pop[0..n-1] by the quick-tournament of generation gen: order[r] is
 * the slot of the individual ranked r + 1; pop[i].rank and its game counts
 * are set; *games and *draws count the generation's games. The pivots
 * come from (seed, gen), each game's seed from (seed, gen, white slot,
 * black slot), so the result does not depend on threads (a thread that
 * cannot start leaves its share to the others). GSW_OK, or GSW_EFAIL when
 * stopped (a game returned EVO_STOPPED, or *stop was set) or out of memory. */
int evo_rank(evo_ind_t *pop, int n, uint64_t seed, int gen, const evo_hooks_t *h, int *order, int *games,
             int *draws, err_t *err);

/* ---- variation ---- */

/* A random individual: every value uniform in [init_lo, init_hi]. */
void evo_random(const evo_config_t *c, evo_rng_t *r, evo_ind_t *out);
/* Add N(0, sigma) (rounded) to each value with probability p_mutate,
 * then clamp to [lo, hi]. Returns how many values were drawn to change. */
int evo_mutate(const evo_config_t *c, evo_rng_t *r, evo_ind_t *x);
/* A child of k parents: each value that of a random parent with
 * probability p_inherit, else the parents' mean (rounded), clamped. */
void evo_crossover(const evo_config_t *c, evo_rng_t *r, const evo_ind_t *const *parents, int k, evo_ind_t *out);
/* A parent's place in the ranking (0 = best): probability proportional to
 * n - place, the bottom evo_bottom() never. */
int evo_select(const evo_config_t *c, evo_rng_t *r);
/* A child of min..max_parents distinct parents chosen by evo_select from
 * the ranking (order as evo_rank gives it). Returns the number of parents. */
int evo_child(const evo_config_t *c, evo_rng_t *r, const evo_ind_t *pop, const int *order, evo_ind_t *out);

/* ---- a run ---- */

typedef struct evo {
    evo_config_t cfg;
    uint64_t seed;
    int generation;            /* generations finished */
    uint64_t next_id;
    evo_rng_t rng;             /* breeding */
    evo_ind_t pop[EVO_MAX_POP];   /* the population to rank next (cfg.n of them) */
    evo_ind_t prev[EVO_MAX_POP];  /* evo_breed's scratch: the ranked generation it bred from */
    int nmeta;                 /* the caller's settings, kept in the state file */
    char meta_key[EVO_MAX_META][32];
    char meta_val[EVO_MAX_META][128];
} evo_t;

/* A new run: generation 0, a random population drawn from seed. */
void evo_start(evo_t *e, const evo_config_t *c, uint64_t seed);
/* The next population from the ranked one (order from evo_rank): the top
 * kept, the bottom replaced by random newcomers, each of the middle kept,
 * mutated or replaced by a child. Counts generation on by one. */
void evo_breed(evo_t *e, const int *order);
/* A setting kept with the run: set (replace) and get (NULL: none). */
int evo_meta_set(evo_t *e, const char *key, const char *val, err_t *err);
const char *evo_meta_get(const evo_t *e, const char *key);

/* The state as text (everything a resume needs), ending with a checksum
 * line. Returns the length it needs (write when n is enough, like
 * snprintf). */
size_t evo_state_format(const evo_t *e, char *buf, size_t n);
/* Read a state written by evo_state_format. GSW_OK, or GSW_EINPUT naming
 * the line and what is wrong (truncated, a bad value, a checksum that does
 * not match). flags: EVO_PARSE_NO_SUM skips the checksum (fuzzing). */
#define EVO_PARSE_NO_SUM 1
int evo_state_parse(const char *text, size_t len, evo_t *e, int flags, err_t *err);

#endif

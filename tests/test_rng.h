/* The tests' seeded random numbers: splitmix64 over a caller's state, so
 * every test that draws random positions replays the same ones. */
#ifndef GSW_TEST_RNG_H
#define GSW_TEST_RNG_H

#include <stdint.h>

static inline uint64_t test_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif

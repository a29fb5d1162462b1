/* Deterministic pseudo-random numbers for the trace generator. Every random choice is a pure
 * function of (seed, what it is for), never of the order things were generated in, so a change
 * in one part of a spec (or in the order tools ask) does not reshuffle unrelated parts. */
#ifndef RFSIM_TG_RNG_H
#define RFSIM_TG_RNG_H

#include <stdint.h>

/* splitmix64 finalizer: a bijective mix with full avalanche. */
static inline uint64_t tg_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Hash of a seed and up to four coordinates (the purpose tag is one of them). */
static inline uint64_t tg_hash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t e) {
  uint64_t h = tg_mix64(seed);
  h = tg_mix64(h ^ a);
  h = tg_mix64(h ^ b);
  h = tg_mix64(h ^ c);
  return tg_mix64(h ^ e);
}

/* A small sequential stream, for building a kernel's static code. */
typedef struct tg_rng {
  uint64_t state;
} tg_rng;

static inline uint64_t tg_rng_next(tg_rng *r) {
  r->state += 0x9e3779b97f4a7c15ull;
  return tg_mix64(r->state);
}

/* Uniform integer in [0, n) (n > 0); the modulo bias is below 2^-40 for the n used here. */
static inline uint64_t tg_rng_below(tg_rng *r, uint64_t n) { return tg_rng_next(r) % n; }

#endif

// sysgym's documented input for bzip2 (libbz2): generated text with runs and a little noise,
// compressed at block sizes 9 and 1 and decompressed again (the buffer API over the stream
// API, the path the bzip2 tool takes); prints the compressed sizes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bzlib.h"

int main(int argc, char **argv) {
  const unsigned size = argc > 1 ? (unsigned)atoi(argv[1]) : 1u << 19;
  static const char *words[] = {"page",  "tier",   "inline", "call", "site",   "loop", "tensor",
                                "reward", "policy", "the",    "of",   "bzip2", "block", "sort"};
  char *text = malloc(size);
  unsigned seed = 11;
  for (unsigned i = 0; i < size;) {
    seed = seed * 1664525u + 1013904223u;
    if ((seed >> 8) % 64 == 0) {  // a run, which bzip2's first stage encodes
      const unsigned run = 4 + (seed >> 20) % 60;
      for (unsigned r = 0; r < run && i < size; ++r) text[i++] = (char)('a' + (seed >> 4) % 26);
      continue;
    }
    const char *w = words[(seed >> 16) % 14];
    for (const char *c = w; *c && i < size; ++c) text[i++] = *c;
    if (i < size) text[i++] = (seed & 0x300) ? ' ' : (char)(33 + (seed >> 24) % 90);
  }
  const unsigned bound = size + size / 100 + 600;  // libbz2's documented worst case
  char *packed = malloc(bound);
  char *back = malloc(size);
  int ok = 1;
  const int blocks[] = {9, 1};
  for (int b = 0; b < 2; ++b) {
    unsigned packed_size = bound, back_size = size;
    ok = ok && BZ2_bzBuffToBuffCompress(packed, &packed_size, text, size, blocks[b], 0, 30) == BZ_OK;
    ok = ok && BZ2_bzBuffToBuffDecompress(back, &back_size, packed, packed_size, 0, 0) == BZ_OK;
    ok = ok && back_size == size && !memcmp(text, back, size);
    printf("%u ", packed_size);
  }
  printf("%d\n", ok);
  free(text);
  free(packed);
  free(back);
  return ok ? 0 : 1;
}

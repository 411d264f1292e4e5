// sysgym's documented input for LZ4: a megabyte of generated, repetitive text compressed with
// the fast and the high-compression coders and decompressed again; prints the sizes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lz4.h"
#include "lz4hc.h"

int main(int argc, char **argv) {
  const int size = argc > 1 ? atoi(argv[1]) : 1 << 20;
  static const char *words[] = {"memory", "tier", "page", "inline", "call", "site", "loop",
                                "tensor", "policy", "reward", "the", "of", "and", "to"};
  char *text = malloc((size_t)size);
  unsigned seed = 7;
  for (int i = 0; i < size;) {
    seed = seed * 1664525u + 1013904223u;
    const char *w = words[(seed >> 16) % 14];
    for (const char *c = w; *c && i < size; ++c) text[i++] = *c;
    if (i < size) text[i++] = (seed & 0x700) ? ' ' : '\n';
  }
  const int bound = LZ4_compressBound(size);
  char *packed = malloc((size_t)bound);
  char *back = malloc((size_t)size);
  const int fast = LZ4_compress_default(text, packed, size, bound);
  int ok = LZ4_decompress_safe(packed, back, fast, size) == size && !memcmp(text, back, size);
  const int hc = LZ4_compress_HC(text, packed, size / 4, bound, 9);
  ok = ok && LZ4_decompress_safe(packed, back, hc, size) == size / 4;
  printf("%d %d %d\n", fast, hc, ok);
  free(text);
  free(packed);
  free(back);
  return ok ? 0 : 1;
}

// A small program for the inline family's tests: a static helper called from a loop, one called
// once, a recursive function, an exported function, a call through a pointer and calls to libc.
#include <stdio.h>
#include <stdlib.h>

static int square(int x) { return x * x; }

static int clamp(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

static long checksum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i) s = s * 31 + clamp(v[i], 0, 1000);
  return s;
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int sum_squares(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += v[i] > 3 ? square(v[i]) : clamp(v[i], -2, 2);
  return s;
}

static int twice(int x) { return 2 * x; }
static int (*volatile op)(int) = twice;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int *v = malloc(sizeof(int) * (size_t)n);
  if (!v) return 1;
  for (int i = 0; i < n; ++i) v[i] = (i * 7) % 23 - 5;
  long total = 0;
  for (int r = 0; r < 50; ++r) total += sum_squares(v, n) + square(r) + op(r);
  total += checksum(v, n) % 1000 + fib(15);
  printf("%ld\n", total);
  free(v);
  return 0;
}

// Calls clang's inliner never inlines, for the inline family's tests: a varargs function that
// reads its arguments with va_arg, a noinline one, a computed goto (its blocks' addresses taken),
// a function that calls setjmp and one built for CPU features its caller lacks. Forced by replay,
// the varargs body would read its caller's arguments, which it has none of.
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int configured;

static void configure(int op, ...) {
  va_list ap;
  va_start(ap, op);
  if (op == 1) configured = *va_arg(ap, const int *);
  va_end(ap);
}

static void set_default(void) {
  static const int value = 7;
  configure(1, &value);
}

__attribute__((noinline)) static int slow_add(int a, int b) { return a + b; }

static int dispatch(const unsigned char *ops, int n) {
  static void *const table[] = {&&add, &&sub, &&done};
  int acc = 0, i = 0;
  goto *table[ops[i]];
add:
  acc += 3;
  if (++i < n) goto *table[ops[i]];
  return acc;
sub:
  acc -= 1;
  if (++i < n) goto *table[ops[i]];
  return acc;
done:
  return acc;
}

static jmp_buf escape;

static int guarded(int v) {
  if (setjmp(escape) != 0) return -1;
  if (v < 0) longjmp(escape, 1);
  return v * 2;
}

__attribute__((target("avx2"))) static int wide(int v) { return v ^ 0x5a; }

static int plain(int v) { return v + 1; }

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 100;
  const unsigned char ops[] = {0, 0, 1, 0, 2};
  set_default();
  long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += slow_add(i, configured) + dispatch(ops, 5) + guarded(i) + plain(i);
  if (n < 0) sum += wide(n);  // never run: this machine's CPU need not have AVX2
  printf("%ld\n", sum);
  return sum == 0;
}

// A benchmark-style program written for sysgym's inline family: the small functions real programs
// are made of (comparators, hash functions, accessors, a binary heap, bounds checks) called from
// hot loops of five workloads: sorting records, a hash table, Dijkstra on a grid graph, a
// tokenizer and a small matrix product. Prints a checksum of each workload.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int key;
  int weight;
  char tag[8];
} record;

static uint32_t rng_state = 2463534242u;
static uint32_t next_random(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static int compare_records(const void *a, const void *b) {
  const record *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->weight - y->weight;
}

static void swap_records(record *a, record *b) {
  record t = *a;
  *a = *b;
  *b = t;
}

static void insertion_sort(record *r, int n, int (*cmp)(const void *, const void *)) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && cmp(&r[j - 1], &r[j]) > 0; --j) swap_records(&r[j - 1], &r[j]);
}

static void quick_sort(record *r, int n) {
  while (n > 16) {
    const int pivot = r[n / 2].key;
    int i = 0, j = n - 1;
    while (i <= j) {
      while (r[i].key < pivot) ++i;
      while (r[j].key > pivot) --j;
      if (i <= j) swap_records(&r[i++], &r[j--]);
    }
    quick_sort(r, j + 1);
    r += i;
    n -= i;
  }
  insertion_sort(r, n, compare_records);
}

static long sort_workload(int n) {
  record *r = malloc(sizeof(record) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    r[i].key = (int)(next_random() % 100000);
    r[i].weight = (int)(next_random() % 100);
    snprintf(r[i].tag, sizeof r[i].tag, "t%d", i % 1000);
  }
  quick_sort(r, n);
  long sum = 0;
  for (int i = 1; i < n; ++i) sum += compare_records(&r[i - 1], &r[i]) <= 0;
  free(r);
  return sum;
}

typedef struct {
  uint64_t *keys;
  int *values;
  size_t capacity, size;
} table;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

static size_t slot_of(const table *t, uint64_t key) { return mix(key) & (t->capacity - 1); }

static int table_put(table *t, uint64_t key, int value) {
  for (size_t s = slot_of(t, key);; s = (s + 1) & (t->capacity - 1)) {
    if (t->keys[s] == 0 || t->keys[s] == key) {
      const int fresh = t->keys[s] == 0;
      t->keys[s] = key;
      t->values[s] = value;
      t->size += (size_t)fresh;
      return fresh;
    }
  }
}

static int table_get(const table *t, uint64_t key, int *value) {
  for (size_t s = slot_of(t, key);; s = (s + 1) & (t->capacity - 1)) {
    if (t->keys[s] == 0) return 0;
    if (t->keys[s] == key) {
      *value = t->values[s];
      return 1;
    }
  }
}

static long hash_workload(int n) {
  table t = {calloc(1u << 17, 8), calloc(1u << 17, 4), 1u << 17, 0};
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += table_put(&t, 1 + next_random() % 60000, i);
  for (int i = 0; i < n; ++i) {
    int v;
    if (table_get(&t, 1 + (uint64_t)i * 3, &v)) sum += v & 7;
  }
  free(t.keys);
  free(t.values);
  return sum + (long)t.size;
}

typedef struct {
  int node, dist;
} entry;

typedef struct {
  entry *e;
  int size;
} heap;

static int heap_less(const heap *h, int a, int b) { return h->e[a].dist < h->e[b].dist; }

static void heap_swap(heap *h, int a, int b) {
  entry t = h->e[a];
  h->e[a] = h->e[b];
  h->e[b] = t;
}

static void heap_push(heap *h, int node, int dist) {
  int i = h->size++;
  h->e[i].node = node;
  h->e[i].dist = dist;
  while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
    heap_swap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static entry heap_pop(heap *h) {
  entry top = h->e[0];
  h->e[0] = h->e[--h->size];
  for (int i = 0;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->size && heap_less(h, l, m)) m = l;
    if (r < h->size && heap_less(h, r, m)) m = r;
    if (m == i) break;
    heap_swap(h, i, m);
    i = m;
  }
  return top;
}

static int in_grid(int x, int y, int side) { return x >= 0 && y >= 0 && x < side && y < side; }

static int edge_cost(int from, int to) { return 1 + (int)(mix((uint64_t)from * 131 + (uint64_t)to) % 9); }

static long dijkstra_workload(int side) {
  const int n = side * side;
  int *dist = malloc(sizeof(int) * (size_t)n);
  heap h = {malloc(sizeof(entry) * (size_t)n * 4), 0};
  for (int i = 0; i < n; ++i) dist[i] = 1 << 30;
  dist[0] = 0;
  heap_push(&h, 0, 0);
  static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  while (h.size > 0) {
    const entry e = heap_pop(&h);
    if (e.dist > dist[e.node]) continue;
    const int x = e.node % side, y = e.node / side;
    for (int d = 0; d < 4; ++d) {
      if (!in_grid(x + dx[d], y + dy[d], side)) continue;
      const int to = (y + dy[d]) * side + x + dx[d];
      const int nd = e.dist + edge_cost(e.node, to);
      if (nd < dist[to]) {
        dist[to] = nd;
        heap_push(&h, to, nd);
      }
    }
  }
  const long result = dist[n - 1];
  free(dist);
  free(h.e);
  return result;
}

static int is_word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

static int is_space(char c) { return c == ' ' || c == '\n' || c == '\t'; }

static long tokenize_workload(int n) {
  static const char *words[] = {"int", "x", "=", "foo(", "bar_2", ");", "return", "0;", "\n"};
  char *text = malloc((size_t)n * 8 + 1);
  size_t len = 0;
  for (int i = 0; i < n; ++i) {
    const char *w = words[next_random() % 9];
    const size_t l = strlen(w);
    memcpy(text + len, w, l);
    len += l;
    text[len++] = ' ';
  }
  long tokens = 0, identifiers = 0;
  for (size_t i = 0; i < len;) {
    if (is_space(text[i])) {
      ++i;
    } else if (is_word_char(text[i])) {
      while (i < len && is_word_char(text[i])) ++i;
      ++identifiers;
      ++tokens;
    } else {
      ++i;
      ++tokens;
    }
  }
  free(text);
  return tokens * 3 + identifiers;
}

static double at(const double *m, int n, int i, int j) { return m[i * n + j]; }

static long matrix_workload(int n) {
  double *a = malloc(sizeof(double) * (size_t)(n * n)), *b = malloc(sizeof(double) * (size_t)(n * n));
  for (int i = 0; i < n * n; ++i) {
    a[i] = (double)(next_random() % 100) / 10;
    b[i] = (double)(next_random() % 100) / 10;
  }
  double trace = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += at(a, n, i, k) * at(b, n, k, j);
      if (i == j) trace += s;
    }
  free(a);
  free(b);
  return (long)trace;
}

int main(int argc, char **argv) {
  const int scale = argc > 1 ? atoi(argv[1]) : 20000;
  printf("%ld %ld %ld %ld %ld\n", sort_workload(scale), hash_workload(scale * 2),
         dijkstra_workload(scale / 200), tokenize_workload(scale * 4), matrix_workload(scale / 500));
  return 0;
}

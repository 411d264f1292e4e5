// sysgym's documented input for LMDB: a database in a temporary folder filled with 20,000
// key/value pairs in batches of transactions, read back by key, walked with a cursor, half
// deleted and walked again; prints what it found. The folder is removed at the end.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lmdb.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    int rc_ = (call);                                                            \
    if (rc_ != MDB_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, mdb_strerror(rc_)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

static long walk(MDB_env *env, MDB_dbi dbi) {
  MDB_txn *txn;
  MDB_cursor *cur;
  MDB_val k, v;
  long sum = 0;
  CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
  CHECK(mdb_cursor_open(txn, dbi, &cur));
  while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == 0) sum += (long)v.mv_size + ((char *)k.mv_data)[5];
  mdb_cursor_close(cur);
  mdb_txn_abort(txn);
  return sum;
}

int main(int argc, char **argv) {
  const int count = argc > 1 ? atoi(argv[1]) : 20000;
  char dir[] = "/tmp/sysgym-lmdb-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  MDB_env *env;
  MDB_dbi dbi;
  MDB_txn *txn;
  MDB_val k, v;
  char key[32], value[96];
  CHECK(mdb_env_create(&env));
  CHECK(mdb_env_set_mapsize(env, 256u << 20));
  CHECK(mdb_env_open(env, dir, MDB_NOSYNC | MDB_NOMETASYNC, 0600));
  unsigned seed = 99;
  for (int batch = 0; batch < count; batch += 1000) {
    CHECK(mdb_txn_begin(env, NULL, 0, &txn));
    CHECK(mdb_dbi_open(txn, NULL, 0, &dbi));
    for (int i = batch; i < batch + 1000 && i < count; ++i) {
      seed = seed * 1103515245u + 12345u;
      k.mv_size = (size_t)snprintf(key, sizeof key, "key-%08u", seed % 1000000u);
      k.mv_data = key;
      v.mv_size = (size_t)snprintf(value, sizeof value, "value %d of the benchmark %u", i, seed);
      v.mv_data = value;
      CHECK(mdb_put(txn, dbi, &k, &v, 0));
    }
    CHECK(mdb_txn_commit(txn));
  }
  long found = 0;
  CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
  for (int i = 0; i < count; ++i) {
    k.mv_size = (size_t)snprintf(key, sizeof key, "key-%08u", (unsigned)(i * 50) % 1000000u);
    k.mv_data = key;
    if (mdb_get(txn, dbi, &k, &v) == 0) found += (long)v.mv_size;
  }
  mdb_txn_abort(txn);
  const long before = walk(env, dbi);
  CHECK(mdb_txn_begin(env, NULL, 0, &txn));
  MDB_cursor *cur;
  CHECK(mdb_cursor_open(txn, dbi, &cur));
  int n = 0;
  while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == 0)
    if (n++ % 2 == 0) CHECK(mdb_cursor_del(cur, 0));
  mdb_cursor_close(cur);
  CHECK(mdb_txn_commit(txn));
  const long after = walk(env, dbi);
  mdb_env_close(env);
  char path[64];
  snprintf(path, sizeof path, "%s/data.mdb", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/lock.mdb", dir);
  unlink(path);
  rmdir(dir);
  printf("%ld %ld %ld\n", found, before, after);
  return 0;
}

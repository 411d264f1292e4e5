// sysgym's documented input for SQLite's amalgamation: an in-memory database of orders and
// customers, loaded through prepared statements in one transaction, indexed, then queried with
// range scans, grouping, a join, LIKE, updates and deletes. Prints a checksum of the results.
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

static long long query_sum(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  check(sqlite3_prepare_v2(db, sql, -1, &st, 0), db, sql);
  long long sum = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int c = 0; c < sqlite3_column_count(st); ++c) sum += sqlite3_column_int64(st, c);
  }
  check(rc, db, sql);
  sqlite3_finalize(st);
  return sum;
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 4000;
  sqlite3 *db;
  check(sqlite3_open(":memory:", &db), db, "open");
  check(sqlite3_exec(db,
                     "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, region INT);"
                     "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT, amount INT, "
                     "note TEXT);",
                     0, 0, 0),
        db, "create");
  check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
  sqlite3_stmt *ins;
  check(sqlite3_prepare_v2(db, "INSERT INTO customer VALUES(?, ?, ?)", -1, &ins, 0), db, "prep");
  char text[64];
  for (int i = 0; i < rows / 10; ++i) {
    snprintf(text, sizeof text, "customer-%d", (i * 7919) % 10007);
    sqlite3_bind_int(ins, 1, i);
    sqlite3_bind_text(ins, 2, text, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins, 3, i % 13);
    check(sqlite3_step(ins), db, "insert customer");
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);
  check(sqlite3_prepare_v2(db, "INSERT INTO orders VALUES(?, ?, ?, ?)", -1, &ins, 0), db, "prep");
  unsigned seed = 12345;
  for (int i = 0; i < rows; ++i) {
    seed = seed * 1103515245u + 12345u;
    snprintf(text, sizeof text, "note %u for order %d", seed % 1000, i);
    sqlite3_bind_int(ins, 1, i);
    sqlite3_bind_int(ins, 2, (int)(seed % (unsigned)(rows / 10)));
    sqlite3_bind_int(ins, 3, (int)(seed >> 8) % 5000);
    sqlite3_bind_text(ins, 4, text, -1, SQLITE_TRANSIENT);
    check(sqlite3_step(ins), db, "insert order");
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);
  check(sqlite3_exec(db, "COMMIT; CREATE INDEX by_customer ON orders(customer, amount);", 0, 0, 0),
        db, "index");
  long long sum = 0;
  sum += query_sum(db, "SELECT count(*), sum(amount) FROM orders WHERE amount BETWEEN 100 AND 900");
  sum += query_sum(db, "SELECT customer, sum(amount) FROM orders GROUP BY customer");
  sum += query_sum(db,
                   "SELECT c.region, count(*), max(o.amount) FROM orders o JOIN customer c ON "
                   "c.id = o.customer GROUP BY c.region ORDER BY 2 DESC");
  sum += query_sum(db, "SELECT count(*) FROM orders WHERE note LIKE '%for order 1%'");
  check(sqlite3_exec(db, "UPDATE orders SET amount = amount + 1 WHERE customer % 3 = 0", 0, 0, 0),
        db, "update");
  check(sqlite3_exec(db, "DELETE FROM orders WHERE amount > 4000", 0, 0, 0), db, "delete");
  sum += query_sum(db, "SELECT count(*), total(amount) FROM orders");
  sqlite3_close(db);
  printf("%lld\n", sum);
  return 0;
}

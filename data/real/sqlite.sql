-- A small database workload for `sysgym trace`: bulk insert, index build, indexed range scans
-- and a hash-like group-by, in distinct phases of the run.
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
  INSERT INTO t SELECT x, (x * 7919) % 20011, printf('%08d-%08d', x, x * 31) FROM c;
CREATE INDEX tk ON t(k);
SELECT count(*), sum(k) FROM t WHERE k BETWEEN 1000 AND 12000;
SELECT k % 97 AS bucket, count(*) FROM t GROUP BY bucket ORDER BY 2 DESC LIMIT 5;
SELECT count(*) FROM t a JOIN t b ON a.k = b.id WHERE a.id % 50 = 0;

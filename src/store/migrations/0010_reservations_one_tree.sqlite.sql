-- Issue 29, SQLite's form of 0010: every call with a budget inserts a reservation row and its settle
-- deletes it, and each b-tree that changes is a 4 KB page written to the WAL at the commit. A rowid
-- table keyed on (request_id, kind) is two b-trees (the table and its key's index), three with the
-- owner index that nothing reads; WITHOUT ROWID keeps the rows in the key's own b-tree, one page
-- per commit (bench/budget-guard.ts: the budget reservation and its settle 6 µs less each).
-- Reservations in flight when the store is upgraded are kept.
CREATE TABLE reservations_one_tree (
  request_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  period TEXT NOT NULL,
  micros BIGINT NOT NULL,
  owner TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (request_id, kind)
) WITHOUT ROWID;
INSERT INTO reservations_one_tree SELECT request_id, kind, target, period, micros, owner, created_at FROM reservations;
DROP TABLE reservations;
ALTER TABLE reservations_one_tree RENAME TO reservations;

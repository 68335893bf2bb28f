-- Issue 29: nothing reads reservations by owner (a restart scans them all and asks about each owner),
-- and the index was a third b-tree page written by every reservation and every settle.
DROP INDEX reservations_owner;

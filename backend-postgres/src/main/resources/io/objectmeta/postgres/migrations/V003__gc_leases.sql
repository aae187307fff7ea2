-- Version 3: GC claims write one lease row per batch instead of one update per record.
-- Before, a claim stamped every record with its claim id and lease (an UPDATE per record) and the
-- acknowledgement deleted every record: two writes per record where a bare DELETE … RETURNING
-- loop makes one. Now records stay untouched in the queue until acknowledged; a claim records
-- the ids it took in one gc_lease row, and later claims skip ids that a live lease holds.
-- Acknowledging deletes the records and the lease row; releasing only shrinks or deletes the
-- lease row; an expired lease row is dropped by the next claim.
ALTER TABLE {schema}.deleted_object DROP COLUMN claim_id, DROP COLUMN lease_until;
ALTER TABLE {schema}.deleted_object RESET (fillfactor);
ALTER TABLE {schema}.deleted_bucket DROP COLUMN claim_id, DROP COLUMN lease_until;
ALTER TABLE {schema}.deleted_bucket RESET (fillfactor);
CREATE TABLE {schema}.gc_lease (
  claim_id uuid PRIMARY KEY,
  lease_until timestamptz NOT NULL,
  -- ascending, so acknowledging a whole batch is recognised by plain array equality
  object_ids bigint[] NOT NULL DEFAULT '{}',
  bucket_ids uuid[] NOT NULL DEFAULT '{}'
);
-- Written once, read by every claim: kept uncompressed (pglz costs more than it saves here).
ALTER TABLE {schema}.gc_lease ALTER COLUMN object_ids SET STORAGE EXTERNAL,
  ALTER COLUMN bucket_ids SET STORAGE EXTERNAL;

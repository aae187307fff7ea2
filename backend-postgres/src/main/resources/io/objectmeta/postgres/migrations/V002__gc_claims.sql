-- Version 2: cheaper GC claims and acknowledgements.
-- Acknowledging and releasing find records by id alone (record ids carry it); the primary key
-- leads with bucket_id, so id needs its own index (the seed's "indexes on id and deleted_at").
CREATE INDEX IF NOT EXISTS deleted_object_id ON {schema}.deleted_object (id);
-- A claim rewrites claim_id and lease_until, which no index covers: with room on the page the
-- rewrite is a HOT update and touches no index.
ALTER TABLE {schema}.deleted_object SET (fillfactor = 70);
ALTER TABLE {schema}.deleted_bucket SET (fillfactor = 70);

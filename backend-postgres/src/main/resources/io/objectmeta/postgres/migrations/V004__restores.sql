-- Version 4: restores (a migration copying another store into this one).
-- A restored GC record remembers the id it had in its source store (its origin), so that a
-- resumed copy adds each record once: a second insert of the same origin conflicts and is
-- skipped. The origin of an object record leads with bucket_id like every object-side index (a
-- source record's bucket id never changes, so uniqueness per bucket is uniqueness). Records
-- queued by this store's own writes have none.
ALTER TABLE {schema}.deleted_object ADD COLUMN origin text;
CREATE UNIQUE INDEX deleted_object_origin ON {schema}.deleted_object (bucket_id, origin)
  WHERE origin IS NOT NULL;
ALTER TABLE {schema}.deleted_bucket ADD COLUMN origin text;
CREATE UNIQUE INDEX deleted_bucket_origin ON {schema}.deleted_bucket (origin)
  WHERE origin IS NOT NULL;
-- A restored record of a deleted bucket carries no owner or creation time (GC reads neither).
ALTER TABLE {schema}.deleted_bucket ALTER COLUMN owner DROP NOT NULL,
  ALTER COLUMN created DROP NOT NULL;

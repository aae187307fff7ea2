-- objectmeta PostgreSQL schema, version 1. {schema} is replaced by the configured schema name.
-- Every object-side primary key and index leads with the bucket incarnation id, so the object
-- tables can be distributed by it (Citus) and co-located.

CREATE TABLE {schema}.store_info (
  id smallint PRIMARY KEY CHECK (id = 1),
  uuid uuid NOT NULL
);

CREATE TABLE {schema}.bucket (
  id uuid PRIMARY KEY,
  name text COLLATE "C" NOT NULL UNIQUE,
  owner text NOT NULL,
  created timestamptz NOT NULL,
  versioning smallint NOT NULL,
  attributes jsonb NOT NULL
);
CREATE INDEX bucket_owner_name ON {schema}.bucket (owner, name);

-- Usage counters, sharded by a hash of the key so concurrent writers of one bucket rarely
-- update the same row.
CREATE TABLE {schema}.bucket_usage (
  bucket_id uuid NOT NULL,
  shard smallint NOT NULL,
  current_objects bigint NOT NULL DEFAULT 0,
  current_bytes bigint NOT NULL DEFAULT 0,
  noncurrent_versions bigint NOT NULL DEFAULT 0,
  noncurrent_bytes bigint NOT NULL DEFAULT 0,
  delete_markers bigint NOT NULL DEFAULT 0,
  uploads bigint NOT NULL DEFAULT 0,
  part_bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (bucket_id, shard)
) WITH (fillfactor = 50);

CREATE TABLE {schema}.deleted_bucket (
  id uuid NOT NULL,
  name text COLLATE "C" NOT NULL,
  owner text NOT NULL,
  created timestamptz NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  claim_id uuid,
  lease_until timestamptz,
  PRIMARY KEY (id)
);
CREATE INDEX deleted_bucket_deleted_at ON {schema}.deleted_bucket (deleted_at);

-- Every version and delete marker of every key (the only version, the null version, in
-- unversioned buckets). Keys are their UTF-8 bytes: bytea orders bytewise (S3's order) and holds
-- NUL. version_id is the newest-first encoding of the revision, null versions included.
CREATE TABLE {schema}.object_version (
  bucket_id uuid NOT NULL,
  key bytea NOT NULL,
  version_id text COLLATE "C" NOT NULL,
  is_null boolean NOT NULL,
  delete_marker boolean NOT NULL,
  size bigint NOT NULL,
  meta jsonb,
  PRIMARY KEY (bucket_id, key, version_id)
);

-- The current, visible version of each key (none while a delete marker is on top): what
-- "list objects" reads, so hidden versions cost nothing. Overwrites are HOT updates: no index on
-- a column that changes, room left on each page.
CREATE TABLE {schema}.object_live (
  bucket_id uuid NOT NULL,
  key bytea NOT NULL,
  version_id text COLLATE "C" NOT NULL,
  is_null boolean NOT NULL,
  size bigint NOT NULL,
  meta jsonb NOT NULL,
  PRIMARY KEY (bucket_id, key)
) WITH (fillfactor = 70);

CREATE TABLE {schema}.upload (
  bucket_id uuid NOT NULL,
  key bytea NOT NULL,
  upload_id text COLLATE "C" NOT NULL,
  initiated timestamptz NOT NULL,
  meta jsonb NOT NULL,
  PRIMARY KEY (bucket_id, key, upload_id)
);

CREATE TABLE {schema}.part (
  bucket_id uuid NOT NULL,
  upload_id text COLLATE "C" NOT NULL,
  part_number integer NOT NULL,
  size bigint NOT NULL,
  etag text NOT NULL,
  last_modified timestamptz NOT NULL,
  locations jsonb NOT NULL,
  PRIMARY KEY (bucket_id, upload_id, part_number)
);

-- The GC queue of object versions and parts whose data may be freed.
CREATE TABLE {schema}.deleted_object (
  bucket_id uuid NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  kind smallint NOT NULL,
  bucket text COLLATE "C" NOT NULL,
  key bytea NOT NULL,
  version_id text COLLATE "C",
  part_number integer NOT NULL DEFAULT 0,
  size bigint NOT NULL,
  locations jsonb NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  claim_id uuid,
  lease_until timestamptz,
  PRIMARY KEY (bucket_id, id)
);
CREATE INDEX deleted_object_deleted_at ON {schema}.deleted_object (deleted_at, id);

-- Version 5: a write reads a key's null version (the one an unversioned or suspended put
-- replaces); without an index on it, that read filtered every version of the key, so a write to
-- a key with a long history cost time in proportion to it. A partial index holds only null
-- versions: at most one per key.
CREATE INDEX object_version_null ON {schema}.object_version (bucket_id, key) WHERE is_null;

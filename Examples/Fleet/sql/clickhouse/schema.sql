-- The fleet table: one row per recorded event, as `rewind export FILE --format jsonl` writes it
-- (docs/EXPORT_SCHEMA.md, schema_version 2). The JSON values (old, new, value, dropped, changes,
-- state, metadata) are kept as their JSON text, read with JSONExtract*: ClickHouse reads a JSON object,
-- array or number into a String column as its text, and a JSON string as the string itself.
CREATE TABLE IF NOT EXISTS rewind_events
(
    schema_version UInt16,
    recording_id   String,
    app_version    Nullable(String),
    seq            UInt64,
    time           String,
    time_ns        Int64,
    monotonic_ns   UInt64,
    source         String,
    source_id      UInt64,
    framework      LowCardinality(String),
    type           LowCardinality(String),
    kind           LowCardinality(String),
    name           String,
    description    String,
    file           String,
    function       String,
    line           UInt32,
    parent         Nullable(UInt64),
    duration_ns    Nullable(Int64),
    path           Nullable(String),
    old            Nullable(String),
    new            Nullable(String),
    value          Nullable(String),
    dropped        Nullable(String),
    changes        String,
    state          Nullable(String),
    level          LowCardinality(Nullable(String)),
    label          Nullable(String),
    message        Nullable(String),
    metadata       Nullable(String)
)
ENGINE = MergeTree
ORDER BY (recording_id, seq);

-- The fleet table: one row per recorded event, as `rewind export FILE --format jsonl` writes it
-- (docs/EXPORT_SCHEMA.md, schema_version 2), loaded from every file under recordings/ (relative
-- to where DuckDB runs). The JSON values (old, new, value, dropped, changes, state, metadata) are JSON:
-- read them with ->> and json_extract.
CREATE OR REPLACE TABLE rewind_events AS
SELECT * FROM read_json('recordings/*.jsonl', format = 'newline_delimited', columns = {
    schema_version: 'USMALLINT',
    recording_id: 'VARCHAR',
    app_version: 'VARCHAR',
    seq: 'UBIGINT',
    time: 'VARCHAR',
    time_ns: 'BIGINT',
    monotonic_ns: 'UBIGINT',
    source: 'VARCHAR',
    source_id: 'UBIGINT',
    framework: 'VARCHAR',
    type: 'VARCHAR',
    kind: 'VARCHAR',
    name: 'VARCHAR',
    description: 'VARCHAR',
    file: 'VARCHAR',
    function: 'VARCHAR',
    line: 'UINTEGER',
    parent: 'UBIGINT',
    duration_ns: 'BIGINT',
    path: 'VARCHAR',
    old: 'JSON',
    new: 'JSON',
    value: 'JSON',
    dropped: 'JSON',
    changes: 'JSON',
    state: 'JSON',
    level: 'VARCHAR',
    label: 'VARCHAR',
    message: 'VARCHAR',
    metadata: 'JSON'
});

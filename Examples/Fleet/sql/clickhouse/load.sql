-- Every exported recording under recordings/ (relative to where clickhouse-local or chdb runs; on
-- a server, under its user_files_path). file() takes the table's columns as the files' structure.
-- On a cluster, stream each file instead:
--   clickhouse-client --query 'INSERT INTO rewind_events FORMAT JSONEachRow' < session.jsonl
INSERT INTO rewind_events SELECT * FROM file('recordings/*.jsonl', 'JSONEachRow');

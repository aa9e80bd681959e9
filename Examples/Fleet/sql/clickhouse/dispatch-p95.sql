-- The 95th percentile of each dispatch's duration across every recording, in nanoseconds: the
-- nearest-rank percentile (the smallest duration at least 95% of the dispatches do not exceed),
-- as DuckDB's quantile_disc computes it.
SELECT name, count() AS dispatches,
       arraySort(groupArray(duration_ns))[toUInt64(ceil(0.95 * count()))] AS p95_ns
FROM rewind_events
WHERE kind = 'didDispatch' AND duration_ns IS NOT NULL
GROUP BY name
ORDER BY name;

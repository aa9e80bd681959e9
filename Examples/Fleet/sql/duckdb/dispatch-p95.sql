-- The 95th percentile of each dispatch's duration across every recording, in nanoseconds: the
-- nearest-rank percentile (the smallest duration at least 95% of the dispatches do not exceed).
SELECT name, count(*) AS dispatches, quantile_disc(duration_ns, 0.95) AS p95_ns
FROM rewind_events
WHERE kind = 'didDispatch' AND duration_ns IS NOT NULL
GROUP BY name
ORDER BY name;

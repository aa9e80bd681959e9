-- Which app versions show the divergence "the receipt's total is not the cart's total" after a
-- checkout: for each version, its recordings and how many of them diverge.
SELECT app_version,
       count(DISTINCT recording_id) AS recordings,
       count(DISTINCT recording_id) FILTER (
           WHERE state ->> '$.status' = 'paid'
             AND (state ->> '$.receipt.total')::BIGINT <> (state ->> '$.total')::BIGINT) AS diverging
FROM rewind_events
GROUP BY app_version
ORDER BY app_version;

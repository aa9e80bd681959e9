-- Which app versions show the divergence "the receipt's total is not the cart's total" after a
-- checkout: for each version, its recordings and how many of them diverge. (JSONExtractInt reads
-- a missing field as 0, hence JSONHas; in DuckDB a missing field is NULL.)
SELECT app_version,
       uniqExact(recording_id) AS recordings,
       uniqExactIf(recording_id,
           JSONExtractString(state, 'status') = 'paid' AND JSONHas(state, 'receipt', 'total')
           AND JSONExtractInt(state, 'receipt', 'total') != JSONExtractInt(state, 'total')) AS diverging
FROM rewind_events
GROUP BY app_version
ORDER BY app_version;

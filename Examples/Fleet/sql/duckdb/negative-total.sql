-- Recordings where the checkout's total went negative, with the step where it first did:
-- `rewind show FILE --at first_seq` shows that state, `rewind FILE` opens the viewer there.
SELECT recording_id, app_version, min(seq) AS first_seq
FROM rewind_events
WHERE type = 'Checkout' AND state IS NOT NULL AND (state ->> '$.total')::BIGINT < 0
GROUP BY recording_id, app_version
ORDER BY recording_id;

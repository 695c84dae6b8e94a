const minuteMs = 60_000;

/** How many series' minute one statement rolls up at most (about 10 ms for 500 pods here). */
export const minuteSliceSeries = 500;

/**
Rolls a minute of raw samples up, for the series from ?2 up to ?3, inside SQLite: per series the
count of samples, the newest one's state and values (last), and per position the lowest, mean
(rounded as `bucketTexts` does) and highest value, nulls counting for nothing. It makes no object
in JavaScript: folded there, a minute of 2,000 pods' samples was 11 MB of garbage a minute, and
the buckets lived across the minute's instants long enough to be promoted, which cost the
dashboard more in V8's full collections than the fold itself. The positions come out in order
from the GROUP BY's sorter (json_group_array(… ORDER BY k) made three more sorts for nothing).
*/
export const minuteRollupSql = `INSERT OR REPLACE INTO minute (at, sid, n, state, vmin, vmean, vmax, vlast)
WITH samples AS (SELECT sid, at, v FROM raw WHERE at >= ?1 AND at < ?1 + ${minuteMs} AND sid >= ?2 AND sid < ?3),
positions AS (
	SELECT samples.sid AS sid, each.key AS k, min(each.value) AS lo, round(avg(each.value), 4) AS mean, max(each.value) AS hi
	FROM samples, json_each(samples.v) AS each GROUP BY samples.sid, each.key ORDER BY samples.sid, each.key),
lists AS (
	SELECT sid, json_group_array(lo) AS lo, json_group_array(iif(mean = cast(mean AS INTEGER), cast(mean AS INTEGER), mean)) AS mean, json_group_array(hi) AS hi
	FROM positions GROUP BY sid),
newest AS (SELECT sid, count(*) AS n, max(at) AS lastAt FROM samples GROUP BY sid)
SELECT ?1, newest.sid, newest.n, raw.state, coalesce(lists.lo, '[]'), coalesce(lists.mean, '[]'), coalesce(lists.hi, '[]'), raw.v
FROM newest LEFT JOIN lists USING (sid) JOIN raw ON raw.at = newest.lastAt AND raw.sid = newest.sid`;

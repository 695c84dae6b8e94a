import {useEffect, useState} from 'react';

/** The current time, re-read every `intervalMs` while `ticking` (and never otherwise: an idle screen writes nothing). */
export function useNow(ticking: boolean, intervalMs = 1000): number {
	const [now, setNow] = useState(Date.now);
	useEffect(() => {
		if (!ticking) {
			return;
		}

		const update = () => {
			setNow(Date.now());
		};

		// Read the time as soon as ticking starts (not in the effect itself), then every interval.
		const first = setTimeout(update, 0);
		const timer = setInterval(update, intervalMs);
		return () => {
			clearTimeout(first);
			clearInterval(timer);
		};
	}, [ticking, intervalMs]);
	return now;
}

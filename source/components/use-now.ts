import {useEffect, useState} from 'react';

/** The current time, re-read every `intervalMs` while `ticking` (and never otherwise: an idle screen writes nothing). */
export function useNow(ticking: boolean, intervalMs = 1000): number {
	const [now, setNow] = useState(Date.now);
	useEffect(() => {
		if (!ticking) {
			return;
		}

		setNow(Date.now());
		const timer = setInterval(() => {
			setNow(Date.now());
		}, intervalMs);
		return () => {
			clearInterval(timer);
		};
	}, [ticking, intervalMs]);
	return now;
}

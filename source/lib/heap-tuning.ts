import {PerformanceObserver} from 'node:perf_hooks';
import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8';

/** The young generation's largest semi-space (MB): what `--max-semi-space-size=4` in the bundle's shebang asks for. */
export const semiSpaceMb = 4;

/**
V8 flags that still take effect once Node has started, set by the program itself: a busybox `env`
without `-S`, npm's Windows shim and `node dist/bundle/podtop.js` all lose the shebang's flags.

- The old generation grows by 30 % past what survived its last collection (V8's default on a
  machine with gigabytes free is up to 300 %; `--max-old-space-size=256` in the shebang makes it 30 % too).
- The young generation stops growing at two 4 MB semi-spaces (V8 grows it to 16 MB each while the
  polled lists survive, 24 MB more RSS for no gain here). The semi-space size itself is read only
  at start, but its growth factor is read at every growth: it is set to 1 once the space is that big.
- Wasm stays on its baseline compiler (Yoga's optimising compile was a 35 MB spike at start); set
  before Ink loads, as this runs first.
*/
export function tuneHeap(): void {
	setFlagsFromString('--heap-growing-percent=30');
	setFlagsFromString('--no-wasm-tier-up');
	setFlagsFromString('--no-wasm-dynamic-tiering');
	const newSpaceBytes = () => getHeapSpaceStatistics().find(space => space.space_name === 'new_space')?.space_size ?? 0;
	// The new space is both semi-spaces.
	const full = () => newSpaceBytes() >= 2 * semiSpaceMb * 1024 * 1024;
	const stopGrowing = () => {
		setFlagsFromString('--semi-space-growth-factor=1');
	};

	if (full()) {
		stopGrowing();
		return;
	}

	// Checked after each collection (the space grows only at one); one check a scavenge until it is full.
	const observer = new PerformanceObserver(() => {
		if (full()) {
			stopGrowing();
			observer.disconnect();
		}
	});
	observer.observe({entryTypes: ['gc']});
}

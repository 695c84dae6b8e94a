import {PerformanceObserver} from 'node:perf_hooks';
import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8';

/** The young generation's largest semi-space (MB) while the old generation is small (a fleet of hundreds)… */
export const semiSpaceMb = 2;
/** …and once the old generation holds more than `largeOldSpaceMb`: what `--max-semi-space-size=4` in the bundle's shebang allows. */
export const largeSemiSpaceMb = 4;
const largeOldSpaceMb = 64;
const mb = 1024 * 1024;

/**
V8 flags that still take effect once Node has started, set by the program itself: a busybox `env`
without `-S`, npm's Windows shim and `node dist/bundle/podtop.js` all lose the shebang's flags.

- The old generation grows by 30 % past what survived its last collection (V8's default on a
  machine with gigabytes free is up to 300 %; `--max-old-space-size=256` in the shebang makes it 30 % too).
- The young generation grows to two 2 MB semi-spaces, or 4 MB once the old generation holds over
  64 MB, and no further (V8 grows it to 16 MB each while the polled lists survive: 28 MB more RSS
  for no gain here). The semi-space's largest size is read only at start, but its growth factor at
  each growth: after each collection the factor is set so that the next growth cannot pass the
  limit (2 below it, 1 at it). V8 also shrinks the space in quiet times, and it grows back. At 500
  endpoints + 2,000 living pods (old generation about 30 MB), 2 MB rather than 4 took the peak RSS
  from 123.4 to 118.5 MB for 1.18 -> 1.25 % CPU (side by side, five minutes). At 1,000 + 10,000
  with the Pods pane hidden, 2 MB cost 1.92-1.97 -> 2.17-2.21 % CPU (two runs each; the list's
  summaries of 10,000 pods survive more collections), so a heap that size keeps 4 MB.
- V8's memory reducer (the extra full collections it starts when the heap looks idle, which it
  does whenever less than 1 MB a second is allocated: podtop's steady state) is made when the heap
  is set up, so `--no-memory-reducer` only works in the shebang. What it reads later is how long to
  wait after a full collection before it starts: the longest wait there is (24 days), so it never
  starts, as in the bin. Started as `node dist/bundle/podtop.js` at 500 endpoints + 2,000 pods, it
  ran two reducing mark-compacts a minute beside the two the heap's growth needs (full collections
  2.8 → 2.0 a minute; the collector 709 → 590 ms a minute, main thread and helpers).
- Wasm stays on its baseline compiler (Yoga's optimising compile was a 35 MB spike at start); set
  before Ink loads, as this runs first.
*/
export function tuneHeap(): void {
	setFlagsFromString('--heap-growing-percent=30');
	setFlagsFromString(`--gc-memory-reducer-start-delay-ms=${2 ** 31 - 1}`);
	setFlagsFromString('--no-wasm-tier-up');
	setFlagsFromString('--no-wasm-dynamic-tiering');
	let factor = 2;
	const limitGrowth = () => {
		// The new space is both semi-spaces; a growth doubles it.
		const spaces = getHeapSpaceStatistics();
		const size = spaces.find(space => space.space_name === 'new_space')?.space_size ?? 0;
		const old = spaces.find(space => space.space_name === 'old_space')?.space_used_size ?? 0;
		const largest = 2 * (old > largeOldSpaceMb * mb ? largeSemiSpaceMb : semiSpaceMb) * mb;
		const next = size * 2 <= largest ? 2 : 1;
		if (next !== factor) {
			factor = next;
			setFlagsFromString(`--semi-space-growth-factor=${factor}`);
		}
	};

	limitGrowth();
	// The space grows only in a collection: after each, the next growth is allowed or not.
	const observer = new PerformanceObserver(limitGrowth);
	observer.observe({entryTypes: ['gc']});
}

import {render} from 'ink-testing-library';
import type {ReactElement} from 'react';
import type {Health} from '../../source/api/job-types.js';
import {unicodeGlyphs, type Glyphs} from '../../source/format/glyphs.js';
import {createPodtopStore, type PodtopStore} from '../../source/store/create-store.js';
import {AppProvider, colorless, type AppServices} from '../../source/ui/app-context.js';

export function testStore(): PodtopStore {
	return createPodtopStore({mode: 'live', apiHost: 'api.runpod.ai', keyFingerprint: '••••1a2b'});
}

export function health(overrides: {inQueue?: number; inProgress?: number; completed?: number; failed?: number; running?: number; idle?: number} = {}): Health {
	return {
		jobs: {completed: overrides.completed ?? 120, failed: overrides.failed ?? 3, inProgress: overrides.inProgress ?? 2, inQueue: overrides.inQueue ?? 5, retried: 1},
		workers: {idle: overrides.idle ?? 1, initializing: 1, ready: 3, running: overrides.running ?? 2, throttled: 0, unhealthy: 0},
	};
}

/** Renders a component with the app's services around it, on a store built by the test. */
export function renderWith(store: PodtopStore, element: ReactElement, options: {glyphs?: Glyphs; api?: AppServices['api']; refresh?: () => void} = {}) {
	const services: AppServices = {store, api: options.api, refresh: options.refresh ?? (() => undefined), glyphs: options.glyphs ?? unicodeGlyphs, colors: colorless};
	return render(<AppProvider services={services}>{element}</AppProvider>);
}

export const tick = async (ms = 30) => new Promise(resolve => setTimeout(resolve, ms));

/** Waits (up to two seconds) until the frame matches: renders can lag behind input under load. */
export async function frameMatching(lastFrame: () => string | undefined, pattern: RegExp): Promise<string> {
	const deadline = Date.now() + 2000;
	while (Date.now() < deadline) {
		const frame = lastFrame() ?? '';
		if (pattern.test(frame)) {
			return frame;
		}

		await tick(10);
	}

	throw new Error(`frame never matched ${pattern}:\n${lastFrame()}`);
}

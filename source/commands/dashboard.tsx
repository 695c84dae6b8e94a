import {render} from 'ink';
import {App} from '../app.js';
import {keyFingerprint} from '../api/redact.js';
import type {Engine} from '../engine/create-engine.js';
import {resolveTarget, type TargetOptions} from '../engine/resolve-target.js';
import {asciiGlyphs, localeIsUtf8, unicodeGlyphs} from '../format/glyphs.js';
import type {BudgetSettings} from '../poll/budget-limits.js';
import {defaultCadence} from '../poll/cadence.js';
import {createPodtopStore} from '../store/create-store.js';
import {AppProvider, colorful, colorless, type AppServices} from '../ui/app-context.js';
import {createFrameWriter} from '../ui/frame-writer.js';
import {takeOverTerminal} from '../ui/terminal.js';

export type DashboardOptions = {
	readonly target: TargetOptions;
	readonly endpointFilter: string[] | undefined;
	readonly budget: Partial<BudgetSettings>;
	readonly color: boolean;
	readonly ascii: boolean;
	readonly initialJob?: {readonly endpointId: string; readonly jobId: string};
};

/**
The full-screen dashboard: the first frame is drawn from the store alone, then the engine (HTTP
clients, scheduler, pollers, and in DEMO the simulator) loads outside React and fills it in.
Everything is closed on the way out.
*/
export async function runDashboard(options: DashboardOptions): Promise<void> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		throw new Error('the dashboard needs a terminal; without one use `podtop snapshot`, `podtop watch --jsonl` or `podtop job <endpoint> <id>`');
	}

	const target = resolveTarget(options.target);
	const store = target.mode === 'live'
		? createPodtopStore({mode: 'live', apiHost: new URL(target.apiUrl).host, keyFingerprint: keyFingerprint(target.apiKey)})
		: createPodtopStore({mode: 'demo', apiHost: 'starting the simulator…', keyFingerprint: '••••'});
	const glyphs = options.ascii || !localeIsUtf8() ? asciiGlyphs : unicodeGlyphs;
	const colors = !options.color || process.env.NO_COLOR ? colorless : colorful;
	// While every poll succeeds, the freshest data is at most one health interval old and the stalest
	// one slowest interval; shown as that bound, it never needs redrawing (a ticking age would).
	const slowest = Math.max(defaultCadence.endpointsMs, defaultCadence.gpusHiddenMs, defaultCadence.podsHiddenMs, defaultCadence.healthHiddenMs);
	const freshnessBound = `≤${defaultCadence.healthMs / 1000}s…${slowest / 1000}s`;
	const app = (services: AppServices) => (
		<AppProvider services={services}>
			<App initialJob={options.initialJob} freshnessBound={freshnessBound} notice={target.warnings.join(' · ') || undefined}/>
		</AppProvider>
	);

	const restore = takeOverTerminal();
	const writer = createFrameWriter(process.stdout);
	const onResize = () => writer.invalidate();
	const instance = render(
		app({store, api: undefined, refresh() {}, glyphs, colors}),
		// Whole frames from Ink, differences only to the terminal: see frame-writer.ts for why not incrementalRendering.
		{stdout: writer.stdout, exitOnCtrlC: false, patchConsole: false, incrementalRendering: false, maxFps: 10},
	);
	const stopOnSignal = () => {
		instance.unmount();
	};

	process.stdout.on('resize', onResize);
	process.on('SIGTERM', stopOnSignal);
	process.on('SIGHUP', stopOnSignal);
	let exited = false;
	const exit = instance.waitUntilExit().finally(() => {
		exited = true;
	});
	const starting: Promise<Engine> = (async () => {
		const {createEngine} = await import('../engine/create-engine.js');
		const engine = await createEngine({target, store, budget: options.budget, endpointFilter: options.endpointFilter});
		// Quit while it was starting: nothing to show it on.
		if (!exited) {
			instance.rerender(app({store, api: engine.api, refresh: engine.pollers.refresh, glyphs, colors}));
			engine.pollers.start();
		}

		return engine;
	})();
	try {
		await Promise.race([exit, starting.then(async () => exit)]);
	} finally {
		process.off('SIGTERM', stopOnSignal);
		process.off('SIGHUP', stopOnSignal);
		process.stdout.off('resize', onResize);
		instance.unmount();
		instance.cleanup();
		restore();
		const engine = await starting.catch(() => undefined);
		await engine?.close();
	}

	// A failed start (say, the simulator could not listen) is reported once the screen is back.
	await starting;
}

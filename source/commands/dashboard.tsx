import {render} from 'ink';
import {App} from '../app.js';
import {createEngine} from '../engine/create-engine.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {asciiGlyphs, localeIsUtf8, unicodeGlyphs} from '../format/glyphs.js';
import {defaultCadence} from '../poll/cadence.js';
import {AppProvider, colorful, colorless} from '../ui/app-context.js';
import {createFrameWriter} from '../ui/frame-writer.js';
import {takeOverTerminal} from '../ui/terminal.js';
import type {BudgetSettings} from '../poll/budget-limits.js';
import type {TargetOptions} from '../engine/resolve-target.js';

export type DashboardOptions = {
	readonly target: TargetOptions;
	readonly endpointFilter: string[] | undefined;
	readonly budget: Partial<BudgetSettings>;
	readonly color: boolean;
	readonly ascii: boolean;
	readonly initialJob?: {readonly endpointId: string; readonly jobId: string};
};

/** The full-screen dashboard: engine outside React, Ink inside the alternate screen, everything closed on the way out. */
export async function runDashboard(options: DashboardOptions): Promise<void> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		throw new Error('the dashboard needs a terminal; without one use `podtop snapshot`, `podtop watch --jsonl` or `podtop job <endpoint> <id>`');
	}

	const target = resolveTarget(options.target);
	const engine = await createEngine({target, budget: options.budget, endpointFilter: options.endpointFilter});
	const noColor = !options.color || Boolean(process.env.NO_COLOR);
	const glyphs = options.ascii || !localeIsUtf8() ? asciiGlyphs : unicodeGlyphs;
	// While every poll succeeds, the freshest data is at most one health interval old and the stalest
	// one slowest interval; shown as that bound, it never needs redrawing (a ticking age would).
	const slowest = Math.max(defaultCadence.endpointsMs, defaultCadence.gpusHiddenMs, defaultCadence.podsHiddenMs, defaultCadence.healthHiddenMs);
	const freshnessBound = `≤${defaultCadence.healthMs / 1000}s…${slowest / 1000}s`;
	const restore = takeOverTerminal();
	const writer = createFrameWriter(process.stdout);
	const onResize = () => writer.invalidate();
	const stopOnSignal = () => {
		instance.unmount();
	};

	engine.pollers.start();
	const instance = render(
		<AppProvider services={{store: engine.store, api: engine.api, refresh: engine.pollers.refresh, glyphs, colors: noColor ? colorless : colorful}}>
			<App initialJob={options.initialJob} freshnessBound={freshnessBound} notice={target.warnings.join(' · ') || undefined}/>
		</AppProvider>,
		// Whole frames from Ink, differences only to the terminal: see frame-writer.ts for why not incrementalRendering.
		{stdout: writer.stdout, exitOnCtrlC: false, patchConsole: false, incrementalRendering: false, maxFps: 10},
	);
	process.stdout.on('resize', onResize);
	process.on('SIGTERM', stopOnSignal);
	process.on('SIGHUP', stopOnSignal);
	try {
		await instance.waitUntilExit();
	} finally {
		process.off('SIGTERM', stopOnSignal);
		process.off('SIGHUP', stopOnSignal);
		process.stdout.off('resize', onResize);
		instance.cleanup();
		restore();
		await engine.close();
	}
}

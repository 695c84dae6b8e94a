import {supportsColor} from 'chalk';
import {render} from 'ink';
import type {AlertRules} from '../config/alert-rules.js';
import {keyFingerprint} from '../api/redact.js';
import {colorful, colorless, ServicesProvider, type Pictures, type Services} from '../components/services.js';
import {App} from '../dashboard/app.js';
import {createDisplayStore} from '../dashboard/display-store.js';
import {createFrameWriter} from '../dashboard/frame-writer.js';
import {takeOverTerminal} from '../dashboard/terminal.js';
import {driveTimeCursor} from '../dashboard/time-cursor.js';
import type {Engine} from '../engine/create-engine.js';
import type {HistoryOptions} from '../history/open-history.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {asciiGlyphs, localeIsUtf8, unicodeGlyphs} from '../format/glyphs.js';
import {createImageLoader} from '../images/image-loader.js';
import {UsageError} from '../lib/usage-error.js';
import {defaultCadence} from '../poll/cadence.js';
import {createRowSelectors} from '../rows/visible-rows.js';
import {createPodtopStore} from '../store/create-store.js';
import {createViewStore} from '../view-state/view-store.js';
import {initialViewState, type View} from '../view-state/view-state.js';
import {onCrash} from './crash.js';
import type {Connection} from './connection-flags.js';

export type DashboardOptions = Connection & {
	readonly color: boolean;
	readonly ascii: boolean;
	readonly initialJob?: {readonly endpointId: string; readonly jobId: string};
	readonly alerts?: AlertRules;
	/** Ring the terminal bell when an alert fires. */
	readonly bell?: boolean;
	readonly history?: HistoryOptions;
};

/**
The full-screen dashboard: the first frame is drawn from the store alone, then the engine (HTTP
clients, scheduler, pollers, and in DEMO the simulator) loads outside React and fills it in.
Everything is closed on the way out.
*/
export async function runDashboard(options: DashboardOptions): Promise<void> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		throw new UsageError('the dashboard needs a terminal; without one use `podtop snapshot`, `podtop watch --jsonl` or `podtop job <endpoint> <id>`');
	}

	const target = resolveTarget(options.target);
	const profile = options.profile === undefined ? undefined : {name: options.profile, color: options.band};
	const state =
		target.mode === 'live'
			? createPodtopStore({mode: 'live', apiHost: new URL(target.apiUrl).host, keyFingerprint: keyFingerprint(target.apiKey), profile})
			: createPodtopStore({mode: 'demo', apiHost: 'starting the simulator…', keyFingerprint: '••••', profile});
	const glyphs = options.ascii || !localeIsUtf8() ? asciiGlyphs : unicodeGlyphs;
	const colors = !options.color || process.env.NO_COLOR ? colorless : colorful;
	const views: View[] = options.initialJob ? [{type: 'list'}, {type: 'job', ...options.initialJob}] : [{type: 'list'}];
	const view = createViewStore(
		initialViewState({columns: process.stdout.columns || 80, rows: process.stdout.rows || 24, views, message: target.warnings.join(' · ') || undefined}),
	);
	// Pictures at chalk's colour depth for this terminal (COLORTERM, TERM), as Ink's own colours; none under --ascii or no colour.
	const pictures: Pictures = {loader: createImageLoader(), level: glyphs === asciiGlyphs || colors === colorless ? 0 : (supportsColor || {level: 0}).level};
	const rows = createRowSelectors(glyphs, {pictures: pictures.level > 0});
	// The panes read the live account, or the account as it was while the time cursor is in the past.
	const display = createDisplayStore(state.store);
	let stopCursor: (() => void) | undefined;
	// While every poll succeeds, the freshest data is at most one health interval old and the stalest
	// one slowest interval; shown as that bound, it never needs redrawing (a ticking age would).
	const slowest = Math.max(defaultCadence.endpointsMs, defaultCadence.gpusHiddenMs, defaultCadence.podsHiddenMs, defaultCadence.healthHiddenMs);
	const freshnessBound = `≤${defaultCadence.healthMs / 1000}s…${slowest / 1000}s`;
	const app = (engine: Engine | undefined) => {
		const services: Services = {store: display, view, rows, engine, glyphs, colors, pictures};
		return (
			<ServicesProvider services={services}>
				<App freshnessBound={freshnessBound} readOnly={options.readOnly} />
			</ServicesProvider>
		);
	};

	const restore = takeOverTerminal();
	const undoCrashRestore = onCrash(restore);
	const writer = createFrameWriter(process.stdout);
	const onResize = () => {
		writer.invalidate();
	};

	const instance = render(
		app(undefined),
		// Whole frames from Ink, differences only to the terminal: see frame-writer.ts for why not incrementalRendering.
		{stdout: writer.stdout, exitOnCtrlC: false, patchConsole: false, incrementalRendering: false, maxFps: 30},
	);
	const stopOnSignal = () => {
		instance.unmount();
	};

	process.stdout.on('resize', onResize);
	const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
	for (const signal of signals) {
		process.on(signal, stopOnSignal);
	}

	// A new firing rings the bell (BEL moves no cursor: the frame stays whole).
	let firing = new Set<string>();
	const unsubscribeBell = state.store.subscribe(({alerts}, previous) => {
		if (alerts === previous.alerts) {
			return;
		}

		const fresh = alerts.some(alert => !firing.has(alert.id));
		firing = new Set(alerts.map(alert => alert.id));
		if (fresh && options.bell !== false) {
			process.stdout.write('\u0007');
		}
	});
	let exited = false;
	const exit = instance.waitUntilExit().finally(() => {
		exited = true;
	});
	const starting: Promise<Engine> = (async () => {
		const {createEngine} = await import('../engine/create-engine.js');
		const engine = await createEngine({
			target,
			state,
			budget: options.budget,
			endpointFilter: options.endpointFilter,
			readOnly: options.readOnly,
			readOnlyReason: options.readOnlyReason,
			auditPath: options.auditPath,
			agent: options.agent,
			alerts: options.alerts ? {rules: options.alerts} : undefined,
			history: options.history,
			record: true,
			notice(line) {
				view.dispatch({type: 'message', text: line, tone: 'info'});
			},
		});
		// Quit while it was starting: nothing to show it on.
		if (!exited) {
			stopCursor = driveTimeCursor({live: state.store, display, view, reader: engine.history.reader});
			instance.rerender(app(engine));
			engine.start();
		}

		return engine;
	})();
	try {
		await Promise.race([exit, starting.then(async () => exit)]);
	} finally {
		for (const signal of signals) {
			process.off(signal, stopOnSignal);
		}

		unsubscribeBell();
		stopCursor?.();
		display.stop();
		pictures.loader.close();
		process.stdout.off('resize', onResize);
		instance.unmount();
		instance.cleanup();
		restore();
		undoCrashRestore();
		const engine = await starting.catch(() => undefined);
		await engine?.close();
	}

	// A failed start (say, the simulator could not listen) is reported once the screen is back.
	await starting;
}

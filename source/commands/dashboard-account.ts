import {keyFingerprint} from '../api/redact.js';
import type {AlertRules} from '../config/alert-rules.js';
import {createDisplayStore, type DisplayStore} from '../dashboard/display-store.js';
import {driveTimeCursor} from '../dashboard/time-cursor.js';
import type {Engine} from '../engine/create-engine.js';
import type {Target} from '../engine/resolve-target.js';
import type {HistoryOptions} from '../history/open-history.js';
import {createPodtopStore, type PodtopStore, type StoreWrites} from '../store/create-store.js';
import {healthKeepFor} from '../store/health-keep.js';
import type {ViewStore} from '../view-state/view-store.js';
import type {Connection} from './connection-flags.js';

/** What one account needs of the dashboard's options: its connection, and what it polls, alerts on and records. */
export type AccountOptions = Connection & {
	readonly alerts?: AlertRules;
	/** Ring the terminal bell when an alert fires. */
	readonly bell?: boolean;
	readonly history?: HistoryOptions;
};

/** One account on screen: its store, what the panes read of it, and its engine once started. */
export type AccountSession<Options extends AccountOptions = AccountOptions> = {
	readonly options: Options;
	readonly target: Target;
	readonly state: {readonly store: PodtopStore; readonly writes: StoreWrites};
	/** The account as the panes show it: live, or as it was at the time cursor. */
	readonly display: DisplayStore;
	/**
	Loads and starts its engine (once). `show` puts it on screen; nothing is started when the account
	was closed meanwhile, or `visible` says the dashboard is gone.
	*/
	readonly start: (show: (engine: Engine) => void) => Promise<Engine>;
	/** Stops everything of the account (its engine's pollers, history lock, connections, the cursor, the bell); once. */
	readonly close: () => Promise<void>;
};

/**
The store of an account, drawn at once (the header says the account before anything is polled),
and its engine, started when asked: the dashboard holds one at a time and swaps them on `:profile`.
*/
export function openAccount<Options extends AccountOptions>({
	options,
	target,
	view,
	visible,
}: {
	readonly options: Options;
	readonly target: Target;
	readonly view: ViewStore;
	readonly visible: () => boolean;
}): AccountSession<Options> {
	// The header always names the account: the profile given, else where the key came from (`default`, `env`).
	const profileName = options.profile ?? (target.mode === 'live' ? target.keyLabel : undefined);
	const profile = profileName === undefined ? undefined : {name: profileName, color: options.band};
	const healthKeepMs = healthKeepFor(options.alerts?.rules);
	const state =
		target.mode === 'live'
			? createPodtopStore({mode: 'live', apiHost: new URL(target.apiUrl).host, keyFingerprint: keyFingerprint(target.apiKey), profile, healthKeepMs})
			: createPodtopStore({mode: 'demo', apiHost: 'starting the simulator…', keyFingerprint: '••••', profile, healthKeepMs});
	const display = createDisplayStore(state.store);
	// A new firing rings the bell (BEL moves no cursor: the frame stays whole).
	let firing = new Set<string>();
	const unsubscribeBell = state.store.subscribe(({alerts}, previous) => {
		if (alerts === previous.alerts) {
			return;
		}

		const fresh = alerts.some(alert => !firing.has(alert.id));
		firing = new Set(alerts.map(alert => alert.id));
		if (fresh && options.bell !== false && visible()) {
			process.stdout.write('\u0007');
		}
	});
	let closed = false;
	let starting: Promise<Engine> | undefined;
	let stopCursor: (() => void) | undefined;
	let closing: Promise<void> | undefined;

	const start = async (show: (engine: Engine) => void) => {
		starting ??= (async () => {
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
				// DEMO: this user's other podtops (`snapshot`, `run`, `job`…) use this dashboard's simulator while it runs.
				demoShare: {
					async host(link) {
						const {hostDemo} = await import('../serve/demo-host.js');
						return hostDemo(link);
					},
				},
				notice(line) {
					view.dispatch({type: 'message', text: line, tone: 'info'});
				},
			});
			// Closed (quit, or another profile chosen) while it was starting: nothing to show it on; close() closes it.
			if (!closed && visible()) {
				stopCursor = driveTimeCursor({live: state.store, display, view, reader: engine.history.reader});
				show(engine);
				engine.start();
			}

			return engine;
		})();
		return starting;
	};

	const close = async () => {
		closing ??= (async () => {
			closed = true;
			unsubscribeBell();
			stopCursor?.();
			display.stop();
			const engine = await starting?.catch(() => undefined);
			await engine?.close();
		})();
		return closing;
	};

	return {options, target, state, display, start, close};
}

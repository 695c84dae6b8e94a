import {supportsColor} from 'chalk';
import {render} from 'ink';
import {colorful, colorless, ServicesProvider, type Pictures, type Services} from '../components/services.js';
import {App} from '../dashboard/app.js';
import {fullScreen} from '../dashboard/terminal.js';
import type {Engine} from '../engine/create-engine.js';
import {resolveTarget} from '../engine/resolve-target.js';
import {asciiTerminal} from '../dashboard/ascii-terminal.js';
import {asciiGlyphs, localeIsUtf8, unicodeGlyphs} from '../format/glyphs.js';
import {createImageLoader} from '../images/image-loader.js';
import {profileNames} from '../config/api-key.js';
import {UsageError} from '../lib/usage-error.js';
import type {Accounts} from '../operations/operation.js';
import {createRowSelectors} from '../rows/visible-rows.js';
import {createViewStore} from '../view-state/view-store.js';
import {initialViewState, type View} from '../view-state/view-state.js';
import {onCrash} from './crash.js';
import {openAccount, type AccountOptions, type AccountSession} from './dashboard-account.js';

export type DashboardOptions = AccountOptions & {
	readonly color: boolean;
	readonly ascii: boolean;
	readonly initialJob?: {readonly endpointId: string; readonly jobId: string};
	/**
	The options podtop would have been started with given `--profile NAME` too (its command line read
	again, so every other flag still holds): what `:profile NAME` opens. Absent, it cannot switch.
	*/
	readonly forProfile?: (name: string) => DashboardOptions;
};

/**
The full-screen dashboard: the first frame is drawn from the store alone, then the engine (HTTP
clients, scheduler, pollers, and in DEMO the simulator) loads outside React and fills it in.
`:profile NAME` closes the account's engine and opens another's in the same frame. Everything is
closed on the way out.
*/
export async function runDashboard(options: DashboardOptions): Promise<void> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		throw new UsageError('the dashboard needs a terminal; without one use `podtop snapshot`, `podtop watch --jsonl` or `podtop job <endpoint> <id>`');
	}

	const target = resolveTarget(options.target);
	const views: View[] = options.initialJob ? [{type: 'list'}, {type: 'job', ...options.initialJob}] : [{type: 'list'}];
	const view = createViewStore(
		initialViewState({columns: process.stdout.columns || 80, rows: process.stdout.rows || 24, views, message: target.warnings.join(' · ') || undefined}),
	);
	// Image links lead only to public addresses, the API's own host (the demo's simulator) and what config.toml's [images] allows.
	const loader = createImageLoader({policy: {allow: options.imageAllow, trustedHosts: () => [current.state.store.getState().apiHost]}});
	let exited = false;
	const visible = () => !exited;
	let current: AccountSession<DashboardOptions> = openAccount({options, target, view, visible});
	let switching: Promise<void> | undefined;

	const accounts: Accounts = {
		names: () => profileNames(),
		async switchTo(name) {
			if (switching) {
				throw new UsageError('another switch is under way: wait for it');
			}

			switching = switchAccount(name).finally(() => {
				switching = undefined;
			});
			return switching;
		},
	};

	// Whether the account on screen draws in ASCII: then every frame is made ASCII on its way to the terminal.
	let asciiNow = false;
	// The display of one account: its glyphs and colours (a profile may set ascii), its rows, its engine once started.
	const app = (account: AccountSession<DashboardOptions>, engine: Engine | undefined) => {
		const {ascii, color, readOnly} = account.options;
		const glyphs = ascii || !localeIsUtf8() ? asciiGlyphs : unicodeGlyphs;
		asciiNow = glyphs === asciiGlyphs;
		const colors = !color || process.env.NO_COLOR ? colorless : colorful;
		// Pictures at chalk's colour depth for this terminal (COLORTERM, TERM), as Ink's own colours; none under --ascii or no colour.
		const pictures: Pictures = {loader, level: glyphs === asciiGlyphs || colors === colorless ? 0 : (supportsColor || {level: 0}).level};
		const rows = createRowSelectors(glyphs, {pictures: pictures.level > 0});
		const services: Services = {store: account.display, view, rows, engine, glyphs, colors, pictures, accounts: options.forProfile ? accounts : undefined};
		return (
			<ServicesProvider services={services}>
				<App readOnly={readOnly} />
			</ServicesProvider>
		);
	};

	const instance = render(
		app(current, undefined),
		fullScreen(
			30,
			asciiTerminal(process.stdout, () => asciiNow),
		),
	);
	// A crash gives the terminal back (Ink's unmount leaves the alternate screen) before its message.
	const undoCrashRestore = onCrash(() => {
		instance.unmount();
	});
	const show = (account: AccountSession<DashboardOptions>) => (engine: Engine) => {
		instance.rerender(app(account, engine));
	};

	/**
	The dashboard on another profile, as if podtop had been started with `--profile NAME`: what cannot
	be opened (no key for it, a config file that does not parse) throws before anything changes; then
	the new account is drawn, the old one closed (its pollers, history lock and connections), and only
	then the new engine started (two profiles of one account share a history file and its lock).
	*/
	async function switchAccount(name: string): Promise<void> {
		if (options.target.demo) {
			throw new UsageError('--demo stays on the built-in simulator; start podtop without --demo to switch accounts');
		}

		const next = options.forProfile?.(name);
		if (!next) {
			throw new UsageError('this dashboard cannot switch accounts');
		}

		const nextTarget = resolveTarget(next.target);
		const old = current;
		const account = openAccount({options: next, target: nextTarget, view, visible});
		current = account;
		const where = nextTarget.mode === 'live' ? ` (${new URL(nextTarget.apiUrl).host})` : '';
		view.dispatch({type: 'switch-account', message: [`profile "${name}"${where}`, ...nextTarget.warnings].join(' · ')});
		instance.rerender(app(account, undefined));
		await old.close();
		if (current !== account || exited) {
			return;
		}

		try {
			await account.start(show(account));
		} catch (error) {
			view.dispatch({type: 'message', text: `profile "${name}" did not start: ${error instanceof Error ? error.message : String(error)}`, tone: 'bad'});
		}
	}

	const stopOnSignal = () => {
		instance.unmount();
	};

	const signals = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
	for (const signal of signals) {
		process.on(signal, stopOnSignal);
	}

	const exit = instance.waitUntilExit().finally(() => {
		exited = true;
	});
	const first = current;
	// A failed start of the first account ends the dashboard, unless another was chosen meanwhile.
	const starting = first.start(show(first)).catch(async (error: unknown) => {
		if (current === first) {
			throw error;
		}
	});
	try {
		await Promise.race([exit, starting.then(async () => exit)]);
	} finally {
		exited = true;
		for (const signal of signals) {
			process.off(signal, stopOnSignal);
		}

		loader.close();
		instance.unmount();
		instance.cleanup();
		undoCrashRestore();
		// A switch under way stops short of starting its engine (exited); then whichever account is on screen is closed.
		await switching?.catch(() => undefined);
		await current.close();
	}

	// A failed start (say, the simulator could not listen) is reported once the screen is back.
	await starting;
}

import {render} from 'ink';
import {colorful, colorless} from '../components/services.js';
import {LoadView} from '../components/load-view.js';
import {fullScreen} from '../dashboard/terminal.js';
import type {Engine} from '../engine/create-engine.js';
import type {LoadRun} from '../engine/load-run.js';
import type {PerformResult} from '../engine/perform.js';
import {asciiGlyphs, localeIsUtf8, unicodeGlyphs} from '../format/glyphs.js';
import {onCrash} from './crash.js';

/**
Runs the load under its live view on the alternate screen (frames as tall as the terminal less
one row, differences only); the summary is printed on the main screen once it ends.
*/
export async function loadLive(
	engine: Engine,
	run: LoadRun,
	options: {readonly color: boolean; readonly ascii: boolean},
): Promise<PerformResult<'endpoint.load'>> {
	const glyphs = options.ascii || !localeIsUtf8() ? asciiGlyphs : unicodeGlyphs;
	const colors = !options.color || process.env.NO_COLOR ? colorless : colorful;
	const view = () => <LoadView run={run} columns={process.stdout.columns || 80} rows={process.stdout.rows || 24} glyphs={glyphs} colors={colors} />;
	const instance = render(view(), fullScreen(10));
	const undoCrashRestore = onCrash(() => {
		instance.unmount();
	});
	const exited = instance.waitUntilExit().catch(() => undefined);
	const onResize = () => {
		instance.rerender(view());
	};

	// A signal from outside (kill, a closed terminal) stops sending and following: the summary still comes.
	const onSignal = () => {
		run.stopFollowing();
	};

	process.stdout.on('resize', onResize);
	process.on('SIGTERM', onSignal);
	process.on('SIGHUP', onSignal);
	try {
		return await engine.perform('endpoint.load', {endpointId: run.plan.endpointId}, {run});
	} finally {
		process.stdout.off('resize', onResize);
		process.off('SIGTERM', onSignal);
		process.off('SIGHUP', onSignal);
		instance.unmount();
		await exited;
		undoCrashRestore();
	}
}

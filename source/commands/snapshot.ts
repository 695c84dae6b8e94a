import {snapshotOfPast} from '../engine/take-snapshot.js';
import {formatMoment} from '../format/moment-text.js';
import {inertJson} from '../format/sanitize.js';
import {pastSnapshotText} from '../headless/past-snapshot-text.js';
import {snapshotText} from '../headless/snapshot-text.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {momentHelp} from '../lib/time-spec.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {readMoment} from './time-range.js';
import {recordedSpan, withHistory} from './with-history.js';
import {commandFlags} from './command-flags.js';

export const snapshotHelp = `
	Usage
	  $ podtop snapshot [--json] [--at TIME] [options]

	Prints one consistent picture (endpoints with health, pods with runtime, GPU types with
	stock) and exits. No TTY needed; it keeps within the same rate budgets as the dashboard.

	Options
	  --json            Print JSON instead of tables
	  --at TIME         The account as it was then, from the recorded history (nothing is polled):
	                    ${momentHelp}
${readingConnectionHelp}
${historyHelp}

	With --at, the header (and in JSON \`at\`, \`tier\`, \`alerts\`) says the moment shown and where the
	figures come from: within the raw tier (48 h by default) each thing as last sampled at or
	before then; older, the last values of the minute or hour the moment falls in.

	Exit status: 0 ok, 2 usage (a time that does not parse), 3 authentication failed, 4 not found
	(nothing recorded then), 5 network or timeout, 1 other.

	Examples
	  $ podtop snapshot --json | jq '.pods[] | select(.desiredStatus == "RUNNING") | .name'
	  $ RUNPOD_API_KEY=... podtop snapshot --endpoints abc123,def456
	  $ podtop snapshot --at 03:12          # today at 03:12 (yesterday's if that is still to come)
	  $ podtop snapshot --at 45m --json | jq '.alerts[].message'
`;

export async function runSnapshot(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(snapshotHelp, argv, commandFlags.snapshot, 'podtop snapshot');
	const {target, endpointFilter, budget, agent} = readConnectionFlags(cli.flags);
	const history = readHistoryFlags(cli.flags);
	if (cli.flags.at !== undefined) {
		const at = readMoment('--at', cli.flags.at, Date.now());
		await withHistory({target, history}, async (reader, engine) => {
			const past = await reader.stateAt(at);
			if (!past) {
				const span = await reader.span();
				const gap = span && at >= span.from && at <= span.to ? ': no podtop was recording then' : '';
				throw new NotFoundError(`nothing is recorded at ${formatMoment(at)} (${new Date(at).toISOString()})${gap}; ${await recordedSpan(reader)}`);
			}

			const snapshot = snapshotOfPast(past, {mode: engine.mode, apiHost: engine.store.getState().apiHost, endpointFilter});
			process.stdout.write(cli.flags.json ? `${inertJson(snapshot, 2)}\n` : pastSnapshotText(snapshot));
		});
		return;
	}

	await withHeadlessEngine(target, {budget, endpointFilter, allVisible: true, poll: [], agent, history}, async engine => {
		const snapshot = await engine.snapshot();
		process.stdout.write(cli.flags.json ? `${inertJson(snapshot, 2)}\n` : snapshotText(snapshot));
	});
}

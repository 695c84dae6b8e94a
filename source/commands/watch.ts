import {inertJson} from '../format/sanitize.js';
import type {WebhookReport} from '../poll/alert-notifier.js';
import {changeEvents} from '../store/change-events.js';
import {createDiagnosisEvents} from '../headless/diagnosis-events.js';
import {UsageError} from '../lib/usage-error.js';
import {alertHelp, loadAlertRules} from './alert-flags.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {historyHelp, readHistoryFlags} from './history-flags.js';
import {whenKeyRefused, withHeadlessEngine} from './headless-engine.js';
import {parseCommandLine} from './parse-command-line.js';
import {untilSignal} from './until-signal.js';
import {commandFlags} from './command-flags.js';

export const watchHelp = `
	Usage
	  $ podtop watch --jsonl [options]

	Prints one JSON line per change (endpoint health and diagnosis, pods, GPU stock, connection state) until
	interrupted. No TTY needed; it keeps within the same rate budgets as the dashboard.

	Options
	  --jsonl           One JSON object per line (the only format, and the default)
${readingConnectionHelp}
${historyHelp}
${alertHelp}

	Polling on its own (no agent records the account), watch records the account's history too.
	A firing or resolved rule is an "alert" event; each webhook post an "alert.webhook" event.
	Polling on its own, it sends the rules' [[probe]] jobs; each probe that ends is a "probe" event.
	Attached to \`podtop agent\` (or back on its own), a "source" event says so (via agent or direct).

	Examples
	  $ podtop watch --jsonl | jq -c 'select(.type == "health") | {endpointId, queue: .health.jobs.inQueue}'
`;

export async function runWatch(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(watchHelp, argv, commandFlags.watch, 'podtop watch');
	if (!cli.flags.jsonl) {
		throw new UsageError('watch prints JSON lines only: drop --no-jsonl');
	}

	const {target, endpointFilter, budget, agent, auditPath} = readConnectionFlags(cli.flags);
	const history = readHistoryFlags(cli.flags);
	const rules = loadAlertRules(cli.flags.alerts);
	let closed = false;
	const write = (event: Record<string, unknown>) => {
		if (!closed) {
			process.stdout.write(`${inertJson(event)}\n`);
		}
	};

	const alerts = rules && {
		rules,
		onWebhook({state, alert, delivered, attempts, reason, mayHaveHappened}: WebhookReport) {
			write({
				type: 'alert.webhook',
				at: new Date().toISOString(),
				state,
				rule: alert.rule,
				subject: alert.subject,
				delivered,
				attempts,
				reason,
				mayHaveHappened,
			});
		},
	};
	const notice = (line: string) => {
		process.stderr.write(`podtop: ${line}\n`);
	};

	await withHeadlessEngine(target, {budget, endpointFilter, allVisible: true, agent, alerts, history, record: true, auditPath, notice}, async engine => {
		// A reader that goes away (| head) ends the watch quietly.
		const stopped = new Promise<void>(resolve => {
			process.stdout.once('error', () => {
				closed = true;
				resolve();
			});
		});
		const {mode, apiHost} = engine.store.getState();
		write({type: 'hello', at: new Date().toISOString(), mode, apiHost});
		const diagnoses = createDiagnosisEvents();
		const unsubscribe = engine.store.subscribe((next, previous) => {
			const at = new Date().toISOString();
			for (const event of changeEvents(previous, next, at)) {
				write(event);
			}

			// Why jobs wait: told when the verdict changes (a read of health or workers can change it).
			if (next.endpoints !== previous.endpoints || next.workers !== previous.workers) {
				for (const event of diagnoses(next, Date.now())) {
					write(event);
				}
			}
		});
		engine.start();
		// A key the service refuses ends the watch (exit 3, saying what to do): nothing would come of it.
		const key = whenKeyRefused(engine.store);
		try {
			await Promise.race([untilSignal(), stopped, key.refused]);
		} finally {
			key.stop();
			unsubscribe();
		}
	});
}

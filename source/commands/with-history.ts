import {emptyConfig} from '../config/podtop-config.js';
import type {Engine} from '../engine/create-engine.js';
import type {TargetOptions} from '../engine/resolve-target.js';
import {formatRange} from '../format/moment-text.js';
import {sanitizeLine} from '../format/sanitize.js';
import {defaultHistoryDirectory} from '../history/history-file.js';
import type {HistoryReader} from '../history/history-types.js';
import type {HistoryOptions} from '../history/open-history.js';
import {NotFoundError} from '../lib/not-found-error.js';
import {UsageError} from '../lib/usage-error.js';
import {readConnectionFlags} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';

export const readerConnectionHelp = `
	Account
	  --demo            The built-in simulator's (also when no API key is configured)
	  --api-url         Job API base URL                 [default: https://api.runpod.ai/v2]
	  --graphql-url     GraphQL URL                      [default: https://api.runpod.io/graphql]
	  --profile         Profile in ~/.runpod/config.toml [default: default]

	The API key comes from RUNPOD_API_KEY or ~/.runpod/config.toml, never from a flag; it only
	names the account's history file (nothing is sent to the service).`;

type ReaderFlags = {
	readonly demo: boolean;
	readonly apiUrl?: string;
	readonly graphqlUrl?: string;
	readonly restUrl?: string;
	readonly profile?: string;
	readonly apiKey?: string;
};

/** Which account's history to read, from the reader's connection flags (podtop's config file has nothing to say to it, and `doctor` must run when that file is broken). */
export function readReaderTarget(flags: ReaderFlags): TargetOptions {
	return readConnectionFlags({...flags, budget: 0.1, readOnly: false, agent: true}, process.env, emptyConfig).target;
}

type Options = {
	readonly target: TargetOptions;
	readonly history: HistoryOptions;
	/** An empty history is an answer too (`history --info`): do not refuse it. */
	readonly emptyAllowed?: boolean;
};

/** The span recorded, for the sentences that say what there is instead: `recorded 2026-11-20 03:00:00 → 03:20:00`. */
export async function recordedSpan(reader: HistoryReader): Promise<string> {
	const span = await reader.span();
	return span ? `recorded ${formatRange(span.from, span.to)}` : 'nothing recorded yet';
}

/**
The account's recorded history for a command that reads it (`history`, `events`, `snapshot --at`):
an engine that polls nothing, its reader, and exit 4 with a sentence when there is nothing to read.
DEMO records (its simulated past is written at start; `ready` settles once it is); live reads the
account's file, or whatever source the engine chose (Prometheus, later the agent).
*/
export async function withHistory(
	{target, history, emptyAllowed = false}: Options,
	run: (reader: HistoryReader, engine: Engine) => Promise<void>,
): Promise<void> {
	if (history.disabled) {
		throw new UsageError('--no-history leaves nothing to read: drop it');
	}

	const notice = (line: string) => {
		process.stderr.write(`podtop: ${sanitizeLine(line)}\n`);
	};

	await withHeadlessEngine(
		target,
		resolved => ({allVisible: true, poll: [], history, record: resolved.mode === 'demo', notice}),
		async engine => {
			await engine.history.ready;
			const reader = engine.history.reader();
			if (!reader) {
				const where = history.directory ?? defaultHistoryDirectory();
				throw new NotFoundError(
					engine.mode === 'demo'
						? 'the demo has recorded no history yet'
						: `no history of this account in ${where}: \`podtop agent\` records it (so do the dashboard and \`watch\` when they poll on their own); --history-dir reads another folder`,
				);
			}

			if (!emptyAllowed && !(await reader.span())) {
				throw new NotFoundError(
					engine.mode === 'demo' ? 'the demo has recorded no history yet' : 'the history of this account holds nothing yet: it fills as `podtop agent` polls',
				);
			}

			await run(reader, engine);
		},
	);
}

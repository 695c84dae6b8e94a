import {historyAnswerMs, maxAnswerBytes, protocolLine, type HistoryMethod} from '../api/agent-protocol.js';
import {seriesKinds, type HistoryReader, type SeriesKind} from '../history/history-types.js';

/** What a request may ask at most: things in one series read, and events in one read. */
const maxKeys = 10_000;
const maxKeyLength = 256;
const maxEvents = 100_000;

type Call = (reader: HistoryReader) => Promise<unknown>;

/** Why arguments are refused: a sentence for the client's message. */
class BadArguments extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function moment(value: unknown, what: string): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		throw new BadArguments(`${what} must be a time in ms since the epoch`);
	}

	return value;
}

function kindOf(value: unknown): SeriesKind {
	if (!seriesKinds.includes(value as SeriesKind)) {
		throw new BadArguments(`kind must be one of ${seriesKinds.join(', ')}`);
	}

	return value as SeriesKind;
}

/** The reader call a request asks for, its arguments checked and rebuilt (nothing else of the line reaches the reader). */
function callOf(method: HistoryMethod, args: readonly unknown[]): Call {
	switch (method) {
		case 'series': {
			const [query] = args;
			if (!isRecord(query) || !Array.isArray(query.keys)) {
				throw new BadArguments('series takes {kind, keys, from, to, step?}');
			}

			if (query.keys.length > maxKeys || !query.keys.every(key => typeof key === 'string' && key.length <= maxKeyLength)) {
				throw new BadArguments(`keys must be at most ${maxKeys} ids or names`);
			}

			const step = query.step === undefined || query.step === null ? undefined : moment(query.step, 'step');
			if (step !== undefined && step <= 0) {
				throw new BadArguments('step must be positive');
			}

			const read = {kind: kindOf(query.kind), keys: query.keys as string[], from: moment(query.from, 'from'), to: moment(query.to, 'to'), step};
			return async reader => reader.series(read);
		}

		case 'stateAt': {
			const at = moment(args[0], 'at');
			return async reader => reader.stateAt(at);
		}

		case 'events': {
			const [from, to, limit] = [moment(args[0], 'from'), moment(args[1], 'to'), args[2]];
			if (limit !== undefined && limit !== null && !(Number.isSafeInteger(limit) && (limit as number) > 0 && (limit as number) <= maxEvents)) {
				throw new BadArguments(`limit must be a whole number from 1 to ${maxEvents}`);
			}

			return async reader => reader.events(from, to, typeof limit === 'number' ? limit : undefined);
		}

		case 'things': {
			const kind = args[0] === undefined || args[0] === null ? undefined : kindOf(args[0]);
			return async reader => reader.things(kind);
		}

		case 'span': {
			return async reader => reader.span();
		}

		case 'bills': {
			const [from, to] = [moment(args[0], 'from'), moment(args[1], 'to')];
			return async reader => {
				if (!reader.bills) {
					throw new Error('this history keeps no bills');
				}

				return reader.bills(from, to);
			};
		}

		case 'spend': {
			// Read through the agent's bills (serve/agent-spend.ts), never its history reader.
			throw new BadArguments('spend is not a read of the history file');
		}

		case 'info': {
			// Never the integrity check: it reads every page of the file in one call that blocks, and the
			// agent would stop polling and ticking meanwhile. `integrity` comes back unset (not checked).
			return async reader => reader.info();
		}
	}
}

/** The line answering request `id`: the agent's reader's result, or an error in a sentence. Never throws. */
export async function answerHistory(
	reader: HistoryReader | undefined,
	id: number,
	method: HistoryMethod,
	args: readonly unknown[],
	timeoutMs = historyAnswerMs,
): Promise<string> {
	const error = (text: string) => protocolLine({type: 'history', id, error: text});
	if (!reader) {
		return error('the agent keeps no history of this account (started with --no-history, or its history folder cannot be used)');
	}

	let call: Call;
	try {
		call = callOf(method, args);
	} catch (error_) {
		return error(`bad arguments to history ${method}: ${error_ instanceof Error ? error_.message : String(error_)}`);
	}

	let timer: NodeJS.Timeout | undefined;
	try {
		const result = await Promise.race([
			call(reader),
			new Promise<never>((_resolve, reject) => {
				timer = setTimeout(() => {
					reject(new Error(`history ${method} took longer than ${Math.round(timeoutMs / 1000)} s`));
				}, timeoutMs);
			}),
		]);
		const text = protocolLine({type: 'history', id, result: result ?? null});
		if (text.length > maxAnswerBytes) {
			const megabytes = Math.round(text.length / 1024 / 1024);
			return error(
				`the answer to history ${method} would be ${megabytes} MB (at most ${maxAnswerBytes / 1024 / 1024} MB): ask a shorter range, a coarser step or fewer things`,
			);
		}

		return text;
	} catch (error_) {
		return error(`history ${method} failed: ${error_ instanceof Error ? error_.message : String(error_)}`);
	} finally {
		clearTimeout(timer);
	}
}

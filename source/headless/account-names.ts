import {join} from 'node:path';
import {agentSecret} from '../api/agent-handshake.js';
import {agentSocketCandidates} from '../api/agent-protocol.js';
import {readAgentSnapshot} from '../poll/agent-feed.js';
import type {AccountSnapshot} from '../store/account-snapshot.js';

/** Something of the account a command line names: an endpoint, a pod or a GPU type. */
export type NamedThing = {
	readonly kind: 'endpoint' | 'pod' | 'gpu';
	readonly id: string;
	readonly name: string;
	/** A pod's status, when known. */
	readonly status?: string;
	/** Gone from the account (only the recorded history knows it). */
	readonly deleted: boolean;
};

export type AccountNames = {readonly from: 'agent' | 'history' | 'nothing'; readonly things: readonly NamedThing[]};

type Service = {readonly apiUrl: string; readonly graphqlUrl: string; readonly apiKey: string};

type Options = {
	/** The folder of the recorded history (`--history-dir`); the default one otherwise. */
	readonly historyDirectory?: string;
	/** How long an agent may take to hand over its snapshot. */
	readonly answerMs?: number;
};

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function fromSnapshot(account: AccountSnapshot): NamedThing[] {
	const things: NamedThing[] = [];
	for (const id of account.endpoints.order) {
		things.push({kind: 'endpoint', id, name: text(account.endpoints.byId[id]?.record.name) ?? '', deleted: false});
	}

	for (const id of account.pods.order) {
		const record = account.pods.byId[id]?.record;
		things.push({kind: 'pod', id, name: text(record?.name) ?? '', status: text(record?.desiredStatus), deleted: false});
	}

	for (const id of account.gpus.order) {
		things.push({kind: 'gpu', id, name: text(account.gpus.byId[id]?.record.displayName) ?? '', deleted: false});
	}

	return things;
}

/**
The account's endpoints, pods and GPU types with their names, for shell completion, without a
request to the service: from the agent serving the account on this host (its snapshot, then the
connection closed), else from the account's recorded history file, opened read-only.
*/
export async function accountNames(service: Service, {historyDirectory, answerMs = 500}: Options = {}): Promise<AccountNames> {
	const account = await readAgentSnapshot(agentSocketCandidates(service), agentSecret(service.apiKey), answerMs);
	if (account) {
		return {from: 'agent', things: fromSnapshot(account)};
	}

	// SQLite loads only when there is no agent to ask.
	const {defaultHistoryDirectory, historyFileName, openHistoryForReading} = await import('../history/history-file.js');
	const {createSqliteReader} = await import('../history/sqlite-reader.js');
	const file = join(historyDirectory ?? defaultHistoryDirectory(), historyFileName(service));
	let db;
	try {
		db = openHistoryForReading(file);
	} catch {
		return {from: 'nothing', things: []};
	}

	if (!db) {
		return {from: 'nothing', things: []};
	}

	const reader = createSqliteReader({db, file});
	try {
		const things = await reader.things();
		return {
			from: 'history',
			things: things.flatMap(({kind, key, name, deletedAt}) => (kind === 'account' ? [] : [{kind, id: key, name, deleted: deletedAt !== undefined}])),
		};
	} finally {
		await reader.close();
	}
}

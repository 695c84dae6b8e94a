import type {AnyFlag} from 'meow';

/**
What only this host knows, looked up on a Tab press by `podtop __complete` (never from the
service): profile names from `~/.runpod/config.toml`, the account's ids and names from the agent
serving it or from its recorded history, and the comma-separated lists built from those.
*/
export const lookupKinds = [
	'profile',
	/** An endpoint id of the account. */
	'endpoint',
	/** An endpoint id of the account, or a public model's (`run`, `job`, `cancel`, `retry`). */
	'any-endpoint',
	/** Endpoint ids, comma-separated (`--endpoints`). */
	'endpoints',
	'pod',
	/** A GPU type id ("NVIDIA L4"). */
	'gpu',
	/** What `podtop history` takes: a recorded endpoint, pod or GPU type by name or id, or "account". */
	'thing',
	/** Event types, comma-separated (`events --type`). */
	'event-types',
] as const;

export type LookupKind = (typeof lookupKinds)[number];

/**
What a flag's value or a command's operand is, for shell completion: a fixed set of words, a path
(`@file` for a value that may also be JSON or `-`), a Unix group, or a lookup. A value flag
without one completes nothing (a number, a URL, free text).
*/
export type ValueKind = {readonly choices: readonly string[]} | 'file' | 'directory' | '@file' | 'group' | LookupKind;

/**
A meow flag with what completes its value; `hidden` when it exists only to be refused (`--api-key`);
`writtenOn` for a boolean on by default that is still written as itself (`watch --jsonl`) rather
than turned off (`--no-agent`).
*/
export type CompletableFlag = AnyFlag & {readonly complete?: ValueKind; readonly hidden?: boolean; readonly writtenOn?: boolean};

export type CompletableFlags = Readonly<Record<string, CompletableFlag>>;

export const isLookupKind = (kind: unknown): kind is LookupKind => typeof kind === 'string' && (lookupKinds as readonly string[]).includes(kind);

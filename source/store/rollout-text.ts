import {formatClock} from '../format/clock.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {Rollout} from '../model/worker.js';

/** Changes of a release shown in one line at most; the rest are counted. */
const changesShown = 3;

/**
The rollout in one line: the version, the share of workers on it, and what the last release changed
(`rollout: v1 · 50 % on the latest (1 of 2), rolling out · v1 (MANUAL, 12:01:02) changed template.imageName a → b`).
Every service text is sanitised.
*/
export function rolloutLine(rollout: Rollout | undefined, now: number): string {
	if (!rollout) {
		return 'rollout: –';
	}

	const version = rollout.endpointVersion === undefined ? '?' : `v${rollout.endpointVersion}`;
	const share = `${Math.round(rollout.percentOnLatest)} % on the latest (${rollout.workersOnLatest} of ${rollout.workersTotal})${rollout.inProgress ? ', rolling out' : ''}`;
	const last = rollout.releases[0];
	if (!last) {
		return `rollout: ${version} · ${share}`;
	}

	const when = [last.source, last.createdAt === undefined ? undefined : formatClock(last.createdAt, now)].filter(Boolean).join(', ');
	const changes = last.diff.slice(0, changesShown).map(change => `${change.field} ${change.old ?? '–'} → ${change.new ?? '–'}`);
	const more = last.diff.length > changesShown ? `, ${last.diff.length - changesShown} more` : '';
	const changed = last.diff.length === 0 ? 'the first release' : `changed ${changes.join('; ')}${more}`;
	return sanitizeLine(`rollout: ${version} · ${share} · v${last.version}${when ? ` (${when})` : ''} ${changed}`);
}

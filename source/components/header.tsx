import {Box, Text} from 'ink';
import {useEffect, useMemo, useState, useSyncExternalStore} from 'react';
import {createStore} from 'zustand';
import {useShallow} from 'zustand/react/shallow';
import {formatAgo, formatClock} from '../format/clock.js';
import {formatAge, formatAgeBound, formatDuration} from '../format/duration.js';
import {balanceTexts} from '../format/balance-text.js';
import {budgetLabel} from '../format/budget-label.js';
import {bar, type Glyphs} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {serviceBudgetText} from '../format/service-budget-text.js';
import {formatSpan} from '../lib/time-spec.js';
import type {RecordingState} from '../history/history-types.js';
import {defaultSpendLimitPerHour} from '../model/balance.js';
import {oldestFetchAt} from '../store/oldest-fetch.js';
import type {PodtopState} from '../store/state.js';
import type {BudgetState} from '../store/types.js';
import {isWide} from '../view-state/layout.js';
import {currentPlace, currentView} from '../view-state/view-state.js';
import {colorless, usePodtop, useServices, useView} from './services.js';
import {useNow} from './use-now.js';

type Props = {readonly width: number; readonly readOnly: boolean};

/** The management APIs' budgets, shown first whenever they are in use. */
const managementKeys = ['v2', 'graphql'];

/** The budgets worth showing: the management APIs' (v2's, GraphQL's), plus the fullest job-API budgets (backing-off ones first). */
export function hotBudgets(budgets: Readonly<Record<string, BudgetState>>, count: number): BudgetState[] {
	const all = Object.values(budgets);
	const load = (budget: BudgetState) => (budget.backoffUntil ? 2 : budget.used / Math.max(1, budget.allowed));
	const management = managementKeys.flatMap(key => all.filter(budget => budget.key === key));
	const others = all
		.filter(budget => !managementKeys.includes(budget.key))
		.sort((a, b) => load(b) - load(a))
		.slice(0, Math.max(0, count - management.length));
	return [...management, ...others];
}

/**
The header's gauges as the text they show, from a store state. Recomputed only when the budgets or
the endpoints change, not on every store write (1,000 budgets are sorted each time).
*/
function gaugeSelector(wide: boolean, glyphs: Glyphs): (state: PodtopState) => string[] {
	let last: {budgets: unknown; endpoints: unknown; texts: string[]} | undefined;
	return state => {
		if (last?.budgets !== state.budgets || last.endpoints !== state.endpoints.byId) {
			const texts = hotBudgets(state.budgets, wide ? 3 : 1).map(budget => {
				if (budget.windows !== undefined || budget.slowed !== undefined) {
					return `${budget.backoffUntil === undefined ? ' ' : '!'}${serviceBudgetText(budget, glyphs.dot)}`;
				}

				const label = budgetLabel(budget.key, endpointId => state.endpoints.byId[endpointId]?.record.name, wide ? 14 : 10, glyphs.ellipsis);
				return `${budget.backoffUntil === undefined ? ' ' : '!'}${label} ${bar(budget.used / Math.max(1, budget.allowed), 4, glyphs)}`;
			});
			last = {budgets: state.budgets, endpoints: state.endpoints.byId, texts};
		}

		return last.texts;
	};
}

/** DEMO's simulated past, said beside the badge: being simulated and recorded, then there to see. */
function useSimulatedPast(ellipsis: string): string {
	const {engine} = useServices();
	const [ready, setReady] = useState(false);
	useEffect(() => {
		let current = true;
		void engine?.history.ready.then(() => {
			if (current) {
				setReady(true);
			}
		});
		return () => {
			current = false;
		};
	}, [engine]);
	const span = engine?.simulatedPastMs;
	// The demo's world begins on the hour: its past is 2h17m as often as 2h (`6h` when on the hour).
	const text = span === undefined ? '' : span % 3_600_000 === 0 ? formatSpan(span) : formatDuration(span / 1000);
	return span === undefined ? '' : ready ? ` past ${text} simulated ` : ` simulating the past ${text}${ellipsis} `;
}

/**
How old the oldest data on screen is, from the store's fetch times, in steps (`≤5s`, `≤1m`): read
every second, but the header redraws only when the words change (not at every poll or second).
*/
function useDataAge(atMost: string): string {
	const {store, view} = useServices();
	const read = () => {
		const viewState = view.getState();
		const place = currentPlace(viewState);
		const shown = currentView(viewState);
		const ids = place === 'endpoints' ? viewState.endpointsOnScreen : shown.type === 'endpoint' ? [shown.endpointId] : [];
		const at = oldestFetchAt(store.getState(), place, ids);
		return at === undefined ? '–' : formatAgeBound(Date.now() - at, atMost);
	};

	const [text, setText] = useState(read);
	useEffect(() => {
		const update = () => {
			setText(read());
		};

		const first = setTimeout(update, 0);
		const timer = setInterval(update, 1000);
		return () => {
			clearTimeout(first);
			clearInterval(timer);
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- `read` reads the stores when called
	}, [store, view, atMost]);
	return text;
}

/** Before the engine has started: nothing said of history yet. */
const noEngineYet = createStore<RecordingState>()(() => ({state: 'off', reason: 'starting'}));

/**
What the recorder is doing, as a word in the header, and whether it needs a look: recording (● rec),
paused (disk full, the clock back: said in red until it resumes), reading another podtop's file,
history from the agent or Prometheus, or none and why. Nothing while the engine starts.
*/
export function recordingText(recording: RecordingState, glyphs: Glyphs): {readonly text: string; readonly bad: boolean} {
	switch (recording.state) {
		case 'recording': {
			return {text: `${glyphs.recording} rec`, bad: false};
		}

		case 'paused': {
			return {text: `${glyphs.warning} rec paused: ${recording.reason}`, bad: true};
		}

		case 'reading': {
			return {text: 'history: read-only', bad: false};
		}

		case 'remote': {
			return {text: `history: ${recording.source}`, bad: false};
		}

		default: {
			return recording.reason === 'starting' || recording.reason === undefined ? {text: '', bad: false} : {text: 'no history', bad: false};
		}
	}
}

/**
Top line: DEMO or LIVE (in DEMO, that its past hours are simulated), the profile (its name, on its colour), the API host, the key as a fingerprint, the
balance and how long it lasts at the current spend (or that the API no longer publishes it), the hottest rate budgets (red when
backing off) and how fresh the data is. A banner under it when a source is failing, and one when
an alert rule fires (the oldest, and how many more).
*/
export function Header({width, readOnly}: Props) {
	const {colors, glyphs, engine} = useServices();
	const status = engine?.history.status ?? noEngineYet;
	// The words, not the state, are what the header compares: a redraw only when they change.
	const recordingWords = useSyncExternalStore(status.subscribe, () => {
		const {text, bad} = recordingText(status.getState(), glyphs);
		return `${bad ? '!' : ' '}${text}`;
	});
	const recording = {text: recordingWords.slice(1), bad: recordingWords.startsWith('!')};
	const {mode, apiHost, keyFingerprint, via, profile} = usePodtop(
		useShallow(state => ({mode: state.mode, apiHost: state.apiHost, keyFingerprint: state.keyFingerprint, via: state.via, profile: state.profile})),
	);
	// The failing sources only: each successful poll writes a new connection state, which must not redraw the header.
	const connection = usePodtop(
		useShallow(state => ({
			jobApi: state.connection.jobApi.staleSince === undefined ? undefined : state.connection.jobApi,
			graphql: state.connection.graphql.staleSince === undefined ? undefined : state.connection.graphql,
		})),
	);
	const alerts = usePodtop(state => state.alerts);
	const cursor = useView(state => state.cursor);
	const failing = (['jobApi', 'graphql'] as const).filter(source => connection[source] !== undefined);
	// Ticking only while something on screen says how long ago: a stale source, or the time cursor.
	const now = useNow(failing.length > 0 || cursor !== undefined);
	// The gauges as the text they show: the header re-renders only when that text changes, not on
	// every budget snapshot or health poll (an unchanged frame costs Ink a whole render).
	const selectGauges = useMemo(() => gaugeSelector(isWide(width), glyphs), [width, glyphs]);
	const gaugeTexts = usePodtop(useShallow(selectGauges));
	const gauges = gaugeTexts.map(text => ({key: text.slice(1), text: text.slice(1), backingOff: text.startsWith('!')}));
	const stalest = Math.min(...failing.map(source => connection[source]!.staleSince!));
	const dataAge = useDataAge(glyphs.atMost);
	const right = failing.length > 0 ? `stalest ${formatAge(stalest, now)}` : `data ${dataAge}`;
	const badge = `${mode === 'demo' ? ' DEMO ' : ' LIVE '}${readOnly ? ' READ-ONLY ' : ''}`;
	// The profile's name always, on its colour as a band when there are colours (none under NO_COLOR or --no-color).
	const profileWord = profile ? ` ${sanitizeLine(profile.name)} ` : '';
	const band = colors === colorless ? undefined : profile?.color;
	const past = useSimulatedPast(glyphs.ellipsis);
	const identity = ` ${apiHost} ${glyphs.separator}${via === 'agent' ? ` via agent ${glyphs.separator}` : ''} key ${keyFingerprint.replace('••••', glyphs.key)} ${glyphs.separator} `;
	const recordingWord = recording.text ? `${recording.text} ${glyphs.separator} ` : '';
	const balanceRead = usePodtop(state => state.balance);
	// Everything on one line, cut to fit: a line that wraps would push the frame past the screen.
	const room = width - 'podtop '.length - badge.length - profileWord.length - past.length - identity.length - recordingWord.length - right.length - 1;
	// The balance before the gauges: the widest form that fits, then the gauges in what is left.
	const balanceWord = balanceTexts(balanceRead, glyphs.dot, defaultSpendLimitPerHour).find(text => text.length + 1 <= room) ?? '';
	const gaugeRoom = room - (balanceWord ? balanceWord.length + 1 : 0);
	const shown = gauges.filter((_, index) => gauges.slice(0, index + 1).reduce((sum, gauge) => sum + gauge.text.length + 1, 0) <= gaugeRoom);
	const fill = Math.max(
		1,
		width -
			'podtop '.length -
			badge.length -
			profileWord.length -
			past.length -
			identity.length -
			recordingWord.length -
			(balanceWord ? balanceWord.length + 1 : 0) -
			shown.reduce((sum, gauge) => sum + gauge.text.length + 1, 0) -
			right.length,
	);
	return (
		<Box flexDirection='column' width={width}>
			<Text wrap='truncate'>
				<Text bold color={colors.accent}>
					podtop{' '}
				</Text>
				<Text bold inverse color={mode === 'demo' ? colors.warn : colors.good}>
					{badge}
				</Text>
				{profileWord ? (
					<Text bold inverse color={band}>
						{profileWord}
					</Text>
				) : null}
				{past ? <Text color={colors.warn}>{past}</Text> : null}
				<Text>{identity}</Text>
				{recordingWord ? <Text color={recording.bad ? colors.bad : colors.muted}>{recordingWord}</Text> : null}
				{balanceWord ? <Text color={balanceRead === 'not-published' ? colors.muted : undefined}>{`${balanceWord} `}</Text> : null}
				{shown.map(gauge => (
					<Text key={gauge.key} color={gauge.backingOff ? colors.bad : undefined}>{`${gauge.text} `}</Text>
				))}
				<Text>{' '.repeat(fill)}</Text>
				<Text color={failing.length > 0 ? colors.bad : colors.muted}>{right}</Text>
			</Text>
			{cursor === undefined ? null : (
				<Text inverse bold color={colors.accent} wrap='truncate'>
					{` AT ${formatClock(cursor, now)} (${formatAgo(cursor, now)}) ${glyphs.separator} . live ${glyphs.separator} [ ] step ${glyphs.separator} { } ten steps ${glyphs.separator} writes are off in the past `.padEnd(
						width,
					)}
				</Text>
			)}
			{failing.length > 0 ? (
				<Text inverse color={colors.bad} wrap='truncate'>
					{` ${glyphs.warning} DEGRADED: ${failing.map(source => `${source === 'jobApi' ? 'job API' : 'GraphQL'} failing since ${formatAge(connection[source]!.staleSince, now)} (${sanitizeLine(connection[source]!.lastError ?? '')})`).join('; ')} — showing last known data `.padEnd(
						width,
					)}
				</Text>
			) : null}
			{alerts.length > 0 ? (
				<Text inverse bold color={colors.warn} wrap='truncate'>
					{` ${glyphs.warning} ALERT ${sanitizeLine(alerts[0]!.rule)} ${glyphs.separator} ${sanitizeLine(alerts[0]!.subjectName)}: ${sanitizeLine(alerts[0]!.message)}${alerts.length > 1 ? ` (+${alerts.length - 1} more firing)` : ''} `.padEnd(
						width,
					)}
				</Text>
			) : null}
		</Box>
	);
}

import {Box, Text, useInput} from 'ink';
import {useEffect, useReducer, useState} from 'react';
import type {LoadRun} from '../engine/load-run.js';
import {formatMillis} from '../format/duration.js';
import {sparkline, type Glyphs} from '../format/glyphs.js';
import {textTable} from '../format/text-table.js';
import {histogramLines, jobCountsLine, latencyHeader, latencyRows} from '../headless/load-text.js';
import {coldStartRuleShort} from '../lib/cold-start.js';
import type {Services} from './services.js';

type Props = {
	readonly run: LoadRun;
	readonly columns: number;
	readonly rows: number;
	readonly glyphs: Glyphs;
	readonly colors: Services['colors'];
	/** Milliseconds between redraws. */
	readonly everyMs?: number;
};

/** Where the run is, as the footer says it. */
type Phase =
	| {readonly name: 'sending'}
	| {readonly name: 'asking'; readonly queued: number}
	| {readonly name: 'cancelling'; readonly queued: number}
	| {readonly name: 'following'; readonly note: string};

const rate = (value: number) => `${Number(value.toFixed(2))}/s`;

/** The lines under the histogram: cold starts, then the commonest errors (as many as fit). */
function tailLines(summary: ReturnType<LoadRun['summary']>, room: number): string[] {
	const lines = [`cold starts ${summary.coldStarts.count} (${coldStartRuleShort})`];
	if (summary.errors.length > 0 && room > 2) {
		lines.push('errors', ...summary.errors.slice(0, room - 2).map(({message, count}) => `${String(count).padStart(6)}  ${message}`));
	}

	return lines;
}

/**
The live view of `podtop load`, in the dashboard's manner: a title line, the job counts, the
latency table, a histogram as tall as the terminal allows, cold starts and errors, and a footer
with the keys. Ctrl-C (or q) stops sending and asks whether to cancel the jobs still queued; once
more, it stops following. Never taller than the terminal less one row.
*/
export function LoadView({run, columns, rows, glyphs, colors, everyMs = 250}: Props) {
	const [, redraw] = useReducer((count: number) => count + 1, 0);
	const [phase, setPhase] = useState<Phase>({name: 'sending'});
	useEffect(() => {
		const timer = setInterval(() => {
			redraw();
		}, everyMs);
		return () => {
			clearInterval(timer);
		};
	}, [everyMs]);

	useInput((input, key) => {
		const stop = (key.ctrl && input === 'c') || input === 'q';
		if (phase.name === 'asking') {
			if (input === 'y' || input === 'Y') {
				setPhase({name: 'cancelling', queued: phase.queued});
				void run.cancelQueued().then(cancelled => {
					setPhase({name: 'following', note: `cancelled ${cancelled} of ${phase.queued} queued`});
				});
			} else {
				setPhase({name: 'following', note: 'queued jobs left to run'});
			}

			return;
		}

		if (!stop) {
			return;
		}

		if (phase.name === 'sending') {
			run.stopSending();
			const queued = run.queuedIds().length;
			setPhase(queued > 0 ? {name: 'asking', queued} : {name: 'following', note: 'sending stopped'});
		} else {
			run.stopFollowing();
		}
	});

	const summary = run.summary();
	const width = Math.max(20, columns);
	const now = run.now();
	const sparkWidth = Math.min(30, Math.max(0, width - 60));
	const title = `podtop load · ${summary.endpointId} · ${summary.route} · ${rate(summary.ratePerSecond)} · ${formatMillis(run.elapsedMs())}`;
	const jobs = `${summary.jobs.attempted}/${summary.planned} · ${jobCountsLine(summary)}`;
	const throughput = `throughput ${rate(run.tally.recentThroughput(now))} ended (10 s)  ${sparkWidth > 0 ? sparkline(run.tally.endsPerSecond(now, sparkWidth), sparkWidth, glyphs) : ''}`;
	const table = textTable(latencyHeader, latencyRows(summary), new Set([1, 2, 3, 4, 5])).split('\n');
	const footer =
		phase.name === 'asking'
			? `${phase.queued} job${phase.queued === 1 ? '' : 's'} still queued: cancel ${phase.queued === 1 ? 'it' : 'them'}? [y/N]`
			: phase.name === 'cancelling'
				? `cancelling ${phase.queued} queued job${phase.queued === 1 ? '' : 's'}…`
				: phase.name === 'following'
					? `${phase.note}; following ${summary.unfinished} unfinished · Ctrl-C stop following`
					: 'Ctrl-C stop sending';
	// Title, jobs, throughput, the table, the histogram's title, its tail and the footer; the bars get the rest.
	const budget = Math.max(8, rows - 1);
	const fixed = 3 + table.length + 1 + 1;
	const tailRoom = Math.max(1, Math.min(6, budget - fixed - 3));
	const tail = tailLines(summary, tailRoom);
	const barRows = Math.max(0, Math.min(12, budget - fixed - tail.length - 1));
	const bars = histogramLines(barRows > 0 ? run.tally.bars(barRows) : [], Math.max(5, Math.min(40, width - 30)), glyphs.barFull);
	const line = (text: string, color?: string, key?: string) => (
		<Text key={key ?? text} wrap='truncate' color={color}>
			{text}
		</Text>
	);
	return (
		<Box flexDirection='column' width={width} height={Math.min(budget, fixed + bars.length + tail.length)} overflow='hidden'>
			<Text bold inverse wrap='truncate'>
				{title.padEnd(width)}
			</Text>
			{line(jobs, summary.jobs.failed + summary.jobs.submitErrors > 0 ? colors.warn : undefined)}
			{line(throughput)}
			{table.map((row, index) => line(row, index === 0 ? colors.muted : undefined, `table-${index}`))}
			{line(`histogram of the ${summary.histogram.of} time`, colors.accent)}
			{bars.map((row, index) => line(row, undefined, `bar-${index}`))}
			{tail.map((row, index) => line(row, index > 0 ? colors.bad : undefined, `tail-${index}`))}
			{line(footer, phase.name === 'asking' ? colors.warn : colors.muted, 'footer')}
		</Box>
	);
}

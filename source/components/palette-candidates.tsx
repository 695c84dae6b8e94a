import {Text} from 'ink';
import {useShallow} from 'zustand/react/shallow';
import type {Glyphs} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {paletteCompletion, paletteUsage, type PaletteCompletion} from '../operations/palette.js';
import {currentPlace, type PaletteCycle} from '../view-state/view-state.js';
import {usePodtop, useServices, useView} from './services.js';

/** The candidates line as pieces: a label, the candidates that fit (one of them the one Tab put in), and how many more there are. */
export type CandidatesLine = {
	readonly label: string;
	readonly candidates: ReadonlyArray<{readonly text: string; readonly current: boolean}>;
	/** Candidates before those shown (Tab went past the width) and after them. */
	readonly skipped: number;
	readonly more: number;
	/** Said when there is nothing to choose: the command's usage and what it does, or that nothing starts so. */
	readonly note?: string;
};

const gap = '  ';

/**
What the palette word may be, fitted to `width` columns: `<endpoint>  echo  llama-vllm  +3 more`.
While Tab goes round (`cycle`) those candidates are shown and the one in the input is kept in view.
Candidates are typable words (no control or wide tricks: see palette.ts), so their length is their width.
*/
export function candidatesLine(completion: PaletteCompletion, cycle: PaletteCycle | undefined, width: number, glyphs: Glyphs): CandidatesLine {
	const {kind, operation, word} = completion;
	const label = kind === 'command' ? 'commands' : kind ? `<${kind}>` : '';
	const all = cycle?.candidates ?? completion.candidates;
	if (all.length === 0) {
		const note = operation
			? `${paletteUsage(operation)} ${glyphs.dot} ${operation.title}`
			: kind === 'command'
				? `no command starts with "${sanitizeLine(word)}"`
				: 'no such command: :help lists them';
		return {label: '', candidates: [], skipped: 0, more: 0, note};
	}

	const widthOf = (start: number, end: number) =>
		label.length +
		(start > 0 ? gap.length + glyphs.ellipsis.length : 0) +
		all.slice(start, end).reduce((total, text) => total + gap.length + text.length, 0) +
		(end < all.length ? ` +${all.length - end} more`.length : 0);
	const fits = (start: number, end: number) => widthOf(start, end) <= width;
	// From the first, unless the one Tab put in would not fit: then from it.
	let start = 0;
	if (cycle && !fits(0, cycle.index + 1)) {
		start = cycle.index;
	}

	let end = start;
	while (end < all.length && fits(start, end + 1)) {
		end++;
	}

	return {
		label,
		candidates: all.slice(start, end).map((text, index) => ({text, current: cycle?.index === start + index})),
		skipped: start,
		more: all.length - end,
	};
}

/** The line above the palette (k9s shows its suggestions there): what the word typed may be, the one Tab put in marked. */
export function PaletteCandidates({width}: {readonly width: number}) {
	const {store, engine, accounts, glyphs, colors} = useServices();
	const {overlay, place} = useView(useShallow(state => ({overlay: state.overlay, place: currentPlace(state)})));
	// What the candidates are made of: the line is drawn again when these change.
	usePodtop(useShallow(state => ({endpoints: state.endpoints.order, jobs: state.jobs})));
	if (overlay.type !== 'palette') {
		return null;
	}

	const completion = paletteCompletion(overlay.input, place, engine?.readOnly ?? false, store.getState(), () => accounts?.names() ?? []);
	const line = candidatesLine(completion, overlay.cycle, width, glyphs);
	if (line.note !== undefined) {
		return (
			<Text dimColor wrap='truncate'>
				{line.note}
			</Text>
		);
	}

	return (
		<Text wrap='truncate'>
			<Text dimColor>{line.label}</Text>
			{line.skipped > 0 ? <Text dimColor>{`${gap}${glyphs.ellipsis}`}</Text> : undefined}
			{line.candidates.map(({text, current}) => (
				<Text key={text}>
					{gap}
					<Text inverse={current} color={current ? colors.accent : undefined}>
						{text}
					</Text>
				</Text>
			))}
			{line.more > 0 ? <Text dimColor>{` +${line.more} more`}</Text> : undefined}
		</Text>
	);
}

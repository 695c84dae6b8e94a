import {Text} from 'ink';
import Spinner from 'ink-spinner';
import {useShallow} from 'zustand/react/shallow';
import {sanitizeLine} from '../format/sanitize.js';
import type {Glyphs} from '../format/glyphs.js';
import {barHint} from '../operations/bars.js';
import {footerHint} from '../operations/help.js';
import {filterFields} from '../rows/filter-fields.js';
import {filterProblem} from '../view-state/filter-matcher.js';
import {isWide} from '../view-state/layout.js';
import {currentPlace, filterOf} from '../view-state/view-state.js';
import {InputLine} from './input-line.js';
import {useServices, useView} from './services.js';

type Props = {readonly width: number; readonly readOnly: boolean};

/**
Beside the filter being typed: the fields it matches and the bar's keys (`in name, gpu, status · regex, ! inverts · Enter keeps · Esc clears`),
or, while the text is not a regex, why, and that the rows of the last filter stay.
*/
function filterNote(input: string, applied: string, fields: readonly string[], glyphs: Glyphs): string {
	const problem = filterProblem(input);
	const note = problem
		? `${glyphs.warning} not a regex (${problem}): ${applied ? `the rows of /${sanitizeLine(applied)} stay` : 'every row stays'}`
		: `in ${fields.join(', ')}`;
	return `${note} ${glyphs.dot} ${barHint('filter', glyphs)}`;
}

/** The bottom line: a bar being typed in, a question, a write in flight, the last result, or the keys worth knowing here. */
export function Footer({width, readOnly}: Props) {
	const {colors, glyphs} = useServices();
	const {overlay, message, pending, place, pane, filter, wide} = useView(
		useShallow(state => ({
			overlay: state.overlay,
			message: state.message,
			pending: state.pending,
			place: currentPlace(state),
			pane: state.pane,
			filter: filterOf(state),
			wide: isWide(state.columns),
		})),
	);
	if (overlay.type === 'filter') {
		return (
			<InputLine
				prompt='/'
				value={overlay.input}
				hint={filterNote(overlay.input, filter, place === 'logs' ? ['each line'] : filterFields(pane, wide), glyphs)}
				width={width}
			/>
		);
	}

	if (overlay.type === 'palette') {
		return <InputLine prompt=':' value={overlay.input} hint={barHint('palette', glyphs)} width={width} />;
	}

	if (overlay.type === 'confirm') {
		return overlay.typeToConfirm === undefined ? (
			<Text bold wrap='truncate' color={colors.warn}>
				{`${sanitizeLine(overlay.prompt)} y/N${overlay.alternative ? ` · ${overlay.alternative.key}: ${overlay.alternative.label}` : ''}`}
			</Text>
		) : (
			// The question and its field are in the dialog above (confirm-dialog.tsx).
			<Text dimColor wrap='truncate'>
				{barHint('typed-confirm', glyphs)}
			</Text>
		);
	}

	if (pending) {
		return (
			<Text wrap='truncate' color={colors.accent}>
				<Spinner type='dots' />
				{` ${sanitizeLine(pending)}…`}
			</Text>
		);
	}

	if (overlay.type === 'form' && !message) {
		return (
			<Text dimColor wrap='truncate'>
				{barHint('form', glyphs)}
			</Text>
		);
	}

	if (message) {
		const tone = message.tone === 'good' ? colors.good : message.tone === 'bad' ? colors.bad : colors.warn;
		return (
			<Text wrap='truncate' color={tone}>
				{sanitizeLine(message.text)}
			</Text>
		);
	}

	return (
		<Text dimColor wrap='truncate'>
			{footerHint(place, readOnly, glyphs)}
		</Text>
	);
}

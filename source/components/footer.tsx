import {Text} from 'ink';
import Spinner from 'ink-spinner';
import {useShallow} from 'zustand/react/shallow';
import {sanitizeLine} from '../format/sanitize.js';
import {footerHint} from '../operations/help.js';
import {currentPlace} from '../view-state/view-state.js';
import {InputLine} from './input-line.js';
import {useServices, useView} from './services.js';

type Props = {readonly width: number; readonly readOnly: boolean};

/** The bottom line: a bar being typed in, a question, a write in flight, the last result, or the keys worth knowing here. */
export function Footer({width, readOnly}: Props) {
	const {colors, glyphs} = useServices();
	const {overlay, message, pending, place} = useView(
		useShallow(state => ({overlay: state.overlay, message: state.message, pending: state.pending, place: currentPlace(state)})),
	);
	if (overlay.type === 'filter') {
		return <InputLine prompt='/' value={overlay.input} hint={['regex, ! inverts', 'Enter apply', 'Esc clear'].join(` ${glyphs.dot} `)} width={width} />;
	}

	if (overlay.type === 'palette') {
		return (
			<InputLine
				prompt=':'
				value={overlay.input}
				hint={['Tab completes', 'Enter runs', 'Esc closes', ':help lists them'].join(` ${glyphs.dot} `)}
				width={width}
			/>
		);
	}

	if (overlay.type === 'confirm') {
		return overlay.typeToConfirm === undefined ? (
			<Text bold wrap='truncate' color={colors.warn}>
				{`${sanitizeLine(overlay.prompt)} y/N${overlay.alternative ? ` · ${overlay.alternative.key}: ${overlay.alternative.label}` : ''}`}
			</Text>
		) : (
			// The question and its field are in the dialog above (confirm-dialog.tsx).
			<Text dimColor wrap='truncate'>
				Enter confirms once the name matches · Backspace edits · Esc cancels
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
				{[
					`Tab/${glyphs.arrowKeys.up}${glyphs.arrowKeys.down} next field`,
					`${glyphs.arrowKeys.left}${glyphs.arrowKeys.right} cursor or choice`,
					'Space toggles',
					'Ctrl-S or Enter on Send: review',
					'Esc cancel (kept as a draft)',
				].join(` ${glyphs.dot} `)}
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

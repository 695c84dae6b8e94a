import {Box, Text} from 'ink';
import {wrapWords} from '../format/fit.js';
import type {Glyphs} from '../format/glyphs.js';
import {sanitizeLine} from '../format/sanitize.js';
import {confirmationMatches, type ConfirmOverlay, type Overlay} from '../view-state/view-state.js';
import {useServices} from './services.js';

/** A confirmation that asks for a name typed out (purge, terminate, delete). */
export type TypedConfirmation = ConfirmOverlay & {readonly typeToConfirm: string};

export const isTypedConfirmation = (overlay: Overlay): overlay is TypedConfirmation => overlay.type === 'confirm' && overlay.typeToConfirm !== undefined;

type Props = {readonly overlay: TypedConfirmation; readonly width: number; readonly height: number};

const maxPromptLines = 3;
const statusLines = 2;

/** Inside the border and the padding. */
const innerWidth = (width: number) => Math.max(10, width - 4);

const promptLines = (prompt: string, width: number) => wrapWords(sanitizeLine(prompt), innerWidth(width)).slice(0, maxPromptLines);

/** Lines the dialog takes: its border, the question, the field, and two for whether it matches. */
export const confirmDialogHeight = (prompt: string, width: number) => 2 + promptLines(prompt, width).length + 1 + statusLines;

/** Whether what is typed matches, in words and a mark (never colour alone), and after a refused Enter, why nothing was sent. */
function confirmStatus(overlay: TypedConfirmation, glyphs: Glyphs): {readonly text: string; readonly tone: 'good' | 'bad' | 'muted'} {
	const name = sanitizeLine(overlay.typeToConfirm);
	const typed = sanitizeLine(overlay.input);
	if (confirmationMatches(overlay)) {
		return {text: `${glyphs.match} matches "${name}": Enter confirms`, tone: 'good'};
	}

	if (overlay.rejected) {
		const why = /^(?:y|yes|n|no)$/i.test(overlay.input) ? `this asks for the name, not "${typed}"` : `"${typed}" does not match "${name}"`;
		return {text: `${glyphs.mismatch} not sent: ${why}. Type "${name}" (it replaces this), or Esc to cancel.`, tone: 'bad'};
	}

	return overlay.typeToConfirm.startsWith(overlay.input)
		? {text: `${glyphs.mismatch} does not match yet`, tone: 'muted'}
		: {text: `${glyphs.mismatch} does not match "${name}" (Backspace edits)`, tone: 'bad'};
}

/**
A typed confirmation, drawn above the footer over the pane it acts on: the question, the field
with what is typed, and whether it matches. It stays until the text matches and Enter, or Esc.
*/
export function ConfirmDialog({overlay, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const inner = innerWidth(width);
	const label = `Type "${sanitizeLine(overlay.typeToConfirm)}" to confirm: `;
	// The field keeps its end (and the cursor) in view when the text is longer than the line.
	const typed = [...sanitizeLine(overlay.input)];
	const room = Math.max(1, inner - label.length - 1);
	const shown = typed.slice(Math.max(0, typed.length - room)).join('');
	const status = confirmStatus(overlay, glyphs);
	const statusText = wrapWords(status.text, inner).slice(0, statusLines);
	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle={glyphs.border} borderColor={colors.bad} paddingX={1}>
			{promptLines(overlay.prompt, width).map((line, index) => (
				<Text key={index} bold wrap='truncate'>
					{line}
				</Text>
			))}
			<Text wrap='truncate'>
				{label.slice(0, inner)}
				<Text bold color={colors.accent} inverse={overlay.rejected}>
					{shown}
				</Text>
				{overlay.rejected ? '' : <Text inverse> </Text>}
			</Text>
			{statusText.map((line, index) => (
				<Text
					key={index}
					wrap='truncate'
					bold={overlay.rejected}
					color={status.tone === 'muted' ? undefined : colors[status.tone]}
					dimColor={status.tone === 'muted'}
				>
					{line}
				</Text>
			))}
		</Box>
	);
}

import {Box, Text} from 'ink';
import type {ReactNode} from 'react';
import {sanitizeLine} from '../format/sanitize.js';
import type {Field, FormCheck} from '../forms/form.js';
import {lineAndColumn} from '../forms/text-edit.js';
import type {FormOverlay} from '../view-state/view-state.js';
import {useServices} from './services.js';

type Props = {
	readonly title: string;
	readonly overlay: FormOverlay;
	readonly fields: readonly Field[];
	readonly check: FormCheck<unknown>;
	readonly width: number;
	readonly height: number;
};

/** One line of text with the cursor drawn on it, scrolled sideways to keep the cursor in view. */
function CursorLine({text, cursor, width}: {readonly text: string; readonly cursor: number | undefined; readonly width: number}) {
	if (cursor === undefined) {
		return <Text wrap='truncate'>{sanitizeLine(text.slice(0, width))}</Text>;
	}

	const start = Math.max(0, cursor - width + 1);
	const at = text[cursor] ?? ' ';
	return (
		<Text wrap='truncate'>
			{sanitizeLine(text.slice(start, cursor))}
			<Text inverse>{sanitizeLine(at)}</Text>
			{sanitizeLine(text.slice(cursor + 1, start + width))}
		</Text>
	);
}

/** A form's fields, problems beside them as they are typed, the Send button and what it will send. */
export function FormView({title, overlay, fields, check, width, height}: Props) {
	const {colors, glyphs} = useServices();
	const labelWidth = Math.max(...fields.map(field => field.label.length)) + 3;
	// Inside the border and padding (4), after the label and the editor's left rule (1).
	const valueWidth = Math.max(8, width - labelWidth - 5);
	// Border, title, one line per other field, the JSON's problem line, Send.
	const editorHeight = Math.max(3, height - 2 - 1 - (fields.length - 1) - 1 - 1);
	const rows: ReactNode[] = [];
	for (const [index, field] of fields.entries()) {
		const focused = index === overlay.focus;
		const value = overlay.values[field.name] ?? '';
		const problem = check.problems[field.name];
		const note = problem ? <Text color={colors.bad}>{`  ${glyphs.warning} ${problem}`}</Text> : <Text dimColor>{field.hint ? `  ${field.hint}` : ''}</Text>;
		const label = (
			<Text bold={focused} color={focused ? colors.accent : undefined}>
				{`${focused ? '›' : ' '} ${field.label}`.padEnd(labelWidth)}
			</Text>
		);
		if (field.kind === 'json') {
			const lines = value.split('\n');
			const {line: cursorLine, column} = lineAndColumn(value, overlay.cursor);
			const first = Math.max(0, Math.min(lines.length - editorHeight, cursorLine - editorHeight + 1));
			for (const [offset, text] of lines.slice(first, first + editorHeight).entries()) {
				const lineIndex = first + offset;
				rows.push(
					<Text key={`${field.name}-${lineIndex}`} wrap='truncate'>
						{offset === 0 ? label : ' '.repeat(labelWidth)}
						<Text color={colors.muted}>{glyphs.separator}</Text>
						<CursorLine text={text} cursor={focused && lineIndex === cursorLine ? column : undefined} width={valueWidth} />
					</Text>,
				);
			}

			// The editor keeps its height as the text grows, up to what the screen allows.
			const shownLines = Math.min(lines.length, editorHeight);
			for (let blank = shownLines; blank < Math.min(editorHeight, 8); blank++) {
				rows.push(
					<Text key={`${field.name}-blank-${blank}`} color={colors.muted}>
						{`${' '.repeat(labelWidth)}${glyphs.separator}`}
					</Text>,
				);
			}

			rows.push(
				<Text key={`${field.name}-note`} wrap='truncate'>
					{' '.repeat(labelWidth)}
					{problem ? (
						<Text color={colors.bad}>{`${glyphs.separator}${glyphs.warning} ${problem}`}</Text>
					) : (
						<Text
							color={colors.good}
						>{`${glyphs.separator} valid JSON${lines.length > editorHeight ? ` · line ${cursorLine + 1} of ${lines.length}` : ''}`}</Text>
					)}
				</Text>,
			);
			continue;
		}

		const shown =
			field.kind === 'text' ? (
				<>
					<CursorLine text={value} cursor={focused ? overlay.cursor : undefined} width={valueWidth} />
					{' '.repeat(Math.max(0, Math.min(12, valueWidth) - value.length - (focused ? 1 : 0)))}
				</>
			) : (
				<Text color={focused ? colors.accent : undefined}>
					{(field.choices ?? []).map(choice => (choice === value ? `‹${choice}›` : ` ${choice} `)).join(' ')}
				</Text>
			);
		rows.push(
			<Text key={field.name} wrap='truncate'>
				{label}
				{shown}
				{note}
			</Text>,
		);
	}

	const sendFocused = overlay.focus >= fields.length;
	const problemCount = Object.keys(check.problems).length;
	return (
		<Box flexDirection='column' width={width} height={height} borderStyle={glyphs.border} borderColor={colors.accent} paddingX={1}>
			<Text bold color={colors.accent} wrap='truncate'>
				{sanitizeLine(title)}
			</Text>
			{rows}
			<Text wrap='truncate'>
				<Text bold inverse={sendFocused} color={problemCount > 0 ? colors.muted : colors.good}>
					[ Send ]
				</Text>
				<Text>{`  ${check.summary}`}</Text>
				<Text color={colors.bad}>{problemCount > 0 ? ` · ${problemCount} to fix` : ''}</Text>
			</Text>
		</Box>
	);
}

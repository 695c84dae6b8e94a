import {EventEmitter} from 'node:events';
import {Box, Text, render} from 'ink';
import {expect, test} from 'vitest';
import {fullScreen} from '../../source/dashboard/terminal.js';

const enterAlternateScreen = '\u001B[?1049h';
const leaveAlternateScreen = '\u001B[?1049l';
const showCursor = '\u001B[?25h';

/** A terminal of 40×10 that keeps what was written to it. */
function fakeTerminal() {
	const written: string[] = [];
	// eslint-disable-next-line unicorn/prefer-event-target -- Ink calls a stdout's on and off, as a Node stream has
	const stream = Object.assign(new EventEmitter(), {
		columns: 40,
		rows: 10,
		isTTY: true,
		writable: true,
		write(chunk: string, callback?: () => void) {
			written.push(chunk);
			callback?.();
			return true;
		},
	});
	return {stream: stream as unknown as NodeJS.WriteStream, written};
}

/** A frame of `height` rows, `changed` on its fourth. */
function Frame({height, changed}: {readonly height: number; readonly changed: string}) {
	return (
		<Box flexDirection='column' height={height}>
			{Array.from({length: height}, (_, row) => (
				<Text key={row}>{row === 3 ? changed : `row ${row} stays`}</Text>
			))}
		</Box>
	);
}

const settle = async () => new Promise(resolve => setTimeout(resolve, 60));

// Under Ink 6.8 (podtop's own frame diffing then) a frame as tall as the screen was redrawn whole, and a shorter one was diffed a row too low.
test.each([10, 6])('a frame of %i rows on a screen of 10: a change sends the changed row, not the frame', async height => {
	const {stream, written} = fakeTerminal();
	const instance = render(<Frame height={height} changed='before' />, fullScreen(30, stream));
	await settle();
	expect(written.join('')).toContain(enterAlternateScreen);
	expect(written.join('')).toContain('row 0 stays');
	written.length = 0;
	instance.rerender(<Frame height={height} changed='after' />);
	await settle();
	const update = written.join('');
	expect(update).toContain('after');
	expect(update).not.toContain('stays');
	written.length = 0;
	instance.rerender(<Frame height={height} changed='after' />);
	await settle();
	expect(written.join('')).toBe('');
	instance.unmount();
});

test('unmounting (as a crash does before its message) leaves the alternate screen with the cursor shown, and draws nothing after', async () => {
	const {stream, written} = fakeTerminal();
	const instance = render(<Text>frame 1</Text>, fullScreen(30, stream));
	await settle();
	// Two updates inside one 33 ms throttle window: the second is pending when the crash comes.
	instance.rerender(<Text>frame 2</Text>);
	instance.rerender(<Text>frame 3</Text>);
	instance.unmount();
	const [onAlternate, after] = written.join('').split(leaveAlternateScreen);
	expect(onAlternate).toContain(enterAlternateScreen);
	expect(after).toBe(showCursor);
});

import {EventEmitter} from 'node:events';
import {Text, render} from 'ink';
import {expect, test} from 'vitest';
import {takeOverTerminal} from '../../source/dashboard/terminal.js';

const leaveAlternateScreen = '\u001B[?1049l';

/** A terminal that keeps what was written to it. */
function fakeTerminal() {
	const written: string[] = [];
	// eslint-disable-next-line unicorn/prefer-event-target -- Ink calls a stdout's on and off, as a Node stream has
	const stream = Object.assign(new EventEmitter(), {
		columns: 40,
		rows: 10,
		isTTY: true,
		writable: true,
		write(chunk: string) {
			written.push(chunk);
			return true;
		},
	});
	return {stream: stream as unknown as NodeJS.WriteStream, written};
}

test('once the terminal is given back, the frame Ink still owes (its exit hook flushes it) is not drawn on the main screen', async () => {
	const {stream, written} = fakeTerminal();
	const terminal = takeOverTerminal(stream);
	const instance = render(<Text>frame 1</Text>, {stdout: terminal.stdout, exitOnCtrlC: false, patchConsole: false, maxFps: 30});
	await new Promise(resolve => setTimeout(resolve, 50));
	// Two updates inside one 33 ms throttle window: the second is pending when the crash comes. (Under CI=true Ink
	// draws no frame until it unmounts, and then the last one: the same frame owed, which must not come either.)
	instance.rerender(<Text>frame 2</Text>);
	instance.rerender(<Text>frame 3</Text>);
	terminal.restore();
	instance.unmount();
	const after = written.join('').split(leaveAlternateScreen);
	expect(after).toHaveLength(2);
	expect(after[1]).toBe('');
	expect(after[0]).not.toContain('frame 3');
});

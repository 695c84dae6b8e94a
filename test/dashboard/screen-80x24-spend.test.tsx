import {describe, expect, test} from 'vitest';
import {App} from '../../source/dashboard/app.js';
import {asciiTerminal} from '../../source/dashboard/ascii-terminal.js';
import {asciiGlyphs, unicodeGlyphs, type Glyphs} from '../../source/format/glyphs.js';
import {closedAfterEach, engineFor} from '../helpers/engine.js';
import {startTestSim} from '../helpers/sim-client.js';
import {frameMatching, renderWith, tick} from '../helpers/ui-fixture.js';

const running = closedAfterEach();

/** A frame's lines without escape sequences. */
const plain = (frame: string) => frame.replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, '');

/** The Spend pane at 80×24 over REST v2 in each of its windows, as drawn with these glyphs. */
async function spendShots(glyphs: Glyphs, readOnly: boolean): Promise<string[]> {
	running.sim = await startTestSim({graphqlRate: 1000, restQuota: {minute: 10_000, hour: 100_000, day: 1_000_000}});
	running.engine = await engineFor(running.sim, {poll: ['endpoints', 'pods', 'gpus'], readOnly, budget: {graphqlPerWindow: 200}});
	running.engine.start();
	const {lastFrame, stdin} = renderWith({store: running.engine.store}, <App readOnly={readOnly} />, {
		engine: running.engine,
		glyphs,
		view: {columns: 80, rows: 24},
		terminal: stdout => asciiTerminal(stdout, () => glyphs === asciiGlyphs),
	});
	const shots: string[] = [];
	stdin.write('4');
	for (const window of ['24h by hour', '7d by day', '30d by day', '1y by month']) {
		await frameMatching(lastFrame, new RegExp(String.raw`^Spend \S+ ${window} \S+ \$[\d.]+[\s\S]*KIND +NAME`, 'm'), 15_000);

		await tick(100);
		shots.push(lastFrame() ?? '');
		stdin.write('>');
	}

	return shots;
}

describe('the Spend pane at 80×24', () => {
	for (const [name, glyphs, readOnly] of [
		['unicode', unicodeGlyphs, false],
		['--ascii, read-only', asciiGlyphs, true],
	] as const) {
		test(`${name}: every window fits in 24 lines of 80 columns, with its figures, its chart and the costliest resources`, async () => {
			for (const frame of await spendShots(glyphs, readOnly)) {
				const lines = plain(frame).split('\n');
				expect(lines.length, frame).toBeLessThanOrEqual(24);
				for (const line of lines) {
					expect([...line].length, line).toBeLessThanOrEqual(80);
					if (glyphs === asciiGlyphs) {
						expect([...line].filter(character => character.codePointAt(0)! > 0x7e).join(''), line).toBe('');
					}
				}

				expect(lines[2], frame).toMatch(/^Spend /);
				// This window's bills, not the last window's drawn in this one's buckets while it loads.
				expect(frame).not.toMatch(/reading the bills/);
				expect(frame).toMatch(/^today \$[\d.]+/m);
				expect(frame).toMatch(/^month to date \$[\d.]+/m);
				expect(frame).toMatch(/^by category/m);
				expect(frame).toMatch(/^pod +llama-3-70b-finetune +\$/m);
			}
		}, 120_000);
	}
});

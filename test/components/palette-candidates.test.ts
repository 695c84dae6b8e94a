import {expect, test} from 'vitest';
import {candidatesLine} from '../../source/components/palette-candidates.js';
import {unicodeGlyphs} from '../../source/format/glyphs.js';
import {paletteCompletion} from '../../source/operations/palette.js';
import {testStore} from '../helpers/ui-fixture.js';

test('the candidates line fits its width, keeps the one Tab put in in view, and says the usage when there is nothing to choose', () => {
	const state = testStore();
	state.writes.setEndpoints(
		Array.from({length: 30}, (_, index) => ({id: `ep${index}`, name: `endpoint-${index}`})),
		0,
	);
	const completion = paletteCompletion('run ', 'endpoints', false, state.store.getState());
	const line = candidatesLine(completion, undefined, 80, unicodeGlyphs);
	const text = (shown: typeof line) =>
		`${shown.label}${shown.skipped > 0 ? '  …' : ''}${shown.candidates.map(({text}) => `  ${text}`).join('')}${shown.more > 0 ? ` +${shown.more} more` : ''}`;
	expect(text(line)).toMatch(/^<endpoint> {2}endpoint-0 {2}endpoint-1 {2}.* \+\d+ more$/);
	expect(text(line).length).toBeLessThanOrEqual(80);
	expect(line.candidates.length + line.more).toBe(30);
	const cycled = candidatesLine(completion, {head: 'run ', candidates: completion.candidates, index: 20}, 80, unicodeGlyphs);
	expect(text(cycled).length).toBeLessThanOrEqual(80);
	expect(cycled.candidates.find(candidate => candidate.current)?.text).toBe('endpoint-20');
	expect(cycled.skipped).toBe(20);
	const none = candidatesLine(paletteCompletion('at ', 'endpoints', false, state.store.getState()), undefined, 80, unicodeGlyphs);
	expect(none.note).toMatch(/^:at · show the account at a time/);
	expect(candidatesLine(paletteCompletion('x\u001B[2J', 'endpoints', false, state.store.getState()), undefined, 80, unicodeGlyphs).note).toBe(
		'no command starts with "x␛[2J"',
	);
});

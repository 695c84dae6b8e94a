import {expect, test} from 'vitest';
import {asciiGlyphs} from '../../source/format/glyphs.js';
import {barHint} from '../../source/operations/bars.js';

test('every bar’s hint is made of its keys, in either alphabet', () => {
	expect(barHint('filter')).toBe('regex, ! inverts · Enter keeps · Esc clears');
	expect(barHint('palette')).toBe('Tab completes, again: the next · Enter runs · Esc closes · :help lists them');
	expect(barHint('form')).toBe('Tab/↑/↓ next field · ←/→ cursor or choice · Space toggles · Ctrl-S or Enter on Send: review · Esc cancel (kept as a draft)');
	expect(barHint('typed-confirm')).toBe('Enter confirms once the name matches · Backspace edits · Esc cancels');
	expect(barHint('form', asciiGlyphs)).toMatch(/^[\u0020-\u007E]+$/);
});

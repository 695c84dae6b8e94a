// Changes to Ink's own files that the bundle makes as it loads them (scripts/bundle.js), each written for one
// release of Ink: package.json pins `ink` to it, and the build stops when the installed Ink is another
// release or a file no longer has the text a patch replaces, rather than drawing a silently different frame.
// test/package/ink-patches.test.ts draws random frames with Ink's Output and the patched one and compares them.
import {readFileSync} from 'node:fs';

/** The Ink release the patches below were written for (and the one package.json pins). */
export const inkVersion = '8.0.0';

/**
Ink 8 draws every frame from nothing: each frame's Output makes its own caches (string widths, styled
characters), cuts every text into styled characters, builds an object for each cell of the screen (120×40:
4,800) and joins every row again, though most rows are the last frame's; each text node's width is measured
again before wrapping too. Here the Output's measures outlive the frame, bounded as Ink bounds its other text
caches (quick-lru), a text node's width comes from the layout's cache, and a row whose writes
(column and line, in order) are the last frame's keeps the last frame's string: a row is a function of the
frame's width and its writes alone, drawn by Ink's own code when it changed.
Measured side by side with the build before (two builds taking turns against one simulator, the bundle as its bin,
Pods pane, steady): at 500 endpoints + 2,000 pods (two minutes after 90 s, load 7.6 → 2.5) CPU 3.44 → 2.45 % of a
core, peak RSS 143.8 → 138.6 MB, key→frame p95 20.9 → 17.5 ms (at load 7.3-8.6: 106 → 51 ms); at 1,000 + 10,000
(one minute, load 3.7-5.4) CPU 6.00 → 5.03 %, peak RSS 188.6 → 187.8 MB. Ink's time per frame (its onRender's
renderTime) 26.3 → 8.9 ms at 500 + 2,000 with the caches alone.
*/
export const inkPatches = [
	{
		file: /[\\/]ink[\\/]build[\\/]output\.js$/,
		edits: [
			{
				find: "import stringWidth from 'string-width';",
				replace: "import stringWidth from 'string-width';\nimport QuickLRU from 'quick-lru';",
			},
			{
				// Kept by their text (a line is a few hundred bytes): 1,024 to 2,048 of each (quick-lru keeps two generations) hold a
				// frame's texts. With 4,096 the caches filled with texts of past frames: peak RSS +11 MB at 1,000 endpoints + 10,000 pods.
				// Styled characters are objects (about 100 bytes a character): they last one frame, as in Ink.
				find: '    widths = new Map();\n    blockWidths = new Map();\n    styledChars = new Map();',
				replace: [
					'    widths = new QuickLRU({maxSize: 1024});',
					'    blockWidths = new QuickLRU({maxSize: 1024});',
					'    lines = new QuickLRU({maxSize: 1024});',
					'    slices = new QuickLRU({maxSize: 1024});',
					'    styledChars = new Map();',
					"    /** A text cut into lines at its newlines, styles carried over each (Ink's, from a cache). */",
					'    getLines(text) {',
					'        let lines = this.lines.get(text);',
					'        if (lines === undefined) {',
					'            const characterLines = [[]];',
					'            for (const character of this.getStyledChars(text)) {',
					String.raw`                if (character.value === '\n') {`,
					'                    characterLines.push([]);',
					'                }',
					'                else {',
					'                    characterLines.at(-1).push(character);',
					'                }',
					'            }',
					'            lines = characterLines.map(line => styledCharsToString(line));',
					'            this.lines.set(text, lines);',
					'        }',
					'        return lines;',
					'    }',
				].join('\n'),
			},
			{
				find: 'export default class Output {',
				replace: [
					"// podtop's build: one set of caches for every frame, and the last frame's rows, each with the writes that made it.",
					'const sharedCaches = new OutputCaches();',
					'const lastFrame = {width: -1, rows: []};',
					'const sameWrites = (left, right) => {',
					'    if (left.length !== right.length) {',
					'        return false;',
					'    }',
					'    for (let index = 0; index < right.length; index++) {',
					'        if (left[index] !== right[index]) {',
					'            return false;',
					'        }',
					'    }',
					'    return true;',
					'};',
					'export default class Output {',
				].join('\n'),
			},
			{
				find: '    caches = new OutputCaches();',
				replace: '    caches = sharedCaches;',
			},
			{
				find: [
					'        const characterLines = [[]];',
					'        for (const character of this.caches.getStyledChars(text)) {',
					String.raw`            if (character.value === '\n') {`,
					'                characterLines.push([]);',
					'            }',
					'            else {',
					'                characterLines.at(-1).push(character);',
					'            }',
					'        }',
					'        let lines = characterLines.map(line => styledCharsToString(line));',
				].join('\n'),
				replace: '        let lines = this.caches.getLines(text);',
			},
			{
				// A row is a function of the frame's width and its writes (column, line, …) alone: the writes are
				// recorded here, and drawn (drawLine, Ink's own code) only for a row whose writes differ from the last frame's.
				find: [
					'            const characters = this.caches.getStyledChars(line);',
					'            // Nothing to write (e.g. line was clipped away).',
					'            if (characters.length === 0) {',
					'                continue;',
					'            }',
				].join('\n'),
				replace: [
					'            currentLine.push(x, line);',
					'        }',
					'    }',
					'    drawLine(currentLine, x, line) {',
					'        {',
					'            const characters = this.caches.getStyledChars(line);',
					'            if (characters.length === 0) {',
					'                return;',
					'            }',
				].join('\n'),
			},
			{
				find: '    sliceLineToColumns(line, from, to) {\n',
				replace: [
					'    sliceLineToColumns(line, from, to) {',
					// eslint-disable-next-line no-template-curly-in-string -- Ink's code, as text
					'        const key = `${from}\\u0000${to}\\u0000${line}`;',
					'        let sliced = this.caches.slices.get(key);',
					'        if (sliced === undefined) {',
					'            sliced = this.sliceLineToColumnsOnce(line, from, to);',
					'            this.caches.slices.set(key, sliced);',
					'        }',
					'        return sliced;',
					'    }',
					'    sliceLineToColumnsOnce(line, from, to) {',
					'',
				].join('\n'),
			},
			{
				find: [
					'        const output = [];',
					'        for (let y = 0; y < this.height; y++) {',
					'            const row = [];',
					'            for (let x = 0; x < this.width; x++) {',
					'                row.push({',
					"                    type: 'char',",
					"                    value: ' ',",
					'                    fullWidth: false,',
					'                    styles: [],',
					'                });',
					'            }',
					'            output.push(row);',
					'        }',
				].join('\n'),
				replace: [
					'        this.caches.styledChars.clear();',
					'        const output = [];',
					'        for (let y = 0; y < this.height; y++) {',
					'            output.push([]);',
					'        }',
				].join('\n'),
			},
			{
				find: [
					'        const generatedOutput = output',
					'            .map(line => {',
					'            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742',
					'            const lineWithoutEmptyItems = line.filter(item => item !== undefined);',
					'            return styledCharsToString(lineWithoutEmptyItems).trimEnd();',
					'        })',
					String.raw`            .join('\n');`,
				].join('\n'),
				replace: [
					'        const sameWidth = this.width === lastFrame.width;',
					'        const rows = output.map((writes, y) => {',
					'            const last = sameWidth ? lastFrame.rows[y] : undefined;',
					'            if (last !== undefined && sameWrites(last.writes, writes)) {',
					'                return last;',
					'            }',
					'            const line = [];',
					'            for (let x = 0; x < this.width; x++) {',
					"                line.push({type: 'char', value: ' ', fullWidth: false, styles: []});",
					'            }',
					'            for (let index = 0; index < writes.length; index += 2) {',
					'                this.drawLine(line, writes[index], writes[index + 1]);',
					'            }',
					'            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742',
					'            const lineWithoutEmptyItems = line.filter(item => item !== undefined);',
					'            return {writes, text: styledCharsToString(lineWithoutEmptyItems).trimEnd()};',
					'        });',
					'        lastFrame.width = this.width;',
					'        lastFrame.rows = rows;',
					String.raw`        const generatedOutput = rows.map(row => row.text).join('\n');`,
				].join('\n'),
			},
		],
	},
	{
		file: /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/,
		edits: [
			{
				find: "import widestLine from 'widest-line';",
				replace: "import measureText from './measure-text.js';",
			},
			{
				// measureText(text).width is widestLine(text) for text that is not empty (checked just above), kept in a bounded cache.
				find: '            const currentWidth = widestLine(text);',
				replace: '            const currentWidth = measureText(text).width;',
			},
		],
	},
];

/** Stops the build (throws) unless the installed Ink is the release the patches were written for. */
export function checkInkVersion(installed = JSON.parse(readFileSync(new URL('../node_modules/ink/package.json', import.meta.url), 'utf8')).version) {
	if (installed !== inkVersion) {
		throw new Error(
			`Ink ${installed} is installed, but scripts/ink-patches.js was written for Ink ${inkVersion}: check each patch against the new release's files (or drop it if upstream fixed it), then set inkVersion and pin "ink" in package.json to the new version`,
		);
	}
}

/** The file's text with the edits made, or an error naming the first text the file no longer has. */
export function applyEdits(path, text, edits) {
	let patched = text;
	for (const {find, replace} of edits) {
		if (!patched.includes(find)) {
			return {error: `${path} no longer has the text scripts/ink-patches.js patches (${find.trim().slice(0, 60)}…): look again at inkPatches`};
		}

		patched = patched.replace(find, replace);
	}

	return {text: patched};
}

/** An esbuild plugin that makes the edits as Ink's files load. */
export const inkPatchPlugin = {
	name: 'ink-patches',
	setup(build) {
		checkInkVersion();
		for (const {file, edits} of inkPatches) {
			build.onLoad({filter: file}, async args => {
				const result = applyEdits(args.path, readFileSync(args.path, 'utf8'), edits);
				return result.error ? {errors: [{text: result.error}]} : {contents: result.text, loader: 'js'};
			});
		}
	},
};

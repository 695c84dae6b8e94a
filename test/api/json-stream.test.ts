import {describe, expect, test, vi} from 'vitest';
import {parseSplitJson} from '../../source/api/json-stream.js';
import {seededRandom} from '../helpers/seeded-random.js';

const awkward = ['{', '}', '[', ']', '"', '\\', ',', ':', 'é', '×', '😀', '\n', '\u0000', 'plain'];

function value(next: () => number, depth: number): unknown {
	const pick = Math.floor(next() * (depth > 3 ? 4 : 7));
	switch (pick) {
		case 0: {
			return Array.from({length: 1 + Math.floor(next() * 4)}, () => awkward[Math.floor(next() * awkward.length)]).join('');
		}

		case 1: {
			return Math.round(next() * 1e6) / 100;
		}

		case 2: {
			return next() < 0.5 ? null : next() < 0.5;
		}

		case 3: {
			return '';
		}

		case 4: {
			return Array.from({length: Math.floor(next() * 4)}, () => value(next, depth + 1));
		}

		default: {
			return Object.fromEntries(Array.from({length: Math.floor(next() * 4)}, (_, index) => [`${awkward[index]!}k${index}`, value(next, depth + 1)]));
		}
	}
}

/** The bytes of `text` in chunks of 1 to `most` bytes: multi-byte characters are cut apart. */
async function* chunked(text: string, next: () => number, most: number): AsyncGenerator<Uint8Array> {
	const bytes = new TextEncoder().encode(text);
	for (let start = 0; start < bytes.length;) {
		const end = start + 1 + Math.floor(next() * most);
		yield bytes.subarray(start, end);
		start = end;
	}
}

/** The document with each index placed back by its element, at the list's path. */
function rejoined({document, elements}: {document: unknown; elements: unknown[]}): unknown {
	const answer = structuredClone(document) as {data: {myself: {pods: unknown[]}}};
	answer.data.myself.pods = answer.data.myself.pods.map(item => (typeof item === 'number' ? elements[item] : item));
	return answer;
}

describe('parseSplitJson', () => {
	test('200 random answers in random chunks parse as JSON.parse parses them whole, each list object apart', async () => {
		for (let seed = 1; seed <= 200; seed++) {
			const next = seededRandom(seed);
			const pods = Array.from({length: Math.floor(next() * 6)}, () => ({id: String(next()), extra: value(next, 0), nested: [{deeper: value(next, 2)}]}));
			const answer = {before: value(next, 1), data: {myself: {pods, after: value(next, 2)}}, errors: [{message: 'x', path: ['a'], locations: [{line: 1}]}]};
			const text = JSON.stringify(answer, undefined, seed % 2 === 0 ? 2 : undefined);

			const split = await parseSplitJson(chunked(text, next, seed % 3 === 0 ? 3 : 64), ['data', 'myself', 'pods']);
			expect(split.elements, `seed ${seed}`).toHaveLength(pods.length);
			expect(rejoined(split), `seed ${seed}`).toEqual(JSON.parse(text));
		}
	});

	test('the list on the path is indices; lists elsewhere, at its depth or not, are left whole', async () => {
		const text =
			'{"other":[{"id":"c"}],"data":{"myself":{"list":[{"id":"d"}],"pods":[{"id":"a","gpus":[{"u":1}]},null,{"id":"b"}]}},"errors":[{"locations":[{"line":1}]}]}';
		const split = await parseSplitJson(chunked(text, seededRandom(7), 10), ['data', 'myself', 'pods']);
		expect(split.document).toEqual({other: [{id: 'c'}], data: {myself: {list: [{id: 'd'}], pods: [0, null, 1]}}, errors: [{locations: [{line: 1}]}]});
		expect(split.elements).toEqual([{id: 'a', gpus: [{u: 1}]}, {id: 'b'}]);
	});

	test('the objects a chunk holds whole are parsed in one call: 2,000 pods in 64 KB chunks are tens of calls, not thousands', async () => {
		const pods = Array.from({length: 2000}, (_, index) => ({id: `pod-${index}`, runtime: {gpus: [{gpuUtilPercent: index % 100}]}, name: `n{${index}}`}));
		const text = JSON.stringify({data: {myself: {pods}}});
		async function* chunks() {
			const bytes = new TextEncoder().encode(text);
			for (let start = 0; start < bytes.length; start += 65_536) {
				yield bytes.subarray(start, start + 65_536);
			}
		}

		const parse = vi.spyOn(JSON, 'parse');
		try {
			const split = await parseSplitJson(chunks(), ['data', 'myself', 'pods']);
			expect(split.elements).toEqual(pods);
			expect(parse.mock.calls.length).toBeLessThan(Math.ceil(text.length / 65_536) + 2);
		} finally {
			parse.mockRestore();
		}
	});

	test('a run of objects ends where the list holds something else between them, in one chunk or cut anywhere', async () => {
		const text = '{"data":{"myself":{"pods":[ {"id":"a"} ,\n {"id":"b"},"s{",{"id":"c"},[{"id":"x"}],{"id":"d"},1,{"id":"e"} ]}}}';
		for (const most of [text.length, 1, 7]) {
			const split = await parseSplitJson(chunked(text, seededRandom(most), most), ['data', 'myself', 'pods']);
			expect(split.document, `chunks up to ${most}`).toEqual({data: {myself: {pods: [0, 1, 's{', 2, [{id: 'x'}], 3, 1, 4]}}});
			expect(split.elements).toEqual(['a', 'b', 'c', 'd', 'e'].map(id => ({id})));
		}
	});

	test('a truncated or malformed answer is a SyntaxError, as with JSON.parse', async () => {
		const text = '{"data":{"myself":{"pods":[{"id":"a"},{"id":"b"}]}}}';
		for (let end = 1; end < text.length; end++) {
			await expect(parseSplitJson(chunked(text.slice(0, end), seededRandom(end), 5), ['data', 'myself', 'pods']), `cut at ${end}`).rejects.toThrow(SyntaxError);
		}

		await expect(parseSplitJson(chunked('{"data":{"myself":{"pods":[{"id":}]}}}', seededRandom(1), 5), ['data', 'myself', 'pods'])).rejects.toThrow(
			SyntaxError,
		);
		await expect(parseSplitJson(chunked('<html>502</html>', seededRandom(1), 5), ['data', 'myself', 'pods'])).rejects.toThrow(SyntaxError);
	});
});

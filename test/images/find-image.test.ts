import {describe, expect, test} from 'vitest';
import {decodeBase64Image} from '../../source/images/fetch-image.js';
import {findImage} from '../../source/images/find-image.js';
import {encodePng} from '../../source/sim/images/png.js';

const png = encodePng(2, 2, () => [1, 2, 3]).toString('base64');

describe('where an output keeps its picture', () => {
	test("the image models' image_url", () => {
		expect(findImage({image_url: 'https://image.runpod.ai/abc/out.jpg', cost: 0.02})).toEqual({
			kind: 'url',
			url: 'https://image.runpod.ai/abc/out.jpg',
			label: 'https://image.runpod.ai/abc/out.jpg',
		});
	});

	test('links under a field named for images, or ending like an image; other links are left alone', () => {
		expect(findImage({result: {images: ['https://cdn.example/a?sig=1']}})).toMatchObject({kind: 'url', url: 'https://cdn.example/a?sig=1'});
		expect(findImage({files: ['https://cdn.example/x/out.PNG']})).toMatchObject({kind: 'url'});
		expect(findImage({docs: 'https://example.com/readme', webhook: 'https://example.com/hook'})).toBeUndefined();
		expect(findImage({image_url: 'ftp://example.com/a.png'})).toBeUndefined();
		expect(findImage({image: 'file:///etc/passwd'})).toBeUndefined();
	});

	test('base64 under an image field, and data URLs anywhere', () => {
		expect(findImage({images: [png]})).toEqual({kind: 'inline', base64: png, label: 'base64 in images'});
		expect(findImage({output: {result: `data:image/png;base64,${png}`}})).toEqual({kind: 'inline', base64: png, label: 'data URL in result'});
		expect(findImage(`data:image/png;base64,${png}`)).toMatchObject({kind: 'inline', label: 'data URL in output'});
		// Base64 that is no picture, or under a name that does not say image, is text.
		expect(findImage({image: 'aGVsbG8gd29ybGQ='})).toBeUndefined();
		expect(findImage({text: png})).toBeUndefined();
	});

	test('text, numbers and nothing have no picture', () => {
		expect(findImage('hello')).toBeUndefined();
		expect(findImage(null)).toBeUndefined();
		expect(findImage({tokens: 12, choices: [{text: 'hi'}]})).toBeUndefined();
	});

	test('base64 is decoded only under the 20 MB cap', () => {
		expect(decodeBase64Image(png)).toEqual(Buffer.from(png, 'base64'));
		expect(() => decodeBase64Image('A'.repeat(28 * 1024 * 1024))).toThrow("the image is 21.0 MB, over podtop's 20.0 MB limit");
		expect(() => decodeBase64Image('iVBOR*w0K')).toThrow('base64 does not use');
	});
});

import {existsSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {supportsColor} from 'chalk';
import {ApiError} from '../api/errors.js';
import {sanitizeLine} from '../format/sanitize.js';
import {decodeOffThread} from '../images/decode-off-thread.js';
import {checkPictureBounds} from '../images/picture-bounds.js';
import {kittyImage, itermImage, terminalGraphics, type Graphics} from '../images/graphics-protocol.js';
import {halfBlockCells, halfBlockLines} from '../images/half-blocks.js';
import type {ImagePolicy} from '../images/address-policy.js';
import {ImageError} from '../images/image-error.js';
import {describeFacts, type ImageFacts} from '../images/image-facts.js';
import {createImageLoader, type LoadedImage} from '../images/image-loader.js';
import {localeIsUtf8} from '../format/glyphs.js';
import {UsageError} from '../lib/usage-error.js';
import {jobImage} from '../rows/job-rows.js';
import type {TrackedJob} from '../store/types.js';
import {exitCodeForKind, exitCodes} from './exit-code.js';

export const imageHelp = `
	Images (a job whose output has an image link or base64 image)
	  --save FILE       Write the image to FILE as fetched (not re-encoded); follows without the dashboard
	  --force           With --save: replace FILE if it exists (without it, an existing file is refused)
	In a terminal the picture is drawn after the output: kitty's or iTerm2's graphics when the
	terminal says it has them (not inside tmux or screen), else colour half-blocks; with --ascii or
	no colour the line "image 1024×1024 (png) <link>".`;

export type ImageOptions = {
	readonly save: string | undefined;
	readonly force: boolean;
	readonly json: boolean;
	readonly color: boolean;
	readonly ascii: boolean;
	/** Where the image link may lead besides the public internet: config.toml's `[images] allow`, and the API's own host. */
	readonly policy: ImagePolicy;
};

/** Checked before anything is sent: the folder to save in exists, and the file does not (unless --force). */
export function checkSavePath(file: string | undefined, force: boolean): void {
	if (file === undefined) {
		return;
	}

	if (file === '' || file.endsWith('/')) {
		throw new UsageError('--save needs a file name, for example --save fox.png');
	}

	const folder = path.dirname(path.resolve(file));
	if (!existsSync(folder) || !statSync(folder).isDirectory()) {
		throw new UsageError(`--save ${file}: the folder ${folder} does not exist`);
	}

	if (existsSync(file) && !force) {
		throw new UsageError(`--save ${file}: the file exists; add --force to replace it, or choose another name`);
	}
}

/** How many cells a picture of `width` × `height` pixels takes at most `columns` × `rows` (a cell is about twice as tall as wide). */
function cellsFor(facts: ImageFacts, columns: number, rows: number): {columns: number; rows: number} {
	const fitted = Math.max(1, Math.min(columns, Math.floor((rows * 2 * facts.width) / facts.height)));
	return {columns: fitted, rows: Math.max(1, Math.min(rows, Math.round((fitted * facts.height) / facts.width / 2)))};
}

/** The picture for this terminal, as text to write; the caller adds the line that says what it is. */
async function drawing(image: LoadedImage, graphics: Graphics, columns: number, rows: number, level: 1 | 2 | 3): Promise<string> {
	const {facts} = image;
	if (facts && (graphics === 'iterm' || (graphics === 'kitty' && facts.type === 'png'))) {
		// The terminal decodes these bytes itself: they are held to podtop's own bounds first.
		checkPictureBounds(image.bytes, facts);
	}

	if (graphics === 'iterm' && (facts?.type === 'png' || facts?.type === 'jpeg')) {
		const cells = cellsFor(facts, columns, rows);
		return `${itermImage(image.bytes, cells.columns, cells.rows)}\n`;
	}

	if (graphics === 'kitty' && facts) {
		const cells = cellsFor(facts, columns, rows);
		if (facts.type === 'png') {
			return `${kittyImage({png: image.bytes}, cells.columns, cells.rows)}\n`;
		}

		// A JPEG goes as pixels, about ten across and twenty down a cell (the terminal scales them).
		const pixels = await decodeOffThread(image.bytes, {
			columns: Math.min(facts.width, cells.columns * 10),
			rows: Math.ceil(Math.min(facts.height, cells.rows * 20) / 2),
		});
		return `${kittyImage({pixels}, cells.columns, cells.rows)}\n`;
	}

	const pixels = await decodeOffThread(image.bytes, {columns, rows});
	return halfBlockLines(halfBlockCells(pixels), level)
		.map(line => `${line}\n`)
		.join('');
}

const problemOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
Why the bytes are not worth saving as the image, or undefined: they are no image podtop recognises
(say, an error page), or a PNG or JPEG that does not decode (cut short). One too large to decode, or
a GIF or WebP, is saved as it is.
*/
async function unsaveable(image: LoadedImage): Promise<string | undefined> {
	if (!image.facts) {
		return `the image's ${image.bytes.length.toLocaleString('en-US')} bytes are no image podtop recognises (no PNG, JPEG, GIF or WebP header)`;
	}

	if (image.facts.type !== 'png' && image.facts.type !== 'jpeg') {
		return undefined;
	}

	try {
		await decodeOffThread(image.bytes, {columns: 1, rows: 1});
		return undefined;
	} catch (error) {
		return error instanceof ImageError && error.kind === 'broken' ? error.message.replace(/; nothing drawn$/, '') : undefined;
	}
}

/**
After a finished job's output: with `--save`, its image written as fetched; on a terminal (not
`--json`), its picture and the line that says what it is. Nothing is fetched for a pipe without
`--save`. A save that fails sets the exit status (network 5, an expired link 4, too large, broken or no
image 1); a picture that cannot be drawn says why in its line and changes nothing.
*/
export async function finishImage(job: TrackedJob, options: ImageOptions): Promise<void> {
	const source = jobImage(job);
	const terminal = Boolean(process.stdout.isTTY) && !options.json;
	if (!source) {
		if (options.save !== undefined && job.status === 'COMPLETED') {
			process.stderr.write(`podtop: the job's output holds no image; nothing saved to ${sanitizeLine(options.save)}\n`);
			process.exitCode = exitCodes.failed;
		}

		return;
	}

	if (!terminal && options.save === undefined) {
		return;
	}

	const loader = createImageLoader({policy: options.policy});
	let image: LoadedImage;
	try {
		image = await loader.load(source);
	} catch (error) {
		process.stderr.write(`podtop: ${sanitizeLine(problemOf(error))}${options.save === undefined ? '' : '; nothing saved'}\n`);
		if (options.save !== undefined) {
			process.exitCode = error instanceof ApiError ? exitCodeForKind(error.kind) : exitCodes.failed;
		}

		return;
	} finally {
		loader.close();
	}

	const ascii = options.ascii || !localeIsUtf8();
	const what = `${describeFacts(image.facts, ascii ? 'x' : '×')} ${sanitizeLine(source.label)}`;
	const broken = options.save === undefined ? undefined : await unsaveable(image);
	if (broken) {
		process.stderr.write(`podtop: ${sanitizeLine(broken)}: ${sanitizeLine(source.label)}; nothing saved\n`);
		process.exitCode = exitCodes.failed;
	} else if (options.save !== undefined) {
		try {
			writeFileSync(options.save, image.bytes, {flag: options.force ? 'w' : 'wx'});
			process.stderr.write(`podtop: saved ${what} to ${sanitizeLine(options.save)} (${image.bytes.length.toLocaleString('en-US')} bytes)\n`);
		} catch (error) {
			const exists = (error as {code?: string}).code === 'EEXIST';
			process.stderr.write(
				`podtop: could not save to ${sanitizeLine(options.save)}: ${exists ? 'the file appeared meanwhile; add --force to replace it' : sanitizeLine(problemOf(error))}\n`,
			);
			process.exitCode = exitCodes.failed;
		}
	}

	if (!terminal) {
		return;
	}

	const level = options.color && !process.env.NO_COLOR && supportsColor ? supportsColor.level : 0;
	const graphics = terminalGraphics(process.env, level, ascii);
	let picture = '';
	let problem = '';
	if (graphics !== 'plain') {
		try {
			picture = await drawing(image, graphics, process.stdout.columns || 80, Math.max(4, (process.stdout.rows || 24) - 3), level as 1 | 2 | 3);
		} catch (error) {
			problem = ` ${ascii ? '|' : '│'} ${problemOf(error)}`;
		}
	}

	process.stdout.write(`${picture}${what}${sanitizeLine(problem)}\n`);
}

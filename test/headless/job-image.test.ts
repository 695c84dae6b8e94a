import {spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {request} from 'undici';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {halfBlock} from '../../source/images/half-blocks.js';
import {encodePng} from '../../source/sim/images/png.js';
import {ansiCells} from '../helpers/ansi-cells.js';
import {png, zeros} from '../helpers/png-bombs.js';
import {cliEnv, cliPath, collect, runCli} from '../helpers/run-cli.js';
import {startTestSim, type TestSim} from '../helpers/sim-client.js';

let sim: TestSim;
const key = 'rpa_IMAGESECRET0000111122223333';
const folder = mkdtempSync(path.join(tmpdir(), 'podtop-image-'));
const flux = 'black-forest-labs-flux-1-schnell';

beforeAll(async () => {
	sim = await startTestSim({
		apiKey: key,
		endpoints: [
			{id: 'echo', workersMin: 1, workersMax: 1, flashBoot: true},
			{id: flux, worker: 'flux-schnell', workersMin: 1, workersMax: 1, flashBoot: true},
		],
	});
});

afterAll(async () => {
	await sim.close();
	rmSync(folder, {recursive: true, force: true});
});

const env = (extra: Record<string, string | undefined> = {}) => cliEnv({RUNPOD_API_KEY: key, XDG_STATE_HOME: folder, ...extra});
/** An environment whose config.toml says `[images] allow = [...hosts]`. */
function allowing(...hosts: string[]): Record<string, string> {
	const home = mkdtempSync(path.join(folder, 'config-'));
	mkdirSync(path.join(home, 'podtop'));
	writeFileSync(path.join(home, 'podtop', 'config.toml'), `[images]\nallow = ${JSON.stringify(hosts)}\n`);
	return {XDG_CONFIG_HOME: home};
}

const urls = () => ['--api-url', `${sim.url}/v2`, '--graphql-url', `${sim.url}/graphql`];
const runRequests = async () => ((await sim.call('GET', '/__sim/stats')).body.endpoints[flux]?.run?.requests as number | undefined) ?? 0;
const served = async (link: string) => Buffer.from(await (await request(link)).body.arrayBuffer());
const quote = (word: string) => `'${word.replaceAll("'", String.raw`'\''`)}'`;

/** podtop in a pseudo-terminal (util-linux `script`) of 100×30: the raw bytes it writes, escapes and all. */
async function inTerminal(args: readonly string[], extra: Record<string, string | undefined>) {
	const command = `stty cols 100 rows 30; exec ${quote(process.execPath)} ${quote(cliPath)} ${args.map(word => quote(word)).join(' ')}`;
	const child = spawn('script', ['-qfec', command, '/dev/null'], {env: env({TERM: 'xterm-256color', LANG: 'C.UTF-8', ...extra})});
	child.stdin.end();
	return collect(child, 30_000);
}

describe('--save writes the image as fetched', () => {
	test('podtop run … --save: the same bytes the simulator serves; an existing file is refused before anything is sent, --force replaces it', async () => {
		const file = path.join(folder, 'fox.png');
		const saved = await runCli(
			['run', flux, '--prompt', 'a red fox', '--width', '256', '--height', '384', '--format', 'png', '--save', file, '--json', ...urls()],
			env(),
		);
		expect(saved.code).toBe(0);
		const {output} = JSON.parse(saved.stdout);
		expect(saved.stderr).toMatch(new RegExp(String.raw`podtop: saved image 256×384 \(png\) ${output.image_url} to ${file} \([\d,]+ bytes\)\n$`));
		expect(readFileSync(file).equals(await served(output.image_url))).toBe(true);

		const before = await runRequests();
		const refused = await runCli(['run', flux, '--prompt', 'again', '--save', file, ...urls()], env());
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain(`--save ${file}: the file exists; add --force to replace it, or choose another name`);
		expect(await runRequests()).toBe(before);

		const forced = await runCli(['run', flux, '--prompt', 'again', '--width', '256', '--height', '256', '--save', file, '--force', '--json', ...urls()], env());
		expect(forced.code).toBe(0);
		expect(readFileSync(file).equals(await served(JSON.parse(forced.stdout).output.image_url))).toBe(true);
	});

	test('podtop job … --save: a JPEG job followed to its end and saved; a job without an image saves nothing (exit 1)', async () => {
		const id = await sim.run(flux, {prompt: 'a fox', width: 320, height: 256});
		const file = path.join(folder, 'fox.jpg');
		const saved = await runCli(['job', flux, id, '--save', file, ...urls()], env());
		expect(saved.code).toBe(0);
		expect(saved.stderr).toMatch(/podtop: saved image 320×256 \(jpeg\) http:\/\/127\.0\.0\.1:\d+\/__sim\/outputs\/\S+\.jpg to /);
		// Without a terminal the output is printed as always, and no picture.
		expect(JSON.parse(saved.stdout)).toMatchObject({image_url: expect.stringMatching(/\.jpg$/)});
		expect(readFileSync(file).equals(await served(JSON.parse(saved.stdout).image_url))).toBe(true);

		const text = await sim.run('echo', {payload: 'hello'});
		const none = path.join(folder, 'none.png');
		const nothing = await runCli(['job', 'echo', text, '--save', none, ...urls()], env());
		expect(nothing.code).toBe(1);
		expect(nothing.stderr).toContain(`podtop: the job's output holds no image; nothing saved to ${none}`);
		expect(existsSync(none)).toBe(false);
	});

	test('a broken image or bytes that are no image are not saved, and say so (exit 1)', async () => {
		const png = encodePng(64, 64, (x, y) => [x * 4, y * 4, 128]);
		const cut = await sim.run('echo', {image: `data:image/png;base64,${png.subarray(0, png.length >> 1).toString('base64')}`});
		const file = path.join(folder, 'cut.png');
		const broken = await runCli(['job', 'echo', cut, '--save', file, ...urls()], env());
		expect(broken.code).toBe(1);
		expect(broken.stderr).toMatch(/^podtop: the PNG is broken \(.+\): data URL in image; nothing saved\n$/m);
		expect(existsSync(file)).toBe(false);

		// A link that answers with a web page instead of a picture, on a host config.toml allows.
		const server = createServer((_request, response) => {
			response.end('<html><body>Sign in to see this file</body></html>');
		});
		await new Promise<void>(resolve => {
			server.listen(0, '127.0.0.1', resolve);
		});
		try {
			const link = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fox.png`;
			const page = await sim.run('echo', {image_url: link});
			const notImage = await runCli(['job', 'echo', page, '--save', file, ...urls()], env(allowing('127.0.0.1')));
			expect(notImage.code).toBe(1);
			expect(notImage.stderr).toContain(
				`podtop: the image's 50 bytes are no image podtop recognises (no PNG, JPEG, GIF or WebP header): ${link}; nothing saved\n`,
			);
			expect(existsSync(file)).toBe(false);
		} finally {
			server.close();
		}
	});

	test('an image link into the loopback, or a redirect there from an allowed host, is not fetched, and says why (exit 1 with --save)', async () => {
		let hits = 0;
		const secret = createServer((_request, response) => {
			hits++;
			response.end('secret');
		});
		const redirector = createServer((_request, response) => {
			response.writeHead(302, {location: `http://127.0.0.1:${(secret.address() as AddressInfo).port}/secret.png`});
			response.end();
		});
		await new Promise<void>(resolve => {
			secret.listen(0, '127.0.0.1', resolve);
		});
		await new Promise<void>(resolve => {
			redirector.listen(0, '127.0.0.2', resolve);
		});
		try {
			const direct = await sim.run('echo', {image_url: `http://127.0.0.1:${(secret.address() as AddressInfo).port}/secret.png`});
			const redirected = await sim.run('echo', {image_url: `http://127.0.0.2:${(redirector.address() as AddressInfo).port}/fox.png`});
			const file = path.join(folder, 'secret.png');
			for (const [id, extra] of [
				[direct, {}],
				[redirected, allowing('127.0.0.2')],
			] as const) {
				const refused = await runCli(['job', 'echo', id, '--save', file, ...urls()], env(extra));
				expect(refused.code).toBe(1);
				expect(refused.stderr).toBe('podtop: picture not fetched: 127.0.0.1 is a loopback address (allow it in config.toml [images]); nothing saved\n');
				expect(existsSync(file)).toBe(false);
			}

			// In a terminal, the line says why in place of the picture.
			const input = path.join(folder, 'private.json');
			writeFileSync(input, JSON.stringify({image_url: `http://127.0.0.1:${(secret.address() as AddressInfo).port}/secret.png`}));
			const {stdout} = await inTerminal(['run', 'echo', '--input', `@${input}`, ...urls()], {COLORTERM: 'truecolor'});
			expect(stdout).toMatch(/podtop: picture not fetched: 127\.0\.0\.1 is a loopback address \(allow it in config\.toml \[images]\)/);
			expect(hits).toBe(0);
		} finally {
			secret.close();
			redirector.close();
		}
	});

	test('bad --save is refused before anything is sent: a missing folder, --no-follow', async () => {
		const before = await runRequests();
		const missing = await runCli(['run', flux, '--prompt', 'x', '--save', path.join(folder, 'nope', 'a.png'), ...urls()], env());
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain(`the folder ${path.join(folder, 'nope')} does not exist`);
		const noFollow = await runCli(['run', flux, '--prompt', 'x', '--save', path.join(folder, 'b.png'), '--no-follow', ...urls()], env());
		expect(noFollow.code).toBe(2);
		expect(noFollow.stderr).toContain('--save waits for the job to finish; it cannot go with --no-follow');
		expect(await runRequests()).toBe(before);
	});
});

describe('in a terminal, podtop run draws the picture after the output', () => {
	const args = (...more: string[]) => ['run', flux, '--prompt', 'a fox', '--width', '256', '--height', '256', '--format', 'png', ...more, ...urls()];

	test('colour half-blocks, then the line that says what it is', async () => {
		const {code, stdout} = await inTerminal(args(), {COLORTERM: 'truecolor'});
		expect(code).toBe(0);
		const lines = stdout.split(/\r?\n/);
		const picture = lines.filter(line => line.includes(halfBlock));
		// 256×256 in 100 columns and 27 rows (54 pixels): 54×54 pixels, 27 rows of 54 cells.
		expect(picture).toHaveLength(27);
		expect(ansiCells(picture[0]!).filter(cell => cell.char === halfBlock)).toHaveLength(54);
		expect(ansiCells(picture[0]!)[0]!.fg).toMatch(/^38;2(?:;\d+){3}$/);
		expect(lines.at(-2)).toMatch(/^image 256×256 \(png\) http:\/\/127\.0\.0\.1:\d+\/__sim\/outputs\/\S+\.png$/);
	});

	test("kitty's protocol when TERM says kitty (the PNG as it is); iTerm2's when TERM_PROGRAM says iTerm; half-blocks inside tmux", async () => {
		const kitty = await inTerminal(args('--json'), {TERM: 'xterm-kitty'});
		// --json keeps stdout to its one line: no picture.
		expect(kitty.stdout).not.toContain('\u001B_G');
		const drawn = await inTerminal(args(), {TERM: 'xterm-kitty'});
		const link = /image 256×256 \(png\) (http:\S+\.png)/.exec(drawn.stdout)![1]!;
		const bytes = await served(link);
		const chunks = [...drawn.stdout.matchAll(/\u001B_G([^;]*);([^\u001B]*)\u001B\\/g)];
		expect(chunks[0]![1]).toBe(`a=T,q=2,f=100,c=54,r=27,m=${chunks.length > 1 ? 1 : 0}`);
		expect(Buffer.from(chunks.map(chunk => chunk[2]).join(''), 'base64').equals(bytes)).toBe(true);
		expect(drawn.stdout).not.toContain(halfBlock);

		const iterm = await inTerminal(args(), {TERM_PROGRAM: 'iTerm.app'});
		const inline = /\u001B]1337;File=inline=1;size=(\d+);width=(\d+);height=(\d+);preserveAspectRatio=1:([^\u0007]+)\u0007/.exec(iterm.stdout);
		expect(inline).not.toBeNull();
		expect(Buffer.from(inline![4]!, 'base64').length).toBe(Number(inline![1]));

		const tmux = await inTerminal(args(), {TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0', KITTY_WINDOW_ID: '1'});
		expect(tmux.stdout).toContain(halfBlock);
		expect(tmux.stdout).not.toContain('\u001B_G');
	});

	test('a decompression bomb as a data URL in the output (350 KB of base64 that inflates to 256 MB) is refused in a sentence, and podtop goes on', async () => {
		const bomb = png(64, 64, true, zeros(256 * 1024 * 1024));
		const input = path.join(folder, 'bomb.json');
		writeFileSync(input, JSON.stringify({image: `data:image/png;base64,${bomb.toString('base64')}`}));
		const {code, stdout} = await inTerminal(['run', 'echo', '--input', `@${input}`, ...urls()], {COLORTERM: 'truecolor'});
		expect(code).toBe(0);
		expect(stdout).not.toContain(halfBlock);
		expect(stdout).toMatch(/\nimage 64×64 \(png\) data URL in image │ picture refused: its data inflates past the 16,504 bytes its 64×64 header promises\r?\n/);
	});

	test('a bomb is not handed to a terminal that decodes pictures itself (kitty, iTerm2): the same bounds, the same sentence', async () => {
		const bomb = png(64, 64, true, zeros(256 * 1024 * 1024));
		const input = path.join(folder, 'terminal-bomb.json');
		writeFileSync(input, JSON.stringify({image: `data:image/png;base64,${bomb.toString('base64')}`}));
		for (const terminal of [{TERM: 'xterm-kitty'}, {TERM_PROGRAM: 'iTerm.app'}]) {
			const {code, stdout} = await inTerminal(['run', 'echo', '--input', `@${input}`, ...urls()], terminal);
			expect(code).toBe(0);
			expect(stdout).not.toContain('\u001B_G');
			expect(stdout).not.toContain('\u001B]1337;');
			expect(stdout).toMatch(
				/\nimage 64×64 \(png\) data URL in image │ picture refused: its data inflates past the 16,504 bytes its 64×64 header promises\r?\n/,
			);
		}
	});

	test('--ascii or NO_COLOR: the plain line alone', async () => {
		for (const [more, extra, times] of [
			[['--ascii'], {}, 'x'],
			[[], {NO_COLOR: '1'}, '×'],
		] as const) {
			const {code, stdout} = await inTerminal(args(...more), extra);
			expect(code).toBe(0);
			expect(stdout).not.toContain(halfBlock);
			expect(stdout).not.toContain('\u001B[38');
			expect(stdout).toMatch(new RegExp(String.raw`\nimage 256${times}256 \(png\) http://127\.0\.0\.1:\d+/__sim/outputs/\S+\.png\r?\n`));
		}
	});
});

#!/usr/bin/env node
// Regenerates media/*.svg: the real dashboard in a real terminal (tmux, 120×40, DEMO), captured with
// its colours and drawn as SVG. Usage: npm run screenshot
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const socket = `podtop-shot-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {encoding: 'utf8'});
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
const columns = 120;
const rows = 40;

const palette = {
	30: '#1e1e1e',
	31: '#e06c75',
	32: '#98c379',
	33: '#e5c07b',
	34: '#61afef',
	35: '#c678dd',
	36: '#56b6c2',
	37: '#dcdfe4',
	90: '#7f848e',
	91: '#e06c75',
	92: '#98c379',
	93: '#e5c07b',
	94: '#61afef',
	95: '#c678dd',
	96: '#56b6c2',
	97: '#ffffff',
};
const foreground = '#dcdfe4';
const background = '#1e2127';
const escape = text => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** ANSI-coloured lines (tmux capture-pane -e) to an SVG of a terminal window. */
function toSvg(screen, title) {
	const cell = {width: 8.4, height: 17};
	const out = [];
	for (const [row, line] of screen.split('\n').slice(0, rows).entries()) {
		let style = {fg: undefined, bold: false, inverse: false, dim: false};
		let column = 0;
		const parts = line.split(/(\u001B\[[\d;]*m)/);
		for (const part of parts) {
			const sgr = /^\u001B\[([\d;]*)m$/.exec(part);
			if (sgr) {
				const codes = sgr[1] === '' ? [0] : sgr[1].split(';').map(Number);
				for (let index = 0; index < codes.length; index++) {
					const code = codes[index];
					switch (code) {
						case 0: {
							style = {fg: undefined, bold: false, inverse: false, dim: false};

							break;
						}

						case 1: {
							style.bold = true;

							break;
						}

						case 2: {
							style.dim = true;

							break;
						}

						case 7: {
							style.inverse = true;

							break;
						}

						case 22: {
							style.bold = false;
							style.dim = false;

							break;
						}

						case 27: {
							style.inverse = false;

							break;
						}

						case 39: {
							style.fg = undefined;

							break;
						}

						default: {
							if (palette[code]) {
								style.fg = palette[code];
							} else if (code === 38) {
								index += codes[index + 1] === 5 ? 2 : 4;
							}
						}
					}
				}

				continue;
			}

			if (!part) {
				continue;
			}

			const text = [...part];
			const x = 12 + column * cell.width;
			const y = 40 + row * cell.height;
			const fg = style.fg ?? foreground;
			if (style.inverse) {
				out.push(
					`<rect x="${x.toFixed(1)}" y="${(y - 13).toFixed(1)}" width="${(text.length * cell.width).toFixed(1)}" height="${cell.height}" fill="${fg}"/>`,
				);
			}

			out.push(
				`<text x="${x.toFixed(1)}" y="${y}" fill="${style.inverse ? background : fg}"${style.bold ? ' font-weight="bold"' : ''}${style.dim ? ' opacity="0.6"' : ''} textLength="${(text.length * cell.width).toFixed(1)}" lengthAdjust="spacingAndGlyphs">${escape(part)}</text>`,
			);
			column += text.length;
		}
	}

	const width = Math.ceil(24 + columns * cell.width);
	const height = Math.ceil(52 + rows * cell.height);
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="14" xml:space="preserve">
<title>${escape(title)}</title>
<rect width="100%" height="100%" rx="8" fill="${background}"/>
<circle cx="18" cy="14" r="5" fill="#e06c75"/><circle cx="34" cy="14" r="5" fill="#e5c07b"/><circle cx="50" cy="14" r="5" fill="#98c379"/>
${out.join('\n')}
</svg>
`;
}

const shots = [
	{file: 'endpoints.svg', title: 'podtop: the Endpoints pane (DEMO)', keys: []},
	{file: 'pods.svg', title: 'podtop: the Pods pane (DEMO)', keys: ['2']},
	{file: 'gpus.svg', title: 'podtop: the GPUs pane (DEMO)', keys: ['3']},
	{file: 'job.svg', title: "podtop: following a job's stream (DEMO)", keys: ['1', '/', 'llama', 'Enter', 'Enter', 't'], wait: 4000},
];

mkdirSync(`${root}media`, {recursive: true});
const command = `env -u CI -u RUNPOD_API_KEY HOME=/nonexistent-podtop-home NODE_ENV=production LANG=C.UTF-8 '${process.execPath}' '${root}dist/bundle/podtop.js' --demo; sleep 600`;
tmux('new-session', '-d', '-s', 'shot', '-x', String(columns), '-y', String(rows), 'sh', '-c', command);
try {
	// Let the demo fleet run long enough for trends and rates to fill in.
	await sleep(25_000);
	for (const shot of shots) {
		for (const key of shot.keys) {
			tmux('send-keys', '-t', 'shot', ...(key.length > 1 && key !== 'Enter' ? ['-l', key] : [key]));
			await sleep(300);
		}

		await sleep(shot.wait ?? 1500);
		const screen = tmux('capture-pane', '-e', '-p', '-t', 'shot');
		writeFileSync(`${root}media/${shot.file}`, toSvg(screen, shot.title));
		console.log(`media/${shot.file}`);
	}
} finally {
	tmux('kill-server');
}

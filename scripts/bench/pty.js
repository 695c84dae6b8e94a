// Helpers for the dashboard benchmark: podtop in a pseudo-terminal (util-linux `script`), a simulator
// in its own process, and CPU and memory read from /proc.
import {execFileSync, spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';

export const cli = new URL('../../dist/bundle/podtop.js', import.meta.url).pathname;

export async function startSim(args) {
	const child = spawn(process.execPath, [cli, 'sim', '--port', '0', '--graphql-rate', '100', ...args], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: {...process.env, NODE_ENV: 'production', PODTOP_SIM_API_KEY: 'bench-key'},
	});
	let banner = '';
	child.stdout.setEncoding('utf8');
	const url = await new Promise(resolve => {
		child.stdout.on('data', text => {
			banner += text;
			const match = /listening on (\S+)/.exec(banner);
			if (match && banner.includes('Ctrl-C')) {
				resolve(match[1]);
			}
		});
	});
	return {url, stop: () => child.kill('SIGTERM')};
}

/**
podtop in a pty of the given size. `output` counts every byte the terminal receives. `launch` is how
it is started: 'bin' runs the bundle itself (its shebang's Node flags apply), 'node' runs
`node dist/bundle/podtop.js` (as a checkout is run; env without -S and npm's Windows shim do the same),
with `nodeArgs` before the script if any. `bundle` is another build's `podtop.js` (side-by-side.js);
`node` the Node binary it runs on (this bench's own unless told: another runtime's build side by side).
*/
export function startPodtop({
	columns = 120,
	rows = 40,
	args = [],
	simUrl,
	apiKey = 'bench-key',
	extraEnv = {},
	launch = 'bin',
	nodeArgs = [],
	bundle = cli,
	node = process.execPath,
}) {
	const env = {...process.env, NODE_ENV: 'production', LANG: 'C.UTF-8', TERM: 'xterm-256color', HOME: '/nonexistent-podtop-home', ...extraEnv};
	delete env.CI;
	delete env.RUNPOD_API_KEY;
	const target = simUrl ? `--api-url ${simUrl}/v2 --graphql-url ${simUrl}/graphql` : '--demo';
	if (simUrl) {
		env.RUNPOD_API_KEY = apiKey;
	}

	// Run the way users do: the bundle's own shebang (with its Node flags), or node and the bundle; the node binary on PATH.
	const program = launch === 'node' ? `node ${nodeArgs.join(' ')} '${bundle}'` : `'${bundle}'`;
	const command = `stty cols ${columns} rows ${rows}; PATH='${path.dirname(node)}':"$PATH" exec ${program} ${target} ${args.join(' ')}`;
	const startedAt = performance.now();
	const child = spawn('script', ['-qfec', command, '/dev/null'], {env, stdio: ['pipe', 'pipe', 'inherit']});
	const session = {
		child,
		startedAt,
		bytes: 0,
		text: '',
		listeners: new Set(),
		pid() {
			try {
				return Number(
					execFileSync('pgrep', ['-P', String(child.pid)], {encoding: 'utf8'})
						.trim()
						.split('\n')[0],
				);
			} catch {
				return undefined;
			}
		},
		press(keys) {
			child.stdin.write(keys);
		},
		stop() {
			child.stdin.write('q');
			setTimeout(() => child.kill('SIGKILL'), 2000).unref();
		},
	};
	child.stdout.on('data', chunk => {
		session.bytes += chunk.length;
		session.text = (session.text + chunk.toString('utf8')).slice(-20_000);
		for (const listener of session.listeners) {
			listener(chunk);
		}
	});
	return session;
}

/**
A pane's title with its count, as it reaches the terminal: whole on the first frame, or the count alone
after a cursor move and a line clear (Ink draws only what changed on a line: "500) · 1h" after "Endpoints (0)").
*/
export const paneCount = (title, count) => new RegExp(String.raw`(${title} \(|\[K(\u001B\[[\d;]*m)*)${count}\)`);

export async function waitForOutput(session, pattern, timeoutMs = 15_000) {
	if (pattern.test(session.text)) {
		return performance.now();
	}

	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			session.listeners.delete(listener);
			reject(new Error(`no ${pattern} in output`));
		}, timeoutMs);
		const listener = () => {
			if (pattern.test(session.text)) {
				clearTimeout(timer);
				session.listeners.delete(listener);
				resolve(performance.now());
			}
		};

		session.listeners.add(listener);
	});
}

/** User + system CPU seconds in a /proc stat file: a process's (`/proc/PID/stat`) or one of its threads' (`/proc/PID/task/TID/stat`). */
export function statCpuSeconds(file) {
	const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const cpuSeconds = pid => statCpuSeconds(`/proc/${pid}/stat`);

export function rssBytes(pid) {
	return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

/** CPU share of one core and terminal bytes per second over `seconds`. */
export async function measure(session, seconds) {
	const pid = session.pid();
	const cpuBefore = cpuSeconds(pid);
	const bytesBefore = session.bytes;
	const started = performance.now();
	await new Promise(resolve => setTimeout(resolve, seconds * 1000));
	const elapsed = (performance.now() - started) / 1000;
	return {cpu: (cpuSeconds(pid) - cpuBefore) / elapsed, bytesPerSecond: (session.bytes - bytesBefore) / elapsed, rss: rssBytes(pid)};
}

export function peakRssBytes(pid) {
	return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

export const sleep = async ms => new Promise(resolve => setTimeout(resolve, ms));

/** The p95 of `values`. */
export const p95 = values => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

/** j/k presses, each timed from the key to the terminal receiving the redrawn rows; the p95. */
export async function keyToFrameP95(session, presses) {
	const latencies = [];
	for (let press = 0; press < presses; press++) {
		const before = session.bytes;
		const sent = performance.now();
		session.press(press % 20 < 10 ? 'j' : 'k');
		while (session.bytes === before && performance.now() - sent < 2000) {
			await sleep(1);
		}

		latencies.push(performance.now() - sent);
		await sleep(120);
	}

	return p95(latencies);
}

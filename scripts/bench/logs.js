// The log view's goals (issue 42), measured in a 120×40 pty with the production build: a worker that writes
// 200 lines a second with 5,000 lines buffered, then 20 workers merged. The simulator runs as for every bench;
// a front in this process passes everything to it but the log streams (and, for the merged case, the
// endpoint's worker list), which it serves itself at the rate asked for. `npm run build` first.
import {createServer, request} from 'node:http';
import {loadavg} from 'node:os';
import {measure, p95, peakRssBytes, sleep, startPodtop, startSim, waitForOutput} from './pty.js';

const linesPerSecond = 200;
const backlog = 5000;
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pct = share => `${(share * 100).toFixed(2)} %`;
const report = (name, value, goal) => {
	console.log(`  ${name.padEnd(60)} ${value.padStart(12)}   goal ${goal}`);
};

/** A log line as the service sends it: an event id (its second, then a count), one `data` line of JSON. */
let counter = 0;
function event(source = 'container') {
	counter++;
	const now = Date.now();
	const second = new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
	const line = `INFO handler: request ${counter} served in ${(counter % 97) + 3} ms {"requestId":"job-${counter}","tokens":${counter % 512}}`;
	return `id: ${second}/${String(counter).padStart(12, '0')}\ndata: ${JSON.stringify({ts: second, source, line})}\n\n`;
}

/** Serves one stream: `tail` lines of backlog (at most 5,000), then `rate` lines a second in 20 ms ticks, until the client goes. */
function serveLog(response, tail, rate) {
	response.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'});
	response.write(Array.from({length: Math.min(tail, backlog)}, () => event()).join(''));
	let owed = 0;
	const timer = setInterval(() => {
		owed += rate / 50;
		const now = Math.floor(owed);
		owed -= now;
		if (now > 0) {
			response.write(Array.from({length: now}, () => event()).join(''));
		}
	}, 20);
	response.once('close', () => {
		clearInterval(timer);
	});
}

/** The front: logs served here, the rest passed to the simulator (the merged case's worker list widened to `workers`). */
async function startFront(simUrl, {workers, rate}) {
	const sim = new URL(simUrl);
	const server = createServer((incoming, response) => {
		const url = new URL(incoming.url, 'http://front');
		if (/\/logs$/.test(url.pathname)) {
			serveLog(response, Number(url.searchParams.get('tail') ?? 100), rate);
			return;
		}

		const widen = workers > 1 && /^\/v2\/serverless\/[^/]+\/workers$/.test(url.pathname);
		const upstream = request(
			{host: sim.hostname, port: sim.port, path: incoming.url, method: incoming.method, headers: {...incoming.headers, host: sim.host}},
			answer => {
				if (!widen || answer.statusCode !== 200) {
					response.writeHead(answer.statusCode, answer.headers);
					answer.pipe(response);
					return;
				}

				let body = '';
				answer.setEncoding('utf8');
				answer.on('data', chunk => {
					body += chunk;
				});
				answer.on('end', () => {
					const list = JSON.parse(body);
					const [first] = list.workers;
					list.workers = Array.from({length: workers}, (_, index) => ({...first, id: `benchworker${String(index).padStart(2, '0')}`}));
					const text = JSON.stringify(list);
					const {'content-length': _length, ...headers} = answer.headers;
					response.writeHead(200, {...headers, 'content-length': Buffer.byteLength(text)});
					response.end(text);
				});
			},
		);
		incoming.pipe(upstream);
	});
	await new Promise(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	return {url: `http://127.0.0.1:${server.address().port}`, close: () => server.close()};
}

/** Resolves (with performance.now()) once what podtop wrote since the call matches `pattern`. */
async function outputAfter(session, pattern, timeoutMs) {
	let written = '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			session.listeners.delete(listener);
			reject(new Error(`never written: ${pattern}`));
		}, timeoutMs);
		const listener = chunk => {
			written = (written + chunk.toString('utf8')).slice(-20_000);
			if (pattern.test(written)) {
				clearTimeout(timer);
				session.listeners.delete(listener);
				resolve(performance.now());
			}
		};

		session.listeners.add(listener);
	});
}

/** `k` pauses (the title counts the unseen lines), `G` follows again: the time from each key to the frame that shows it. */
async function keyToFrame(session, presses) {
	const latencies = [];
	for (let press = 0; press < presses; press++) {
		const pausing = press % 2 === 0;
		const drawing = outputAfter(session, pausing ? /unseen lines? · G to follow/ : /following/, 5000);
		const sent = performance.now();
		session.press(pausing ? 'k' : 'G');
		const drawn = await drawing;
		latencies.push(drawn - sent);
		await sleep(150);
	}

	return p95(latencies);
}

async function logCase({label, workers, open}) {
	const sim = await startSim(['--no-load']);
	const front = await startFront(sim.url, {workers, rate: linesPerSecond / workers});
	const session = startPodtop({simUrl: front.url, args: ['--no-history']});
	await waitForOutput(session, /Endpoints \(/, 60_000);
	await sleep(2000);
	session.press(':');
	await sleep(300);
	session.press(`logs ${open}\r`);
	// The view opens with the last 200 lines; at 200 a second the buffer holds 5,000 some 24 s later (the terminal
	// gets only the characters that changed, so the count is not read off it: the time is waited out).
	await outputAfter(session, /served in/, 30_000);
	await sleep(((backlog - 200) / linesPerSecond) * 1000 + 2000);
	const steady = await measure(session, 20);
	// The machine's load beside the figure: on a shared host another process's work slows this one's too.
	report(`CPU, ${label}, following`, pct(steady.cpu), `≤ 10 % of a core (load ${loadavg()[0].toFixed(2)})`);
	report(`keypress to frame, ${label} (k pause / G follow, p95)`, `${(await keyToFrame(session, 40)).toFixed(1)} ms`, '≤ 50 ms');
	const later = await measure(session, 20);
	report(`RSS, ${label} (then / a minute on / peak)`, `${mb(steady.rss)} / ${mb(later.rss)} / ${mb(peakRssBytes(session.pid()))}`, 'flat');
	session.stop();
	front.close();
	sim.stop();
	await sleep(1000);
}

console.log(`log view (120×40 pty, NODE_ENV=production): ${linesPerSecond} lines/s, ${backlog.toLocaleString('en')} lines of backlog`);
await logCase({label: 'one worker', workers: 1, open: 'llama-3-8b-instruct-vllm benchworker00'});
await logCase({label: '20 workers merged', workers: 20, open: 'llama-3-8b-instruct-vllm'});
process.exit(0);

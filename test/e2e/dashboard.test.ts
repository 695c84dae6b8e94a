import {afterEach, describe, expect, test} from 'vitest';
import {hasTmux, TmuxSession, wholeEndpointsHelp} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
/** The demo's past is the first test's subject; the others (layout, signals) simulate an hour of it, not two. */
const shortPast = ['--demo-past', '1h'];
afterEach(() => {
	session?.close();
	session = undefined;
});

/** The real program in a real terminal (tmux), on the built-in simulator: no key configured, so DEMO. */
describe.runIf(hasTmux)('the dashboard in a real terminal', () => {
	test("120×40: every pane with live numbers, navigation, filter, help, palette, a job's stream, resize, q restores the terminal", async () => {
		session = new TmuxSession(120, 40);
		// The first frame, before any figure: it says the demo's past is being simulated (or, on a fast machine, that it is).
		let screen = await session.waitFor(
			/podtop +DEMO +(?:simulating the past 2h(?:\d\dm)?…|past 2h(?:\d\dm)? simulated) +127\.0\.0\.1:\d+ │ key ••••[\dA-F]{4}/,
		);
		// The first figures once the simulator has run its past and reached now (seconds; longer on a loaded machine).
		screen = await session.waitFor(/Endpoints \(9\)[\s\S]*llama-3-8b-instruct-v\S*(?: +\d+){3}/, 60_000);
		// Then the past is recorded: two hours of history are there, and the header says they are simulated.
		screen = await session.waitFor(/podtop +DEMO +past 2h(?:\d\dm)? simulated +127\.0\.0\.1/, 60_000);
		expect(screen).toMatch(/NAME▲ +RUN IDLE INIT THR UNH MIN-MAX QUEUE PROG +DONE +FAIL RETRY +RATE FAIL% QUEUE TREND +ETA/);
		expect(screen.trimEnd().split('\n').length).toBeLessThanOrEqual(39);

		session.send('Tab');
		screen = await session.waitFor(/Pods \(12\)[\s\S]*llama-3-70b-finetune +8× H100 SXM +RUNNING +\S+ +\d+%/);
		// A stopped pod costs its volume now (the demo's 100 GB at $0.20/GB/month), not its running price; the title sums them.
		expect(screen).toMatch(/archived-experiment +1× A40 +EXITED.* ~\$0\.027\/h$/m);
		expect(screen).toMatch(/Pods \(12\) · 1h {2}running \$\d+\.\d\d\/h · stopped ~\$0\.\d+\/h/);
		session.send('Tab');
		screen = await session.waitFor(/GPUs \(20\)[\s\S]*stock ●●● High \d+/);
		expect(screen).toMatch(/H100 SXM +80G +\$2\.99 +\$2\.69 +\$\d/);

		session.send('1');
		await session.waitFor(/Endpoints \(9\)/);
		session.send('/');
		session.type('llama');
		session.send('Enter');
		screen = await session.waitFor(/Endpoints \(1\/9\) \/llama/);
		expect(screen).not.toMatch(/sdxl-turbo/);
		session.send('Escape');
		await session.waitFor(/Endpoints \(9\)/);

		session.send('?');
		await session.waitFor(/Keys: Endpoints \(Esc or \? to close\)/);
		session.send('Escape');
		// Esc and ':' read together would be Alt-: (a busy machine batches them): the help closes first.
		await session.waitFor(/Endpoints \(9\) · 1h +Enter details/);
		session.send(':');
		session.type('pods');
		session.send('Enter');
		await session.waitFor(/Pods \(12\)/);

		// Into an endpoint, send a test job, follow its stream as it arrives.
		session.send('1');
		await session.waitFor(/Endpoints \(9\)/);
		session.send('/');
		session.type('llama');
		session.send('Enter');
		await session.waitFor(/Endpoints \(1\/9\)/);
		session.send('Enter');
		await session.waitFor(/llama-3-8b-instruct-vllm \([a-z\d]{14}\)[\s\S]*pools ADA_24,AMPERE_24/);
		session.send('t');
		await session.waitFor(/Send a test job to llama-3-8b-instruct-vllm\? y\/N/);
		session.send('y');
		screen = await session.waitFor(/Job [\da-f-]+-u1 on [a-z\d]{14}[\s\S]*COMPLETED[\s\S]*throughput \d+\.\d tok\/s · KV cache \d+%/, 20_000);
		expect(screen).toMatch(/tokens \d+ in \/ 64 out/);

		// Resize to 80×24: the layout reflows at once into the compact one.
		session.send('Escape');
		await session.waitFor(/Tracked jobs \(1\)/);
		session.send('Escape');
		session.send('Escape');
		session.resize(80, 24);
		screen = await session.waitFor(/NAME▲ +WORKERS +QUEUE PROG +RATE FAIL% TREND +ETA/);
		expect(screen.split('\n').every(line => line.length <= 80)).toBe(true);
		expect(session.historySize()).toBeLessThanOrEqual(1);

		session.send('q');
		screen = await session.waitFor(/PODTOP-EXIT 0/);
		expect(screen).toMatch(/BEFORE-PODTOP/);
		expect(screen).not.toMatch(/podtop +DEMO/);
	}, 180_000);

	test('80×24: the compact layout, and the frame never grows past the screen', async () => {
		session = new TmuxSession(80, 24, shortPast);
		// The first figures come once the simulator has run its hour of past (seconds; longer on a loaded machine).
		const screen = await session.waitFor(/Endpoints \(9\)[\s\S]*llama-3-8b-ins\S* +\d+\/5/, 60_000);
		expect(screen).toMatch(/NAME▲ +WORKERS +QUEUE PROG +RATE FAIL% TREND +ETA/);
		session.send('Tab');
		await session.waitFor(/NAME +GPU +ST▲ +PER GPU +UTIL +CPU +\$\/HR/);
		session.send('Tab');
		await session.waitFor(/GPU TYPE▲ +VRAM +SECURE +COMM +SPOT +STOCK +FREE/);
		await new Promise(resolve => setTimeout(resolve, 6000));
		expect(session.historySize()).toBeLessThanOrEqual(1);
		expect(
			session
				.screen()
				.split('\n')
				.every(line => line.length <= 80),
		).toBe(true);
		session.send('C-c');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 60_000);

	test('SIGTERM restores the terminal too', async () => {
		session = new TmuxSession(100, 30, shortPast);
		await session.waitFor(/Endpoints \(9\)/);
		const pid = session.podtopPid();
		expect(pid).toBeGreaterThan(0);
		process.kill(pid!, 'SIGTERM');
		const screen = await session.waitFor(/PODTOP-EXIT 0/);
		expect(screen).toMatch(/BEFORE-PODTOP/);
		expect(screen).not.toMatch(/Endpoints \(9\)/);
	}, 30_000);

	test('SIGINT from another process (kill -INT, a supervisor) restores the terminal as well', async () => {
		session = new TmuxSession(100, 30, shortPast);
		await session.waitFor(/Endpoints \(9\)/);
		process.kill(session.podtopPid()!, 'SIGINT');
		const screen = await session.waitFor(/PODTOP-EXIT \d+/);
		expect(screen).toMatch(/BEFORE-PODTOP/);
		expect(screen).not.toMatch(/Endpoints \(9\)/);
	}, 30_000);

	test('--read-only: the header says so, write keys are gone from the keys and the help', async () => {
		session = new TmuxSession(120, 40, ['--read-only', ...shortPast]);
		let screen = await session.waitFor(/Endpoints \(9\)/);
		expect(screen).toMatch(/podtop +DEMO +READ-ONLY/);
		session.send('t');
		session.send('P');
		session.send('n');
		// Each write key says why it does nothing (the last one's words stay on the message line until an action goes ahead).
		await session.waitFor(/read-only mode: n new job is off/);
		session.send('?');
		screen = await session.waitFor(wholeEndpointsHelp);
		expect(screen).not.toMatch(/test job|new job|purge|\(write\)|\(destructive\)/);
		expect(screen).not.toMatch(/New job on/);
		expect(screen).not.toMatch(/y\/N|Type "/);
		session.send('q');
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 30_000);

	test('podtop job opens straight into a job; --ascii and --no-color draw without Unicode blocks', async () => {
		session = new TmuxSession(100, 30, ['job', 'nosuchendpoint', 'nosuchjob', '--ascii', '--no-color']);
		// Asked once the demo's simulator has run its past (the job view records too).
		const screen = await session.waitFor(/Job nosuchjob on nosuchendpoint[\s\S]*not found/, 60_000);
		expect(screen).not.toMatch(/[█░●○▁▂▃▄▅▆▇]/);
		session.send('Escape');
		await session.waitFor(/Endpoints \(9\)/);
		session.send('q');
		await session.waitFor(/PODTOP-EXIT 0/);
	}, 90_000);
});

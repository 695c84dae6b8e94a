import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {startTestSim, waitFor, type TestSim} from '../helpers/sim-client.js';
import {hasTmux, TmuxSession, wholeEndpointsHelp} from '../helpers/tmux.js';

let session: TmuxSession | undefined;
let sims: TestSim[] = [];
let home: string | undefined;
afterEach(async () => {
	session?.close();
	session = undefined;
	await Promise.all(sims.map(async sim => sim.close()));
	sims = [];
	if (home) {
		rmSync(home, {recursive: true, force: true});
		home = undefined;
	}
});

/** Every request a simulator has answered, whatever the route. */
async function requests(sim: TestSim): Promise<number> {
	const stats = (await sim.call('GET', '/__sim/stats')).body.endpoints as Record<string, Record<string, {requests: number}>>;
	return Object.values(stats)
		.flatMap(routes => Object.values(routes))
		.reduce((sum, route) => sum + route.requests, 0);
}

const pause = async (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** The real program in a real terminal, with two accounts in ~/.runpod/config.toml: two simulators with fleets of their own. */
describe.runIf(hasTmux)(':profile in a real terminal', () => {
	test('switches to the other account in the same screen (its header, its endpoints, its read-only rule), the old one polled no more and its history lock let go', async () => {
		const acme = await startTestSim({apiKey: 'rpa_ACMEKEY0000111122223333', endpoints: [{id: 'ep-acme', name: 'acme-echo', workersMin: 0, workersMax: 1}]});
		sims.push(acme);
		const bravo = await startTestSim({
			apiKey: 'rpa_BRAVOKEY000011112222333',
			endpoints: [
				{id: 'ep-bravo', name: 'bravo-echo', workersMin: 0, workersMax: 1},
				{id: 'ep-bravo-2', name: 'bravo-two', workersMin: 0, workersMax: 1},
			],
		});
		sims.push(bravo);
		home = mkdtempSync(path.join(tmpdir(), 'podtop-switch-home-'));
		mkdirSync(path.join(home, '.runpod'));
		const keys = path.join(home, '.runpod', 'config.toml');
		const section = (name: string, sim: TestSim) => `[${name}]\napi_key = "${sim.apiKey}"\napi_url = "${sim.url}/v2"\ngraphql_url = "${sim.url}/graphql"\n`;
		// Two profiles of one account (bravo-too is bravo again): they share its history file, and its lock.
		writeFileSync(keys, `${section('acme', acme)}\n${section('bravo', bravo)}\n${section('bravo-too', bravo)}`);
		chmodSync(keys, 0o600);
		mkdirSync(path.join(home, '.config', 'podtop'), {recursive: true});
		writeFileSync(path.join(home, '.config', 'podtop', 'config.toml'), '[profile.bravo]\nread-only = true\ncolor = "green"\n');
		for (const folder of ['state', 'run']) {
			mkdirSync(path.join(home, folder), {mode: 0o700});
		}

		// RUNPOD_API_KEY is set, and wrong for both: a profile named uses its own key (the simulators would refuse this one).
		session = new TmuxSession(120, 36, ['--profile', 'acme'], {
			HOME: home,
			XDG_CONFIG_HOME: path.join(home, '.config'),
			XDG_STATE_HOME: path.join(home, 'state'),
			XDG_RUNTIME_DIR: path.join(home, 'run'),
			RUNPOD_API_KEY: 'rpa_ENVIRONMENTKEYNOTFORPROFILES',
		});
		let screen = await session.waitFor(/Endpoints \(1\)[\s\S]*acme-echo/, 60_000);
		const acmeHost = new URL(acme.url).host;
		expect(screen).toMatch(new RegExp(String.raw`^podtop +LIVE {2}acme +${acmeHost.replaceAll('.', String.raw`\.`)} `, 'm'));
		screen = await session.waitFor(/● rec/);
		const polled = await requests(acme);
		await waitFor(async () => (await requests(acme)) > polled, 20_000, 200);

		// In an endpoint's details, in the past: the switch comes back to the list, live.
		session.send('Enter');
		await session.waitFor(/acme-echo[\s\S]*workers/i);
		await waitFor(
			() => {
				session!.send('[');
				return / AT \d\d:\d\d/.test(session!.screen());
			},
			20_000,
			500,
		);

		// A name the file lacks is said; the account stays.
		session.type(':profile nope');
		session.send('Enter');
		screen = await session.waitFor(/no profile "nope" in ~\/\.runpod\/config\.toml; the profiles are acme, bravo, bravo-too/);
		expect(screen).toMatch(/^podtop +LIVE {2}acme /m);

		// Tab completes the name from the file's sections.
		session.type(':profile b');
		session.send('Tab');
		await session.waitFor(/:profile bravo/);
		session.send('Enter');
		screen = await session.waitFor(/Endpoints \(2\)[\s\S]*bravo-echo[\s\S]*bravo-two/, 30_000);
		expect(screen).toMatch(new RegExp(String.raw`^podtop +LIVE {2}READ-ONLY {2}bravo +${new URL(bravo.url).host.replaceAll('.', String.raw`\.`)} `, 'm'));
		expect(screen).not.toMatch(/acme-echo| AT \d\d:\d\d/);
		// The same screen: the shell's line before podtop never came back into view.
		expect(screen).not.toContain('BEFORE-PODTOP');

		// The old account is polled no more; the new one is.
		const acmeAfter = await requests(acme);
		const bravoAtSwitch = await requests(bravo);
		await pause(8000);
		expect(await requests(acme)).toBe(acmeAfter);
		expect(await requests(bravo)).toBeGreaterThan(bravoAtSwitch);

		// The profile's read-only rule holds: a write key is gone from help, and :profile is listed.
		session.send('?');
		screen = await session.waitFor(wholeEndpointsHelp);
		expect(screen).toMatch(/:profile <profile>/);
		expect(screen).not.toMatch(/\(write\)|\(destructive\)/);
		session.send('q');
		await session.waitFor(/Endpoints \(2\)/);

		// The same account under another name, straight from it: it records, so the old engine let go of the history file's lock first.
		session.type(':profile bravo-too');
		session.send('Enter');
		screen = await session.waitFor(/^podtop +LIVE {2}bravo-too [\s\S]*Endpoints \(2\)[\s\S]*bravo-echo/m, 30_000);
		screen = await session.waitFor(/● rec|history: read-only/);
		expect(screen).toMatch(/● rec/);
		session.send('q');
		// Everything of every account closed: the process ends on its own (no timer or socket left holding it).
		await session.waitFor(/PODTOP-EXIT 0/, 15_000);
	}, 150_000);
});

import {lstatSync, mkdtempSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import chalk from 'chalk';
import {expect, onTestFinished, test, vi} from 'vitest';
import {logView, numbered} from '../helpers/log-view-fixture.js';

test('/ filters as it is typed, the matches marked; c shows 0, 2 or 5 lines around each; ! inverts; Esc clears, then goes back', async () => {
	const {level} = chalk;
	chalk.level = 1;
	onTestFinished(() => {
		chalk.level = level;
	});
	const {fake, press, until, text, lastFrame, opened} = await logView();
	fake.push(...numbered(20).map(line => (line.endsWith('07') || line.endsWith('15') ? `${line} error: disk full` : line)));
	await until(/line 020/);
	await press('/');
	for (const key of 'error') {
		await press(key);
	}

	const filtered = await until(/\/error 2 matches/);
	expect(text(filtered)).toEqual(['line 007 error: disk full', 'line 015 error: disk full']);
	// The match is drawn inverse.
	expect(lastFrame()).toMatch(/\u001B\[7m(?:\u001B\[1m)?error/);
	await press('\r');
	await press('c');
	expect(text(await until(/context 2/))).toEqual([
		'line 005',
		'line 006',
		'line 007 error: disk full',
		'line 008',
		'line 009',
		'--',
		'line 013',
		'line 014',
		'line 015 error: disk full',
		'line 016',
		'line 017',
	]);
	await press('c');
	expect(text(await until(/context 5/))).toHaveLength(19);
	await press('c');
	await until(/\/error 2 matches · source|\/error 2 matches$/m);

	await press('/');
	for (let erase = 0; erase < 5; erase++) {
		await press('\u007F');
	}

	for (const key of '!line 0[01]') {
		await press(key);
	}

	expect(text(await until(/\/!line 0\[01] 1 match/))).toEqual(['line 020']);
	await press('\r');
	await press('\u001B');
	await until(/buffer 20\/5,000 lines$/m);
	await press('\u001B');
	await until(/Endpoints/);
	expect(fake.isClosed()).toBe(true);
	expect(opened).toHaveLength(1);
});

test('w cuts long lines or wraps them; t shows times; J pretty-prints JSON lines and leaves others as they are', async () => {
	const {fake, press, until, text} = await logView();
	const long = `${'a'.repeat(150)}!`;
	fake.push(long, '{"level":"info","msg":"ready","gpu":[0,1]}', 'plain');
	await until(/plain/);
	expect(text()).toEqual([long.slice(0, 100), long.slice(100), '{"level":"info","msg":"ready","gpu":[0,1]}', 'plain']);
	await press('w');
	const cut = text(await until(/ · cut/));
	expect(cut[0]).toBe(`${'a'.repeat(99)}…`);
	expect(cut).toHaveLength(3);
	await press('w');
	await press('t');
	const timed = text(await until(/^(?:\w{3} \d+ )?\d\d:\d\d:\d\d plain$/m));
	expect(timed.at(-1)).toMatch(/^(?:\w{3} \d+ )?\d\d:\d\d:\d\d plain$/);
	await press('t');
	await press('J');
	expect(text(await until(/ · json/))).toEqual([
		long.slice(0, 100),
		long.slice(100),
		'{',
		'  "level": "info",',
		'  "msg": "ready",',
		'  "gpu": [',
		'    0,',
		'    1',
		'  ]',
		'}',
		'plain',
	]);
});

test('s follows the container, the system, then both again, through the session; system lines are marked while both show', async () => {
	const {fake, press, until, text, opened} = await logView();
	fake.push({line: 'pulling image', source: 'system'}, 'model loaded');
	expect(text(await until(/model loaded/))).toEqual(['sys pulling image', 'model loaded']);
	expect(opened[0]!.query).toEqual({tail: 200, source: undefined});
	await press('s');
	await until(/source container/);
	await press('s');
	await until(/source system/);
	await press('s');
	await until(/source both/);
	expect(fake.sources).toEqual(['container', 'system', undefined]);
});

test('Ctrl-S saves the lines buffered to a new private file (0600) in the state folder, inert, and says where', async () => {
	const state = mkdtempSync(join(tmpdir(), 'podtop-logs-'));
	vi.stubEnv('XDG_STATE_HOME', state);
	onTestFinished(() => {
		vi.unstubAllEnvs();
	});
	const {fake, press, until} = await logView();
	fake.push('first', '\u001B[31mred', {line: 'boot', source: 'system'});
	await until(/boot/);
	await press('\u0013');
	const saved = await until(/saved 3 lines to /);
	const path = /saved 3 lines to (\S+) \(0600\)/.exec(saved.replaceAll('\n', ''))?.[1] ?? '';
	expect(path.startsWith(join(state, 'podtop', 'logs', 'pod_trainer-'))).toBe(true);

	expect(lstatSync(path).mode & 0o777).toBe(0o600);

	expect(lstatSync(join(state, 'podtop', 'logs')).mode & 0o777).toBe(0o700);
	const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
	expect(lines.map(line => line.split(' ').slice(1).join(' '))).toEqual(['p1 container first', 'p1 container ␛[31mred', 'p1 system boot']);
});

test('l opens the log of the selected pod, of an endpoint (its workers merged), of the worker that ran a job; :logs names one', async () => {
	const pods = await logView(undefined, {views: [{type: 'list'}], view: {pane: 'pods'}});
	await pods.until(/trainer/);
	await pods.press('l');
	await pods.until(/Log of pod trainer/);
	expect(pods.opened.map(open => open.subject)).toEqual([{kind: 'pod', podId: 'p1'}]);
	pods.unmount();

	const endpoint = await logView({kind: 'endpoint', endpointId: 'ep1'}, {views: [{type: 'list'}, {type: 'endpoint', endpointId: 'ep1'}]});
	await endpoint.press('l');
	await endpoint.until(/Log of llm: every worker/);
	expect(endpoint.opened.map(open => open.subject)).toEqual([{kind: 'endpoint', endpointId: 'ep1'}]);
	endpoint.unmount();

	const job = await logView({kind: 'worker', endpointId: 'ep1', workerId: 'w-42'}, {views: [{type: 'list'}, {type: 'job', endpointId: 'ep1', jobId: 'j1'}]});
	const key = job.state.writes.trackJob('ep1', 'j1');
	await job.press('l');
	await job.until(/no worker has taken this job yet/);
	job.state.writes.updateJob(key, {id: 'j1', status: 'IN_PROGRESS', workerId: 'w-42'}, 1);
	await job.press('l');
	await job.until(/Log of worker w-42 of llm/);
	expect(job.opened.map(open => open.subject)).toEqual([{kind: 'worker', endpointId: 'ep1', workerId: 'w-42'}]);
	job.unmount();

	const named = await logView(undefined, {views: [{type: 'list'}]});
	for (const key of ':logs llm w-7\r') {
		await named.press(key);
	}

	await named.until(/Log of worker w-7 of llm/);
	expect(named.opened.map(open => open.subject)).toEqual([{kind: 'worker', endpointId: 'ep1', workerId: 'w-7'}]);
});

test('without openLogs (GraphQL publishes no logs) l says logs need REST v2', async () => {
	const {press, until} = await logView(undefined, {views: [{type: 'list'}], view: {pane: 'pods'}, withoutLogs: true});
	await until(/trainer/);
	await press('l');
	await until(/logs need REST v2/);
});

test("? lists the log view's keys, from the operations", async () => {
	const {press, until} = await logView();
	await press('?');
	const help = await until(/follow the tail again/);
	for (const title of [
		'lines of context around each match',
		'wrap long lines',
		"show each line's time",
		'pretty-print JSON',
		"follow the container's lines",
		'save the lines buffered',
	]) {
		expect(help).toContain(title);
	}

	expect(help).toMatch(/Ctrl-S +save the lines buffered/);
});

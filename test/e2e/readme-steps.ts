import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {expect} from 'vitest';
import type {Outcome, Step} from '../helpers/readme-runner.js';
import {waitFor, waitForStatus} from '../helpers/sim-client.js';
import {jobOn, json, recorded, scaleTo, scrape, secondAgo, type Fleet} from './readme-fleet.js';

const agent = /^RUNPOD_API_KEY=… podtop agent$/;
const groupAgent = /^RUNPOD_API_KEY=… podtop agent --group ops$/;
const sim = /^npm start -- sim --port 8787/;
const faultySim = /^npm start -- sim --faults/;
const scale = /^podtop endpoint scale /;
const stop = /^podtop pod stop <pod>$/;
const dryRun = {adds: ['--dry-run'], why: 'with --dry-run: a write'};
const ok = (check?: (outcome: Outcome, fleet: Fleet) => void | Promise<void>, fill?: Step<Fleet>['runs'][number]['fill']) => [{exit: 0, check, fill}];

/** Every command of the readme's ```sh fences, what it must do, and what stands in for its placeholders. */
export const steps: ReadonlyArray<Step<Fleet>> = [
	{match: /^npm install$/, skip: 'the setup that built what this test runs', runs: []},
	{match: /^npm test$/, skip: 'the whole suite, this test among it', runs: []},
	{match: /^npm run (lint|bench|bench:sim|bench:soak|screenshot)$/, skip: 'linting the tree, or measuring for minutes: not a check of the readme', runs: []},
	{match: /^npm start$/, how: 'dashboard', live: false, ready: () => /podtop +DEMO[\s\S]*Endpoints \(\d+\)/, runs: ok()},
	{match: /^RUNPOD_API_KEY=… npm start$/, how: 'dashboard', ready: ({echo}) => new RegExp(String.raw`podtop +LIVE[\s\S]*${echo.name}`), runs: ok()},
	{
		match: /^RUNPOD_API_KEY=… npm start -- --endpoints abc123,def456$/,
		how: 'dashboard',
		ready: ({endpoints}) => new RegExp(String.raw`Endpoints \(2\)[\s\S]*${endpoints[0]!.name}`),
		runs: ok(
			({screen}, {endpoints}) => {
				expect(screen).toContain(endpoints[1]!.name);
				expect(screen).not.toContain(endpoints[2]!.name);
			},
			({endpoints}) => ({abc123: endpoints[0]!.id, def456: endpoints[1]!.id}),
		),
	},
	{
		match: /^npm start -- --help$/,
		npm: true,
		live: false,
		runs: ok(({stdout}) => {
			expect(stdout).toMatch(/Commands\n\s+job <endpoint> <id>/);
		}),
	},
	{
		match: /^podtop snapshot$/,
		runs: ok(({stdout}, {echo}) => {
			expect(stdout).toMatch(new RegExp(String.raw`^LIVE · [\s\S]*${echo.id} +${echo.name}`));
		}),
	},
	{
		match: /^podtop snapshot --json$/,
		runs: ok(({stdout}, {echo}) => {
			expect(json(stdout).endpoints).toContainEqual(expect.objectContaining({id: echo.id, name: echo.name}));
		}),
	},
	{
		match: /^podtop spend --since 7d$/,
		runs: ok(({stdout}) => {
			expect(stdout).toMatch(/^spend .*\(UTC days, local time\): \$[\d.]+\nBUCKET +TOTAL/);
		}),
	},
	{
		match: /^podtop spend --by pod --json$/,
		runs: ok(({stdout}) => {
			expect(json(stdout)).toMatchObject({by: 'pod', resources: expect.any(Array)});
		}),
	},
	{
		match: /^podtop spend --bucket hour --since 24h --csv > spend\.csv$/,
		runs: ok(({stdout}) => {
			expect(stdout).toMatch(/^from,to,total,podGpu,/);
		}),
	},
	{
		match: /^podtop workers <endpoint>$/,
		runs: ok(
			({stdout}, {echo}) => {
				expect(stdout).toContain(echo.name);
				expect(stdout).toMatch(/\bIDLE\b|\bRUNNING\b|INITIALIZING/);
			},
			({echo}) => ({'<endpoint>': echo.id}),
		),
	},
	{
		match: /^podtop logs pod <pod> --tail 50$/,
		runs: ok(
			({stdout}) => {
				expect(stdout.trim().split('\n').length).toBeGreaterThan(0);
				expect(stdout).not.toContain('\u001B');
			},
			({running}) => ({'<pod>': running.id}),
		),
	},
	{
		match: /^podtop logs worker <endpoint> --all -f$/,
		how: 'long',
		stop: 'SIGINT',
		ready: () => /^\[\w+] /m,
		runs: ok(
			({stdout}) => {
				expect(
					stdout
						.trim()
						.split('\n')
						.every(line => /^\[\w+] /.test(line)),
				).toBe(true);
			},
			({echo}) => ({'<endpoint>': echo.id}),
		),
	},
	{
		match: /^podtop logs worker <endpoint> <worker> --since 10m --jsonl$/,
		runs: ok(
			({stdout}) => {
				for (const line of stdout.trim().split('\n')) {
					expect(json(line)).toMatchObject({source: expect.stringMatching(/^(container|system)$/), line: expect.any(String)});
				}
			},
			async ({sim, echo}) => {
				const worker = await waitFor(async () => ((await sim.call('GET', `/v2/serverless/${echo.id}/workers`)).body.workers as Array<{id: string}>)[0]);
				return {'<endpoint>': echo.id, '<worker>': worker.id};
			},
		),
	},
	{
		match: /^podtop watch --jsonl$/,
		how: 'long',
		stop: 'SIGINT',
		ready: () => /^{"type":"health".*}$/m,
		runs: ok(({stdout}) => {
			expect(
				stdout
					.trim()
					.split('\n')
					.map(line => json(line).type),
			).toContain('health');
		}),
	},
	{
		// The job waits in a queue with no workers until podtop follows it, then runs: however slow
		// podtop is to start, it sees the stream arrive (a job over before it looks prints its output).
		match: /^podtop job <endpoint> <id>$/,
		async during({sim, spare}) {
			await waitFor(async () => (await sim.call('GET', '/__sim/stats')).body.endpoints[spare.id]?.stream?.requests > 0, 20_000, 100);
			await scaleTo(sim, spare.id, 1);
		},
		runs: ok(
			({stdout}) => {
				expect(stdout).toBe('hello\nfrom a job\n');
			},
			async fleet => {
				await scaleTo(fleet.sim, fleet.spare.id, 0);
				return jobOn(fleet, {delay_ms: 500, stream: ['hello\n', 'from a job\n']}, fleet.spare);
			},
		),
	},
	{
		match: /^podtop job <endpoint> <id> --json$/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({status: 'COMPLETED', output: {payload: 1}});
			},
			async fleet => jobOn(fleet, {delay_ms: 300, payload: 1}),
		),
	},
	{
		match: /^podtop run <endpoint> --input '{"prompt": "hi"}'$/,
		...dryRun,
		runs: ok(
			({stdout}) => {
				expect(json(stdout).body).toEqual({input: {prompt: 'hi'}});
			},
			({echo}) => ({'<endpoint>': echo.id}),
		),
	},
	{
		match: /^podtop run <endpoint> --input @job\.json --json$/,
		...dryRun,
		runs: ok(
			({stdout}) => {
				expect(json(stdout).body).toEqual({input: {prompt: 'from a file'}});
			},
			({echo}, cwd) => {
				writeFileSync(path.join(cwd, 'job.json'), '{"prompt": "from a file"}');
				return {'<endpoint>': echo.id};
			},
		),
	},
	{
		match: /^podtop run <endpoint> --input - --dry-run$/,
		stdin: '{"prompt": "from standard input"}',
		runs: ok(
			({stdout}) => {
				expect(json(stdout).body).toEqual({input: {prompt: 'from standard input'}});
			},
			({echo}) => ({'<endpoint>': echo.id}),
		),
	},
	{
		match: /^podtop run black-forest-labs-flux-1-schnell --prompt "a red fox" --width 768 --format png$/,
		...dryRun,
		runs: ok(({stdout}) => {
			expect(json(stdout)).toMatchObject({body: {input: {prompt: 'a red fox', width: 768, image_format: 'png'}}, cost: expect.any(Number)});
		}),
	},
	{
		match: /^podtop run black-forest-labs-flux-1-schnell --prompt "a red fox" --format png --save fox\.png$/,
		runs: [
			{
				exit: 0,
				// fox.png lands in the fence's folder: the check reads it there.
				fill: (_fleet, cwd) => ({'fox.png': path.join(cwd, 'fox.png')}),
				check({stderr}) {
					const file = /^podtop: saved image 1024×1024 \(png\) \S+ to (\S+fox\.png) \([\d,]+ bytes\)$/m.exec(stderr)![1]!;
					expect(readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
				},
			},
		],
	},
	{
		match: /^podtop load <endpoint> --input '{"prompt": "hi"}' --rate 2\/s --jobs 10 --yes --json$/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({route: '/run', planned: 10, jobs: {sent: 10, completed: 10, failed: 0}, total: {count: 10}});
			},
			({echo}) => ({'<endpoint>': echo.id}),
		),
	},
	{
		match: /^podtop cancel <endpoint> <id> \[--json]$/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({status: 'CANCELLED'});
			},
			async fleet => jobOn(fleet, {delay_ms: 60_000}),
		),
	},
	{
		match: /^podtop retry <endpoint> <id> \[--json]$/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({status: 'IN_QUEUE'});
			},
			async fleet => {
				const fill = await jobOn(fleet, {delay_ms: 10, error: 'out of memory'});
				await waitForStatus(fleet.sim, fleet.echo.id, fill['<id>'], 'FAILED', 20_000);
				return fill;
			},
		),
	},
	{
		match: /^podtop purge <endpoint> --yes \[--json]$/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({removed: 0});
			},
			({flaky}) => ({'<endpoint>': flaky.id}),
		),
	},
	{
		match: stop,
		runs: ok(
			({stdout}) => {
				expect(stdout).toMatch(/^stopped .* is EXITED/);
			},
			({running}) => ({'<pod>': running.id}),
		),
	},
	{
		// The pod just stopped: its GPUs are free again whatever the market did meanwhile.
		match: /^podtop pod resume <pod>$/,
		needs: [stop],
		runs: ok(
			({stdout}) => {
				expect(stdout).toMatch(/^resumed: .* is (STARTING|RUNNING)/);
			},
			({running}) => ({'<pod>': running.id}),
		),
	},
	{
		match: /^podtop pod terminate <pod>$/,
		runs: [
			{
				exit: 2,
				fill: ({exited}) => ({'<pod>': exited.id}),
				check({stderr}) {
					expect(stderr).toMatch(/would terminate pod .* Add --yes to terminate/);
				},
			},
		],
	},
	{
		match: /^podtop pod deploy --gpu-type L4 --image runpod\/pytorch \[--spot --bid P]/,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({mutation: 'podRentInterruptable'});
			},
			() => ({P: '2.50'}),
		),
	},
	{
		match: scale,
		runs: ok(
			({stdout}) => {
				expect(stdout).toMatch(/now runs 0 to 0 workers/);
			},
			({parked}) => ({'<endpoint>': parked.id, N: '0'}),
		),
	},
	{
		match: /^podtop endpoint update <endpoint> \[--max N] \[--idle-timeout S] \[--gpu-ids POOLS] \.\.\. \[--dry-run]/,
		runs: ok(
			({stderr}) => {
				expect(stderr).toMatch(/→/);
			},
			({echo}) => ({'<endpoint>': echo.name, N: '7', S: '45', POOLS: 'AMPERE_16,ADA_24'}),
		),
	},
	{
		match: /^podtop endpoint create --name NAME --template ID --gpu-ids POOLS/,
		...dryRun,
		runs: ok(
			({stdout}) => {
				expect(json(stdout)).toMatchObject({mutation: 'saveEndpoint', input: {name: 'readme-check', templateId: 'runpod-echo'}});
			},
			() => ({NAME: 'readme-check', ID: 'runpod-echo', POOLS: 'AMPERE_16'}),
		),
	},
	{
		match: /^podtop endpoint delete <endpoint> --yes$/,
		needs: [scale],
		runs: [
			{
				label: 'while it has workers',
				exit: 2,
				fill: ({echo}) => ({'<endpoint>': echo.id}),
				check({stderr}) {
					expect(stderr).toMatch(/--min 0 --max 0/);
				},
			},
			{
				label: 'scaled to 0',
				exit: 0,
				fill: ({parked}) => ({'<endpoint>': parked.id}),
				check({stdout}) {
					expect(stdout).toMatch(/^deleted: endpoint/);
				},
			},
		],
	},
	// Each completion script: what the shell needs to load it, read by that shell without a syntax error where it is installed.
	...(
		[
			['bash', /\ncomplete -F _podtop podtop\n$/],
			['zsh', /^#compdef podtop\n/],
			['fish', /\ncomplete -c podtop /],
		] as const
	).map(([shell, loads]) => ({
		match: new RegExp(`^podtop completion ${shell} > `),
		live: false,
		runs: ok(({stdout}) => {
			expect(stdout).toMatch(loads);
			// A file: fish reads no script from a pipe node made.
			const folder = mkdtempSync(path.join(tmpdir(), 'podtop-completion-'));
			writeFileSync(path.join(folder, 'podtop'), stdout);
			const read = spawnSync(shell, ['-n', path.join(folder, 'podtop')], {encoding: 'utf8'});
			rmSync(folder, {recursive: true, force: true});
			if (!read.error) {
				expect(read.status, read.stderr).toBe(0);
			}
		}),
	})),
	{
		match: /^podtop doctor$/,
		runs: ok(({stdout}) => {
			expect(stdout).toMatch(/^✓ GraphQL API +127\.0\.0\.1:\d+: 3 reads, p50 \d+ ms, key accepted$/m);
			expect(stdout).toMatch(/^✓ job API +127\.0\.0\.1:\d+: 3 reads/m);
		}),
	},
	{
		match: /^podtop doctor --json \| jq /,
		why: 'its JSON checked for what the jq program reads',
		runs: ok(({stdout}) => {
			const checks = json(stdout).checks as Array<Record<string, unknown>>;
			expect(checks.find(check => check.id === 'graphql')).toMatchObject({status: 'ok'});
			expect(checks.every(check => ['ok', 'warn', 'fail', 'skip'].includes(String(check.status)))).toBe(true);
		}),
	},
	// The history fence reads what `watch` recorded into the fence's own state folder moments before.
	{
		match: /^podtop history$/,
		runs: ok(
			({stdout}, {echo}) => {
				expect(stdout).toContain(echo.id);
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {};
			},
		),
	},
	{
		match: /^podtop history llama-70b --since 6h --step 5m$/,
		runs: ok(
			({stdout}) => {
				expect(stdout).toMatch(/inqueue|queue/i);
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {'llama-70b': fleet.echo.name};
			},
		),
	},
	{
		match: /^podtop history llama-70b --json \| jq /,
		why: 'its JSON checked for what the jq program reads',
		runs: ok(
			({stdout}) => {
				const points = json(stdout).points as Array<Record<string, any>>;
				expect(points.length).toBeGreaterThan(0);
				expect(typeof points[0]!.at).toBe('string');
				expect(typeof points[0]!.inQueue.max).toBe('number');
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {'llama-70b': fleet.echo.name};
			},
		),
	},
	{
		match: /^podtop history "H100 SXM" --since 7d --step 1h --csv > h100\.csv$/,
		why: 'its CSV checked on stdout',
		runs: ok(
			({stdout}) => {
				expect(stdout.split('\n')[0]).toMatch(/^at,key,name,/);
				expect(stdout.trim().split('\n').length).toBeGreaterThan(1);
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {};
			},
		),
	},
	{
		match: /^podtop history --info$/,
		runs: ok(
			({stdout}) => {
				expect(stdout).toMatch(/integrity.*ok/i);
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {};
			},
		),
	},
	{
		match: /^podtop snapshot --at 03:12$/,
		runs: ok(
			({stdout}, {echo}) => {
				expect(stdout).toContain(echo.name);
			},
			async (fleet, cwd) => {
				await recorded(fleet, cwd);
				return {'03:12': secondAgo()};
			},
		),
	},
	{
		match: /^podtop events --since 24h --type alert,write$/,
		runs: ok(undefined, async (fleet, cwd) => {
			await recorded(fleet, cwd);
			return {};
		}),
	},
	{match: agent, how: 'long', ready: () => /serving the account .* \(mode 0600\)/, runs: ok()},
	{match: groupAgent, how: 'long', ready: () => /serving the account .* \(mode 0660\)/, runs: ok(undefined, ({group}) => ({ops: group}))},
	{match: /^RUNPOD_API_KEY=… podtop$/, how: 'dashboard', needs: [agent, groupAgent], ready: () => /podtop +LIVE .* via agent/, runs: ok()},
	{
		match: /^RUNPOD_API_KEY=… podtop export$/,
		how: 'long',
		adds: ['--listen', '127.0.0.1:0'],
		why: 'on a free port: another test may hold 9469',
		ready: () => /serving http/,
		runs: ok(async ({stderr}) => scrape(stderr)),
	},
	{
		match: /^RUNPOD_API_KEY=… podtop agent --export 127\.0\.0\.1:9469$/,
		how: 'long',
		why: 'on a free port: another test may hold 9469',
		ready: () => /serving http/,
		runs: ok(
			async ({stderr}) => scrape(stderr),
			() => ({9469: '0'}),
		),
	},
	{
		match: sim,
		how: 'long',
		live: false,
		why: 'on a free port: another test may hold 8787',
		ready: () => /Ctrl-C/,
		provides: output => ({8787: /127\.0\.0\.1:(\d+)/.exec(output)![1]!}),
		runs: ok(undefined, () => ({8787: '0'})),
	},
	{
		match: /^curl .*\/runsync$/,
		needs: [sim],
		live: false,
		runs: ok(({stdout}) => {
			expect(json(stdout)).toMatchObject({status: 'COMPLETED', output: {image_url: expect.any(String)}});
		}),
	},
	{
		match: /^curl .*\/graphql$/,
		needs: [sim],
		live: false,
		runs: ok(({stdout}) => {
			expect(json(stdout).data.myself.pods.length).toBeGreaterThan(0);
		}),
	},
	{
		match: faultySim,
		how: 'long',
		live: false,
		adds: ['--port', '0'],
		why: 'on a free port: another test may hold 8787',
		ready: () => /Ctrl-C/,
		provides: output => ({8787: /127\.0\.0\.1:(\d+)/.exec(output)![1]!, KEY: /api key\s+(\S+)/.exec(output)![1]!}),
		runs: ok(),
	},
	{
		match: /^curl .*\/__sim\/faults$/,
		needs: [faultySim],
		live: false,
		runs: ok(({stdout}) => {
			expect(json(stdout)).toEqual({added: {kind: 'reset', operation: 'run', count: 1}});
		}),
	},
];

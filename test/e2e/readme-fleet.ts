import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {request} from 'undici';
import type {EndpointSpec} from '../../source/sim/endpoint-spec.js';
import {gqlData} from '../helpers/graphql-client.js';
import {cliEnv, cliPath, runCli} from '../helpers/run-cli.js';
import {waitFor, type TestSim} from '../helpers/sim-client.js';

export type Pod = {readonly id: string; readonly name: string};
export type Fleet = {
	readonly sim: TestSim;
	readonly endpoints: readonly EndpointSpec[];
	/** An echo worker with workers up: jobs on it start at once. */
	readonly echo: EndpointSpec;
	/** An echo worker with no minimum: held at no workers until podtop follows a job there. */
	readonly spare: EndpointSpec;
	/** An endpoint whose queue the purge empties. */
	readonly flaky: EndpointSpec;
	/** An endpoint with no minimum, scaled to zero and deleted. */
	readonly parked: EndpointSpec;
	/** An on-demand pod of one GPU: stopped, then resumed on the GPU it freed. */
	readonly running: Pod;
	readonly exited: Pod;
	/** The primary group of the user running the test (`--group ops` needs a real one). */
	readonly group: string;
};

/** What the placeholders stand for, taken from the simulator's own fleet. */
export async function fleetOf(sim: TestSim): Promise<Fleet> {
	const {endpoints} = sim;
	const {myself} = await gqlData(sim, '{ myself { pods { id name desiredStatus podType gpuCount } } }');
	const pods = myself.pods as Array<Pod & {desiredStatus: string; podType: string; gpuCount: number}>;
	const gid = String(process.getgid!());
	return {
		sim,
		endpoints,
		echo: endpoints.find(spec => spec.worker === 'echo' && spec.workersMin > 0)!,
		spare: endpoints.find(spec => spec.worker === 'echo' && spec.workersMin === 0)!,
		flaky: endpoints.find(spec => spec.worker === 'flaky')!,
		parked: endpoints.find(spec => spec.worker === 'text-generation' && spec.workersMin === 0)!,
		running: pods.find(pod => pod.desiredStatus === 'RUNNING' && pod.podType !== 'INTERRUPTABLE' && pod.gpuCount === 1)!,
		exited: pods.find(pod => pod.desiredStatus === 'EXITED')!,
		group: readFileSync('/etc/group', 'utf8')
			.split('\n')
			.map(line => line.split(':'))
			.find(fields => fields[2] === gid)![0]!,
	};
}

export const json = (text: string) => JSON.parse(text) as Record<string, any>;
export const jobOn = async (fleet: Fleet, input: Record<string, unknown>, on = fleet.echo) => ({
	'<endpoint>': on.id,
	'<id>': await fleet.sim.run(on.id, input),
});
/** /metrics where the output says it serves, once it has the endpoints' queues. */
export const scrape = async (output: string) => {
	const url = `${/serving (http:\/\/\S+)/.exec(output)![1]!.replace(/\/metrics$/, '')}/metrics`;
	await waitFor(
		async () => /^podtop_endpoint_jobs_in_queue{/m.test(await (await request(url, {headersTimeout: 10_000, bodyTimeout: 10_000})).body.text()),
		15_000,
		250,
	);
};

/** Sets an endpoint's workers to `count` (min and max) over GraphQL, the rest of its record kept. */
export async function scaleTo(sim: TestSim, id: string, count: number): Promise<void> {
	await gqlData(sim, 'mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', {input: {id, workersMin: count, workersMax: count}});
}

const recordings = new Map<string, Promise<void>>();

/**
A recorded history in a fence's state folder: `podtop watch` against the simulator (it records the
account when no agent does) until `podtop history` finds the echo endpoint and a GPU type there with samples.
Once per folder, whatever the order the fence's steps run in.
*/
export async function recorded(fleet: Fleet, cwd: string): Promise<void> {
	let recording = recordings.get(cwd);
	if (!recording) {
		recording = (async () => {
			const env = cliEnv({XDG_STATE_HOME: path.join(cwd, 'state'), XDG_RUNTIME_DIR: cwd, TMPDIR: cwd, RUNPOD_API_KEY: fleet.sim.apiKey});
			const urls = ['--api-url', `${fleet.sim.url}/v2`, '--graphql-url', `${fleet.sim.url}/graphql`];
			const watch = spawn(process.execPath, [cliPath, 'watch', '--jsonl', ...urls], {env, stdio: 'ignore'});
			try {
				// Endpoints come with the first poll, GPU types a moment later: the fence reads both.
				for (const thing of [fleet.echo.id, 'H100 SXM']) {
					await waitFor(async () => (await runCli(['history', thing, '--json', ...urls], env)).code === 0, 20_000, 500);
				}
			} finally {
				watch.kill('SIGINT');
				await new Promise(resolve => watch.once('close', resolve));
			}
		})();
		recordings.set(cwd, recording);
	}

	return recording;
}

/** The moment a second ago as a time of day (`HH:MM:SS`), for a readme line that says `03:12`. */
export function secondAgo(): string {
	const date = new Date(Date.now() - 1000);
	return [date.getHours(), date.getMinutes(), date.getSeconds()].map(value => String(value).padStart(2, '0')).join(':');
}

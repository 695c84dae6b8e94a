import {afterEach, expect, test} from 'vitest';
import {closeRestSims, startRestSim} from './rest-client.js';
import {openLogStream} from './sse-client.js';

afterEach(closeRestSims);

test('a pod logs its boot and its app; a restart shows in the live stream; terminated, the stream ends and the pod is 404', async () => {
	const sim = await startRestSim({speed: 20});
	const pod = (await sim.rest('GET', '/v2/pods')).body.pods.find((each: any) => each.status === 'RUNNING' && each.actions.includes('restart') && !each.locked);
	const path = `/v2/pods/${pod.id}/logs`;
	const stream = await openLogStream(sim, path);
	const boot = await stream.takeUntil(event => event.data.source === 'container');
	expect(boot.map(event => event.data.line)).toEqual([`Pulling image ${pod.image}`, 'Image pulled', 'Starting container', expect.any(String)]);
	const system = await openLogStream(sim, `${path}?source=system&tail=2`);
	expect((await system.take(2)).map(event => event.data.line)).toEqual(['Image pulled', 'Starting container']);
	system.close();
	expect((await sim.rest('POST', `${path.replace('/logs', '/action')}`, {body: {action: 'restart'}})).status).toBe(200);
	await stream.takeUntil(event => event.data.line === 'Stopping container: restart');
	await stream.takeUntil(event => event.data.line === `Pulling image ${pod.image}`);
	expect((await sim.rest('POST', `${path.replace('/logs', '/action')}`, {body: {action: 'terminate'}})).status).toBe(204);
	await stream.ended;
	expect(stream.events.at(-1)!.data.line).toBe('Container exited with code 0');
	expect((await openLogStream(sim, path)).status).toBe(404);
	expect((await openLogStream(sim, `${path}?tail=9999`)).status).toBe(404);
});

import {mkdtempSync, rmSync} from 'node:fs';
import * as net from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, expect, test, vi} from 'vitest';
import {createAgentFeed} from '../../source/poll/agent-feed.js';
import {createPodtopStore} from '../../source/store/create-store.js';

vi.mock('node:net', async importOriginal => {
	const actual = await importOriginal<typeof net>();
	return {...actual, createConnection: vi.fn(actual.createConnection)};
});

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) {
		rmSync(folder, {recursive: true, force: true});
	}
});

test('with no agent socket on the host, the feed makes no connection (a stat a retry), says at once to poll directly, and attaches within a retry once one listens', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'podtop-feed-'));
	folders.push(folder);
	const socketPath = join(folder, 'agent.sock');
	const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
	const attached: boolean[] = [];
	const feed = createAgentFeed({
		socketPaths: [socketPath],
		secret: 'secret',
		store,
		writes,
		retryMs: 50,
		onAttached(now) {
			attached.push(now);
		},
	});
	const connect = vi.mocked(net.createConnection);
	connect.mockClear();
	feed.start();
	// Said in start itself: the pollers take over without waiting for a connection to fail.
	expect(attached).toEqual([false]);
	await new Promise(resolve => setTimeout(resolve, 400));
	expect(connect).not.toHaveBeenCalled();

	// An agent appears: the feed connects and says hello within a retry.
	const hello = new Promise<string>(resolve => {
		const server = net.createServer(socket => {
			socket.setEncoding('utf8');
			socket.once('data', (line: string) => {
				resolve(line);
				socket.destroy();
				server.close();
			});
		});
		server.listen(socketPath);
	});
	const said = JSON.parse(await hello);
	expect(said).toMatchObject({type: 'hello', protocol: 2, nonce: expect.stringMatching(/^[\da-f]{64}$/)});
	expect(said).not.toHaveProperty('account');
	expect(connect).toHaveBeenCalledWith(socketPath);
	feed.stop();
});

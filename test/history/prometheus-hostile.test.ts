import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {createServer, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, test} from 'vitest';
import {cliEnv, cliPath, collect} from '../helpers/run-cli.js';

/** The flags the bundle's shebang launches node with: the 256 MB heap a hostile answer must not fill. */
const launchFlags = /^#!\/usr\/bin\/env -S (?:[A-Z_]+=\S+ )*node (.*)$/m.exec(readFileSync(cliPath, 'utf8').slice(0, 400))![1]!.split(' ');

const megabyte = 1024 * 1024;

/** Writes `parts` one after another, waiting when the socket is full (60 MB are never held whole here). */
async function stream(response: ServerResponse, parts: Iterable<string>): Promise<void> {
	response.writeHead(200, {'content-type': 'application/json'});
	for (const part of parts) {
		if (response.destroyed) {
			return;
		}

		if (!response.write(part)) {
			await new Promise<void>(resolve => {
				response.once('drain', resolve);
				response.once('close', resolve);
			});
		}
	}

	response.end();
}

/** 10 MB of `[`: a document nested ten million deep. */
function* nestedArrays(): Generator<string> {
	const chunk = '['.repeat(megabyte);
	for (let index = 0; index < 10; index++) {
		yield chunk;
	}
}

/** A 60 MB matrix: 600 series of 4,000 points (2,400,000 in all), each point some 25 bytes. */
function* bigMatrix(): Generator<string> {
	yield '{"status":"success","data":{"resultType":"matrix","result":[';
	for (let series = 0; series < 600; series++) {
		const values = Array.from({length: 4000}, (_, index) => `[${1_700_000_000 + index * 15}.${series},"${(index % 1000) + 0.5}"]`).join(',');
		yield `${series === 0 ? '' : ','}{"metric":{"__name__":"podtop_endpoint_workers","endpoint_id":"ep${series}"},"values":[${values}]}`;
	}

	yield ']}}';
}

let server: Server;
let base: string;
beforeAll(async () => {
	server = createServer((request, response) => {
		void stream(response, request.url!.startsWith('/nested/') ? nestedArrays() : bigMatrix());
	});
	await new Promise<void>(resolve => {
		server.listen(0, '127.0.0.1', resolve);
	});
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise(resolve => {
		server.close(resolve);
	});
});

/** `podtop history --info` reading a Prometheus at `path` of the hostile server, launched as the bundle launches itself. */
async function historyInfo(path: string) {
	const child = spawn(process.execPath, [...launchFlags, cliPath, 'history', '--info', '--history-source', `prometheus=${base}${path}`], {
		env: cliEnv({RUNPOD_API_KEY: 'hostile-prometheus-key'}),
	});
	return collect(child, 120_000);
}

describe('a hostile Prometheus, under the 64 MB size cap, with the 256 MB heap podtop runs in: refused (exit 1), never a crash', () => {
	test('10 MB of nested arrays is refused with a sentence, and podtop lives', async () => {
		const {code, stderr} = await historyInfo('/nested');
		expect(stderr).not.toMatch(/heap limit|FATAL/);
		expect(stderr).toMatch(/Prometheus at 127\.0\.0\.1:\d+: the answer nests deeper than 8, more than podtop asks for/);
		expect(code).toBe(1);
	}, 150_000);

	test('a 60 MB matrix of 2,400,000 points is refused with a sentence, and podtop lives', async () => {
		const {code, stderr} = await historyInfo('/matrix');
		expect(stderr).not.toMatch(/heap limit|FATAL/);
		expect(stderr).toMatch(/Prometheus at 127\.0\.0\.1:\d+: the answer holds over 510000 arrays and objects in its list, more than podtop asks for/);
		expect(code).toBe(1);
	}, 150_000);
});

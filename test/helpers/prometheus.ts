import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {waitFor} from './sim-client.js';

/** Debian's `prometheus` (`.ci/run` installs it); tests that need it are skipped without it, and say so. */
export const hasPrometheus = (() => {
	try {
		execFileSync('prometheus', ['--version'], {stdio: 'ignore'});
		return true;
	} catch {
		return false;
	}
})();

export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as {port: number};
	await new Promise(resolve => server.close(resolve));
	return port;
}

export type RunningPrometheus = {readonly url: string; readonly close: () => Promise<void>};

/** A real Prometheus on 127.0.0.1 scraping `targets` (HOST:PORT) every `scrapeInterval`, its data in a temporary folder removed at close. */
export async function startPrometheus(targets: readonly string[], scrapeInterval = '1s'): Promise<RunningPrometheus> {
	const directory = mkdtempSync(join(tmpdir(), 'podtop-prometheus-'));
	writeFileSync(
		join(directory, 'prometheus.yml'),
		`global:\n  scrape_interval: ${scrapeInterval}\nscrape_configs:\n  - job_name: podtop\n    static_configs:\n      - targets: [${targets.map(target => `'${target}'`).join(', ')}]\n`,
	);
	const port = await freePort();
	const child = spawn(
		'prometheus',
		[`--config.file=${join(directory, 'prometheus.yml')}`, `--storage.tsdb.path=${join(directory, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
		{stdio: 'ignore'},
	);
	const closed = new Promise(resolve => child.once('close', resolve));
	const url = `http://127.0.0.1:${port}`;
	const close = async () => {
		child.kill('SIGTERM');
		await closed;
		rmSync(directory, {recursive: true, force: true});
	};

	try {
		await waitFor(async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok, 30_000, 200);
	} catch (error) {
		await close();
		throw error;
	}

	return {url, close};
}

import {UsageError} from '../lib/usage-error.js';
import {createMetrics} from '../serve/metrics.js';
import {createSpendFeed} from '../serve/spend-metrics.js';
import {serveMetrics} from '../serve/metrics-server.js';
import {readConnectionFlags, readingConnectionHelp} from './connection-flags.js';
import {withHeadlessEngine} from './headless-engine.js';
import {defaultListen, listenAddress} from './listen-address.js';
import {parseCommandLine} from './parse-command-line.js';
import {untilSignal} from './until-signal.js';
import {commandFlags} from './command-flags.js';

export const exportHelp = `
	Usage
	  $ podtop export [--listen HOST:PORT] [options]

	Serves /metrics in the Prometheus text format: per endpoint the job counters, queue, in
	progress, workers by state, throughput and failure ratio; per pod GPU and GPU-memory use per
	GPU, CPU, memory, uptime and $/h; per GPU type prices, stock and free GPUs; and podtop's own
	poll errors, data age and budget use. It attaches to \`podtop agent\` when one serves the account
	(or runs inside it: \`podtop agent --export HOST:PORT\`). A Grafana dashboard for these metrics is
	media/grafana-dashboard.json.

	Options
	  --listen          Where to serve /metrics  [default: ${defaultListen}]
${readingConnectionHelp}

	Examples
	  $ RUNPOD_API_KEY=... podtop export --listen 127.0.0.1:9469
	  $ curl -s 127.0.0.1:9469/metrics | grep podtop_endpoint_jobs_in_queue
`;

export async function runExport(argv: readonly string[]): Promise<void> {
	const cli = parseCommandLine(exportHelp, argv, commandFlags.export, 'podtop export');
	const {target, endpointFilter, budget, agent} = readConnectionFlags(cli.flags);
	const {host, port} = listenAddress(cli.flags.listen);
	await withHeadlessEngine(target, {budget, endpointFilter, allVisible: true, poll: ['endpoints', 'pods', 'gpus'], agent}, async engine => {
		const spend = createSpendFeed(engine.spend);
		const metrics = createMetrics(engine.store, {spendToday: spend.today});
		const server = await serveMetrics(metrics.registry, host, port).catch((error: unknown) => {
			const reason = (error as NodeJS.ErrnoException).code ?? String(error);
			throw new UsageError(`cannot listen on ${host}:${port} (${reason}): choose another --listen`);
		});
		engine.start();
		process.stderr.write(`podtop export: serving ${server.url}\n`);
		try {
			await untilSignal();
		} finally {
			spend.close();
			metrics.close();
			await server.close();
		}
	});
}

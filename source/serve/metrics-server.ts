import {createServer} from 'node:http';
import type {Registry} from 'prom-client';

export type MetricsServer = {readonly url: string; readonly close: () => Promise<void>};

/** `/metrics` in the Prometheus text format; anything else 404, any method but GET and HEAD 405. */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<MetricsServer> {
	const server = createServer((request, response) => {
		const path = (request.url ?? '/').split('?')[0];
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			response.writeHead(405, {allow: 'GET, HEAD'}).end();
			return;
		}

		if (path !== '/metrics') {
			response
				.writeHead(path === '/' ? 200 : 404, {'content-type': 'text/plain; charset=utf-8'})
				.end(path === '/' ? 'podtop exporter: see /metrics\n' : 'not found: see /metrics\n');
			return;
		}

		registry.metrics().then(
			text => {
				response.writeHead(200, {'content-type': registry.contentType}).end(request.method === 'HEAD' ? undefined : text);
			},
			() => {
				response.writeHead(500).end();
			},
		);
	});
	server.requestTimeout = 10_000;
	server.headersTimeout = 5000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address();
	const bound = typeof address === 'object' && address ? address.port : port;
	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
		async close() {
			server.closeAllConnections();
			await new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
			});
		},
	};
}

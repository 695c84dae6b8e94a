import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';

export type Delivery = {readonly at: number; readonly body: any};

/** A local webhook receiver that answers each delivery with the next status of `statuses` (the last one repeats). */
export async function startWebhookReceiver(statuses: readonly number[] = [200]): Promise<{url: string; deliveries: Delivery[]; close: () => Promise<void>}> {
	const deliveries: Delivery[] = [];
	const server = createServer((request, response) => {
		let text = '';
		request.setEncoding('utf8');
		request.on('data', chunk => {
			text += chunk;
		});
		request.on('end', () => {
			deliveries.push({at: Date.now(), body: JSON.parse(text)});
			response.statusCode = statuses[Math.min(deliveries.length - 1, statuses.length - 1)]!;
			response.end('ok');
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		deliveries,
		close: async () =>
			new Promise(resolve => {
				server.closeAllConnections();
				server.close(() => {
					resolve();
				});
			}),
	};
}

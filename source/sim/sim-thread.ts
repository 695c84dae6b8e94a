import {parentPort, workerData} from 'node:worker_threads';
import {startSimulator, type StartSimulatorOptions} from './start-simulator.js';

/** What the simulator's thread tells the thread that started it. */
export type SimThreadMessage =
	| {readonly type: 'listening'; readonly url: string; readonly apiKey: string; readonly endpoints: unknown[]}
	| {readonly type: 'present'; readonly figures: unknown}
	| {readonly type: 'failed'; readonly message: string}
	| {readonly type: 'closed'};

/**
The simulator's own thread (startSimulatorThread): it runs the simulator here, says where it
listens and when its past has run, and closes it when told to. It shares nothing with the client
but those messages: everything else goes over HTTP, as with any simulator.
*/
async function serve(): Promise<void> {
	const port = parentPort!;
	const post = (message: SimThreadMessage) => {
		port.postMessage(message);
	};

	let sim;
	try {
		sim = await startSimulator(workerData as StartSimulatorOptions);
	} catch (error) {
		post({type: 'failed', message: error instanceof Error ? error.message : String(error)});
		return;
	}

	const running = sim;
	port.on('message', (message: {type?: string}) => {
		if (message.type === 'close') {
			void running.close().then(() => {
				post({type: 'closed'});
				port.close();
			});
		}
	});
	post({type: 'listening', url: running.url, apiKey: running.apiKey, endpoints: [...running.endpoints]});
	await running.present;
	post({type: 'present', figures: running.pastFigures()});
}

if (parentPort) {
	await serve();
}

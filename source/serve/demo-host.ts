import {createServer} from 'node:net';
import {demoLinkLine, demoSocketPath, type DemoLink} from '../api/demo-link.js';
import {prepareSocketPath, protectSocket} from './socket-file.js';

export type DemoHost = {readonly socketPath: string; readonly close: () => Promise<void>};

/**
Tells this user's other podtops (`snapshot`, `run`, `job`…) where this process's demo simulator
listens, for as long as it runs: a socket in podtop's state folder (0700, made by podtop; the socket
0600) answering each connection with one line. Undefined when another podtop serves there already
(its simulator stays the one they use) or the place cannot be used (say, a path too long for a socket).
*/
export async function hostDemo(link: DemoLink, socketPath = demoSocketPath()): Promise<DemoHost | undefined> {
	try {
		await prepareSocketPath(socketPath);
	} catch {
		return undefined;
	}

	const line = demoLinkLine(link);
	const server = createServer(socket => {
		socket.on('error', () => undefined);
		socket.end(line);
	});
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(socketPath, () => {
				server.off('error', reject);
				resolve();
			});
		});
		protectSocket(socketPath);
	} catch {
		server.close();
		return undefined;
	}

	// A host that is ending does not keep this process alive.
	server.unref();
	let closed: Promise<void> | undefined;
	return {
		socketPath,
		async close() {
			closed ??= new Promise<void>(resolve => {
				server.close(() => {
					resolve();
				});
			});
			return closed;
		},
	};
}

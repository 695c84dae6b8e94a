// What a podtop in a pty shows: its frame writer sends each changed line at its row
// (ESC[row;1H … ESC[K), so the screen is those lines, kept as they arrive (colours taken out).
const line = /\u001B\[(\d+);1H((?:[^\u001B]|\u001B\[[\d;]*m)*)\u001B\[K/g;
const colours = /\u001B\[[\d;]*m/g;

/** Follows a session's output; `rows` is the screen as plain text, `changed` counts the frames drawn. */
export function trackScreen(session) {
	const screen = {rows: [], frames: 0, text: () => screen.rows.join('\n')};
	let pending = '';
	session.listeners.add(chunk => {
		pending += chunk.toString('utf8');
		let match;
		let consumed = 0;
		line.lastIndex = 0;
		while ((match = line.exec(pending))) {
			screen.rows[Number(match[1]) - 1] = match[2].replaceAll(colours, '');
			consumed = line.lastIndex;
		}

		if (consumed > 0) {
			screen.frames++;
		}

		// Keep an unfinished sequence for the next chunk.
		pending = pending.slice(consumed).slice(-4096);
	});
	return screen;
}

/** Resolves when the screen satisfies `test`, with the time it did (performance.now()). */
export async function waitForScreen(session, screen, test, timeoutMs = 15_000) {
	if (test(screen)) {
		return performance.now();
	}

	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			session.listeners.delete(listener);
			reject(new Error(`the screen never matched:\n${screen.text()}`));
		}, timeoutMs);
		const listener = () => {
			if (test(screen)) {
				clearTimeout(timer);
				session.listeners.delete(listener);
				resolve(performance.now());
			}
		};

		session.listeners.add(listener);
	});
}

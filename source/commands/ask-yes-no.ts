/**
Asks a y/N question on stderr and reads one key from the terminal (raw mode): y or Y is yes,
anything else (Enter, n, Ctrl-C) is no. Only for a terminal: the caller checks stdin is one.
*/
export async function askYesNo(question: string, stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): Promise<boolean> {
	stderr.write(question);
	return new Promise(resolve => {
		const wasRaw = stdin.isRaw;
		stdin.setRawMode?.(true);
		stdin.resume();
		const onData = (data: Buffer | string) => {
			stdin.off('data', onData);
			stdin.setRawMode?.(wasRaw);
			stdin.pause();
			const yes = /^[yY]/.test(data.toString());
			stderr.write(yes ? 'y\n' : 'N\n');
			resolve(yes);
		};

		stdin.on('data', onData);
	});
}

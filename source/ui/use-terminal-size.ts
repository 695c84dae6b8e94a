import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {readonly columns: number; readonly rows: number};

/** The terminal's size, updated on resize (so the layout reflows at once). */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const read = () => ({columns: stdout.columns || 80, rows: stdout.rows || 24});
	const [size, setSize] = useState<TerminalSize>(read);
	useEffect(() => {
		const onResize = () => {
			setSize(previous => {
				const next = read();
				return next.columns === previous.columns && next.rows === previous.rows ? previous : next;
			});
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);
	return size;
}

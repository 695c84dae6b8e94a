import type {RenderOptions} from 'ink';

/**
Ink's options for a view that takes the whole terminal. Ink enters the alternate screen and leaves it,
cursor shown, when the view is unmounted (q, Ctrl-C, a signal, or `onCrash` before the crash's
message), with nothing drawn after. Incremental rendering sends only the lines that changed; an
unchanged frame sends nothing. (Under Ink 6.8 podtop diffed frames itself: Ink's diff started one
row too low under a frame shorter than the screen, and a frame exactly as tall was redrawn whole.
Ink 7 fixed both.) Interactive even where CI is set: the dashboard runs only on a terminal.
*/
export function fullScreen(maxFps: number, stdout: NodeJS.WriteStream = process.stdout): RenderOptions {
	return {stdout, interactive: true, alternateScreen: true, incrementalRendering: true, exitOnCtrlC: false, patchConsole: false, maxFps};
}

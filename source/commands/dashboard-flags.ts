import type {CompletableFlags} from './value-kind.js';

/** Flags of the dashboard and `podtop job`. */
export const displayFlags = {
	color: {type: 'boolean', default: true},
	ascii: {type: 'boolean', default: false},
} as const satisfies CompletableFlags;

export const displayHelp = `
	Display
	  --no-color        No colours (also when NO_COLOR is set); symbols still carry meaning
	  --ascii           ASCII only (also when the locale is not UTF-8)`;

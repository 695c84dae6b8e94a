/** SGR codes as Ink's lines hold them: simple ones on and off, a reset, and compound ones (for the randomised text tests). */
export const sgrCodes = [
	'\u001B[2m',
	'\u001B[22m',
	'\u001B[7m',
	'\u001B[27m',
	'\u001B[33m',
	'\u001B[39m',
	'\u001B[1m',
	'\u001B[0m',
	'\u001B[m',
	'\u001B[38;5;12m',
	'\u001B[1;31m',
];

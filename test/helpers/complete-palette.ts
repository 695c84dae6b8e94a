import {paletteCompletion, tabPalette} from '../../source/operations/palette.js';
import type {PodtopState} from '../../source/store/state.js';
import type {Place} from '../../source/view-state/view-state.js';

/** One Tab press in the palette, from nothing cycled: what the input becomes. */
export function completePalette(input: string, place: Place, readOnly: boolean, state: PodtopState, profiles: () => readonly string[] = () => []): string {
	return tabPalette(input, undefined, () => paletteCompletion(input, place, readOnly, state, profiles)).input;
}

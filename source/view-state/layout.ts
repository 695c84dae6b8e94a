import type {ViewState} from './view-state.js';

/** From this many columns on, panes show their wide set of columns. */
export const wideFrom = 110;

export const isWide = (columns: number) => columns >= wideFrom;

/**
The frame's geometry: at most rows − 1 lines (a taller frame makes Ink clear the screen and wipe
scrollback), a header (a line more for each banner: DEGRADED, ALERT), the tabs, the body and the footer.
*/
export function frameLayout(state: Pick<ViewState, 'columns' | 'rows'>, banners: number): {width: number; height: number; bodyHeight: number; wide: boolean} {
	const width = Math.max(20, state.columns);
	const height = Math.max(6, state.rows - 1);
	const bodyHeight = Math.max(3, height - 1 - banners - 2);
	return {width, height, bodyHeight, wide: isWide(width)};
}

/** Rows one PgUp/PgDn moves: a screenful of the body, less the pane's title and header. */
export const pageSize = (state: Pick<ViewState, 'columns' | 'rows'>) => Math.max(1, frameLayout(state, 0).bodyHeight - 2);

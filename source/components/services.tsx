import {createContext, useContext, type ReactNode} from 'react';
import {useStore} from 'zustand';
import type {Engine} from '../engine/create-engine.js';
import type {Glyphs} from '../format/glyphs.js';
import type {ImageLoader} from '../images/image-loader.js';
import type {Accounts} from '../operations/operation.js';
import type {Tone} from '../rows/row.js';
import type {RowSelectors} from '../rows/visible-rows.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';
import type {ViewState} from '../view-state/view-state.js';
import type {ViewStore} from '../view-state/view-store.js';

/** Pictures in the job view: the loader that fetches and decodes them, and the colour depth to draw them at. */
export type Pictures = {
	readonly loader: ImageLoader;
	/** chalk's colour level: 3 truecolor, 2 the 256 colours, 1 the 16; 0 draws none (`--ascii`, no colour): the image's line alone. */
	readonly level: 0 | 1 | 2 | 3;
};

export type Services = {
	/** The data, read-only: the pollers and `engine.perform` are its only writers. */
	readonly store: PodtopStore;
	/** The UI's own state (panes, selection, overlays), changed only through its reducer. */
	readonly view: ViewStore;
	readonly rows: RowSelectors;
	/** Undefined while it starts: the first frame is drawn before it loads. */
	readonly engine: Engine | undefined;
	readonly glyphs: Glyphs;
	/** Ink colour names per tone; all undefined under NO_COLOR / --no-color. */
	readonly colors: Readonly<Record<Tone, string | undefined>>;
	/** Absent: an image is its link alone (nothing fetched). */
	readonly pictures?: Pictures;
	/** The accounts `:profile` switches between; absent, it cannot. */
	readonly accounts?: Accounts;
};

const ServicesContext = createContext<Services | undefined>(undefined);

export const colorful: Services['colors'] = {accent: 'cyan', good: 'green', warn: 'yellow', bad: 'red', muted: 'gray'};
export const colorless: Services['colors'] = {accent: undefined, good: undefined, warn: undefined, bad: undefined, muted: undefined};

type Props = {readonly services: Services; readonly children: ReactNode};

export function ServicesProvider({services, children}: Props) {
	return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
	const services = useContext(ServicesContext);
	if (!services) {
		throw new Error('useServices outside <ServicesProvider>');
	}

	return services;
}

/** Reads the data store through a narrow selector: the component re-renders only when that slice changes. */
export function usePodtop<T>(selector: (state: PodtopState) => T): T {
	return useStore(useServices().store, selector);
}

/** Reads the UI state through a narrow selector. */
export function useView<T>(selector: (state: ViewState) => T): T {
	return useStore(useServices().view, selector);
}

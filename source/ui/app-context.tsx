import {createContext, useContext, type ReactNode} from 'react';
import {useStore} from 'zustand';
import type {Glyphs} from '../format/glyphs.js';
import type {ScheduledApi} from '../poll/scheduled-api.js';
import type {PodtopStore} from '../store/create-store.js';
import type {PodtopState} from '../store/state.js';

export type Tone = 'accent' | 'good' | 'warn' | 'bad' | 'muted';

export type AppServices = {
	readonly store: PodtopStore;
	/** User actions go through the same scheduler and budgets as the pollers. */
	readonly api: ScheduledApi | undefined;
	readonly refresh: () => void;
	readonly glyphs: Glyphs;
	/** Ink color names per tone; all undefined under NO_COLOR / --no-color. */
	readonly colors: Readonly<Record<Tone, string | undefined>>;
};

const AppContext = createContext<AppServices | undefined>(undefined);

export const colorful: AppServices['colors'] = {accent: 'cyan', good: 'green', warn: 'yellow', bad: 'red', muted: 'gray'};
export const colorless: AppServices['colors'] = {accent: undefined, good: undefined, warn: undefined, bad: undefined, muted: undefined};

type Props = {readonly services: AppServices; readonly children: ReactNode};

export function AppProvider({services, children}: Props) {
	return <AppContext.Provider value={services}>{children}</AppContext.Provider>;
}

export function useServices(): AppServices {
	const services = useContext(AppContext);
	if (!services) {
		throw new Error('useServices outside <AppProvider>');
	}

	return services;
}

/** Reads the store through a narrow selector: the component re-renders only when that slice changes. */
export function usePodtop<T>(selector: (state: PodtopState) => T): T {
	return useStore(useServices().store, selector);
}

import {useServices} from '../services.js';

/** Whether there is history to draw from (false: `--no-history`, recording off, or the engine still starting). */
export function useRecorded(): boolean {
	const {engine} = useServices();
	return engine?.history.reader() !== undefined;
}

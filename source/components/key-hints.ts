import {keyHints, type KeyHint} from '../operations/help.js';
import type {Place} from '../view-state/view-state.js';
import {useServices} from './services.js';

/** A view's key hints, from the operations registry: in read-only mode no write is among them. */
export function useKeyHints(place: Place, hints: readonly KeyHint[]): string {
	const {engine, glyphs} = useServices();
	return keyHints(place, engine?.readOnly ?? false, hints, glyphs);
}

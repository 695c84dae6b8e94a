import {useEffect} from 'react';
import type {Engine} from '../engine/create-engine.js';
import type {LogSubject} from '../model/log-session.js';
import {subjectKey, type LogSlot} from '../operations/log-slot.js';
import type {ViewStore} from '../view-state/view-store.js';

/** Lines of backlog a log view asks for when it opens (the service gives up to 5,000). */
export const logTail = 200;

/**
Follows the log view's subject while it is on screen: opens its session through the engine, keeps it
in the slot for the view and its keys, and closes it when the view goes (a session that opens after
that is closed at once). Without `openLogs` (GraphQL publishes no logs) the slot says so.
*/
export function useLogSession(engine: Engine | undefined, subject: LogSubject | undefined, slot: LogSlot, view: ViewStore): void {
	const key = subject === undefined ? undefined : subjectKey(subject);
	useEffect(() => {
		if (!subject || !key || !engine) {
			return;
		}

		const {openLogs} = engine;
		if (!openLogs) {
			slot.setState({status: 'unavailable', key, reason: 'logs need REST v2: the management API in use (GraphQL) publishes none'}, true);
			return;
		}

		let closed = false;
		slot.setState({status: 'opening', key}, true);
		Promise.resolve()
			.then(() => openLogs(subject, {tail: logTail, source: view.getState().logs.source}))
			.then(
				session => {
					if (closed) {
						session.close();
					} else {
						slot.setState({status: 'open', key, session}, true);
					}
				},
				(error: unknown) => {
					if (!closed) {
						slot.setState({status: 'unavailable', key, reason: error instanceof Error ? error.message : String(error)}, true);
					}
				},
			);
		return () => {
			closed = true;
			const state = slot.getState();
			if (state.status === 'open') {
				state.session.close();
			}

			slot.setState({status: 'none'}, true);
		};
		// The subject's key stands for it: a view state rebuilt with an equal subject does not reopen the stream.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [engine, key, slot, view]);
}

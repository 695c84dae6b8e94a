import {createStore, type StoreApi} from 'zustand/vanilla';
import type {LogSession, LogSubject} from '../model/log-session.js';

/** The log view's session as the dashboard holds it: being opened, open, or why there is none. */
export type LogSlotState =
	| {readonly status: 'none'}
	| {readonly status: 'opening'; readonly key: string}
	| {readonly status: 'open'; readonly key: string; readonly session: LogSession}
	| {readonly status: 'unavailable'; readonly key: string; readonly reason: string};

/** Where the open log view's session is kept: the dashboard fills it, the log view draws it, the log keys act on it. */
export type LogSlot = Pick<StoreApi<LogSlotState>, 'getState' | 'setState' | 'subscribe'>;

export const createLogSlot = (): LogSlot => createStore<LogSlotState>()(() => ({status: 'none'}));

/** One subject's key: a slot filled for another subject (a view opened since) is not this one's. */
export const subjectKey = (subject: LogSubject): string =>
	subject.kind === 'pod'
		? `pod:${subject.podId}`
		: subject.kind === 'worker'
			? `worker:${subject.endpointId}:${subject.workerId}`
			: `endpoint:${subject.endpointId}`;

/** The open session, when there is one. */
export function openSession(slot: LogSlot | undefined): LogSession | undefined {
	const state = slot?.getState();
	return state?.status === 'open' ? state.session : undefined;
}

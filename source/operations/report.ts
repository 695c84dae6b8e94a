import type {PerformResult} from '../engine/perform.js';
import type {WriteId, WriteTypes} from '../engine/writes.js';
import {isUnavailable, type OperationContext, unavailable, type Unavailable} from './operation.js';

/** The engine, or why there is none yet. */
const engineOf = (context: OperationContext) => context.engine ?? unavailable('still connecting to the service…');

/** Refuses a write in read-only mode before anything else happens. */
function writable(context: OperationContext): Unavailable | undefined {
	return context.engine?.readOnly ? unavailable(`read-only mode: writes are off (${context.engine.readOnlyReason ?? '--read-only'})`) : undefined;
}

/** A write's target, or why it cannot be sent now (still connecting, read-only, nothing selected). */
export function writeTarget<T>(context: OperationContext, pick: () => T | Unavailable | undefined, nothing: string): T | Unavailable {
	const engine = engineOf(context);
	if (isUnavailable(engine)) {
		return engine;
	}

	return writable(context) ?? pick() ?? unavailable(nothing);
}

/**
Sends a write from the dashboard: a spinner line while it is in flight, then its result (or the
service's error, made inert) in the footer. The affected rows re-poll inside `perform`.
*/
export async function performFromUi<Id extends WriteId>(
	context: OperationContext,
	id: Id,
	target: WriteTypes[Id]['target'],
	input: WriteTypes[Id]['input'],
	doing: string,
): Promise<PerformResult<Id> | undefined> {
	const {engine, view} = context;
	if (!engine) {
		view.dispatch({type: 'message', text: 'still connecting to the service…', tone: 'bad'});
		return undefined;
	}

	view.dispatch({type: 'pending', text: doing});
	const result = await engine.perform(id, target, input);
	view.dispatch({type: 'pending', text: undefined});
	const text = result.auditError ? `${result.message} · ${result.auditError}` : result.message;
	view.dispatch({type: 'message', text, tone: result.outcome === 'ok' ? 'good' : 'bad'});
	return result;
}

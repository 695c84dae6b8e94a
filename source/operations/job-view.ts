import {frameLayout} from '../view-state/layout.js';
import {currentView} from '../view-state/view-state.js';
import {jobKey} from '../store/job-key.js';
import {defineOperation, type Operation, type OperationContext} from './operation.js';

/** The job view's text as shown: its lines and the rows they get (the view's four fixed lines and any picture excluded). */
function jobText(context: OperationContext): {lines: number; rows: number} {
	const view = context.view.getState();
	const current = currentView(view);
	const {width, bodyHeight} = frameLayout(view, 0);
	const job = current.type === 'job' ? context.store.getState().jobs.byKey.get(jobKey(current.endpointId, current.jobId)) : undefined;
	const body = context.rows.jobBody(job, width, Math.max(1, bodyHeight - 4));
	return {lines: body.lines.length, rows: Math.max(1, body.textRows)};
}

const scroll = (id: string, title: string, keys: readonly string[], step: (context: OperationContext) => {by?: number; to?: 'top' | 'tail'}, footer?: string) =>
	defineOperation({
		id,
		title,
		keys,
		scope: ['job'],
		danger: 'read',
		footer,
		target: () => undefined,
		run(context) {
			context.view.dispatch({type: 'scroll-job', ...jobText(context), ...step(context)});
		},
	});

const page = (context: OperationContext) => jobText(context).rows;

/** Scrolling a job's stream: up pauses following the tail, G follows it again. */
export const jobViewOperations: readonly Operation[] = [
	scroll('scroll.up', 'scroll up (pauses following)', ['k', 'up'], () => ({by: 1}), 'scroll'),
	scroll('scroll.down', 'scroll down', ['j', 'down'], () => ({by: -1})),
	scroll('scroll.page-up', 'page up', ['pgup'], context => ({by: page(context)})),
	scroll('scroll.page-down', 'page down', ['pgdn'], context => ({by: -page(context)})),
	scroll('scroll.top', 'the first line', ['g', 'home'], () => ({to: 'top'})),
	scroll('scroll.tail', 'follow the tail again', ['G', 'end'], () => ({to: 'tail'}), 'follow'),
];

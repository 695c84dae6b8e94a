import {useMemo} from 'react';
import {FormView} from '../components/form-view.js';
import {shownFields} from '../forms/form.js';
import type {OperationContext} from '../operations/operation.js';
import {operationById} from '../operations/registry.js';
import type {FormOverlay} from '../view-state/view-state.js';

type Props = {
	readonly overlay: FormOverlay;
	readonly context: OperationContext;
	readonly width: number;
	readonly height: number;
};

/** The open form of an operation (a new job), checked as it is typed. */
export function FormPane({overlay, context, width, height}: Props) {
	const {values, operationId, target} = overlay;
	const open = useMemo(() => operationById(operationId)?.form?.(target, context), [operationId, target, context]);
	const fields = useMemo(() => (open ? shownFields(open.spec, values) : []), [open, values]);
	const check = useMemo(() => open?.spec.check(values), [open, values]);
	if (!open || !check) {
		return null;
	}

	return <FormView title={open.title} overlay={overlay} fields={fields} check={check} width={width} height={height} />;
}

/** How a field is edited: one line of text, a multi-line JSON editor, one of a few choices, or on/off. */
export type FieldKind = 'text' | 'json' | 'choice' | 'toggle';

export type Field = {
	readonly name: string;
	readonly label: string;
	readonly kind: FieldKind;
	/** For `choice` (and `toggle`: off first, then on). */
	readonly choices?: readonly string[];
	/** Shown dim beside the field while it has no problem: units, bounds, what empty means. */
	readonly hint?: string;
	/** Whether the field applies to the values so far (the wait only for runsync). */
	readonly shown?: (values: FormValues) => boolean;
};

export type FormValues = Readonly<Record<string, string>>;

/** What a form says about its values as they are typed: problems by field, and, when there are none, what to send. */
export type FormCheck<Result> = {
	readonly problems: Readonly<Record<string, string>>;
	/** One line under the fields: size against the limit, or the cost. */
	readonly summary: string;
	readonly result?: Result;
};

export type FormSpec<Result> = {
	readonly id: string;
	readonly fields: readonly Field[];
	readonly initial: FormValues;
	/** Checks every field as it stands; called on each key, so it stays cheap. */
	readonly check: (values: FormValues) => FormCheck<Result>;
};

/** The fields that apply to these values, in order. */
export const shownFields = (spec: FormSpec<unknown>, values: FormValues): Field[] => spec.fields.filter(field => field.shown?.(values) ?? true);

/** A number field: empty is `undefined` (the default applies), else the number or a problem. */
export function numberValue(text: string): {readonly value?: number; readonly problem?: string} {
	const trimmed = text.trim();
	if (trimmed === '') {
		return {};
	}

	const value = Number(trimmed);
	return Number.isFinite(value) && /^-?\d+(\.\d+)?$/.test(trimmed) ? {value} : {problem: 'is not a number'};
}

import type {Engine} from '../engine/create-engine.js';
import type {Danger} from '../engine/writes.js';
import type {FormSpec} from '../forms/form.js';
import type {RowSelectors} from '../rows/visible-rows.js';
import type {PodtopStore} from '../store/create-store.js';
import type {Place} from '../view-state/view-state.js';
import type {ViewStore} from '../view-state/view-store.js';
import type {LogSlot} from './log-slot.js';

/** Where an operation's keys work: everywhere, in any list pane, or in one place. */
export type Scope = 'global' | 'lists' | Place;

/** What a palette argument names, for Tab completion. */
export type ArgumentKind = 'endpoint' | 'job' | 'worker' | 'profile';

/** The accounts the dashboard can switch between: the sections of `~/.runpod/config.toml`. */
export type Accounts = {
	/** Their names, read from the file when asked (never a value). */
	readonly names: () => readonly string[];
	/**
	Shows the dashboard on that profile's account, as if podtop had been started with `--profile NAME`
	(the old account's engine closed first). Rejects with a sentence when it cannot (no key for it),
	the current account kept.
	*/
	readonly switchTo: (name: string) => Promise<void>;
};

/** Everything an operation may use: the engine (undefined while it starts), the stores, the rows on screen. */
export type OperationContext = {
	readonly engine: Engine | undefined;
	readonly store: PodtopStore;
	readonly view: ViewStore;
	readonly rows: RowSelectors;
	readonly exit: () => void;
	/** Absent where the dashboard cannot switch accounts (tests that render the app alone). */
	readonly accounts?: Accounts;
	/** The open log view's session (absent outside the dashboard). */
	readonly logs?: LogSlot;
};

/** Why an operation cannot act now, said in the footer. */
export type Unavailable = {readonly unavailable: string};

export const unavailable = (reason: string): Unavailable => ({unavailable: reason});
export const isUnavailable = (value: unknown): value is Unavailable => typeof value === 'object' && value !== null && 'unavailable' in value;

/** The form an operation opens, and where its values are kept between openings. */
export type OpenForm = {readonly spec: FormSpec<unknown>; readonly draftKey: string; readonly title: string};

export type Confirm = {
	readonly prompt: string;
	/** Text the user must type (a name) for destructive operations; absent asks y/N. */
	readonly typeToConfirm?: string;
	/** Another answer to a y/N question: this key runs that operation (on the same target) instead. */
	readonly alternative?: {readonly key: string; readonly label: string; readonly operationId: string};
};

/**
A user-visible operation, as data: key dispatch, `?` help, `:` palette and Tab completion are all
built from these records (k9s's key actions are the model).
*/
export type Operation<Target = unknown> = {
	readonly id: string;
	/** What it does, as help lists it. */
	readonly title: string;
	/** Key names (see key-name.ts); none for palette-only operations. */
	readonly keys: readonly string[];
	readonly scope: readonly Scope[];
	/** `read` changes nothing at the service; `write` asks y/N; `destructive` asks for a typed name. */
	readonly danger: Danger;
	/** Its `:` command, if it has one. */
	readonly palette?: {readonly name: string; readonly aliases?: readonly string[]; readonly args?: readonly ArgumentKind[]};
	/** A short word for the footer's hint line, for the few worth it there. */
	readonly footer?: string;
	/** A few words beside its key in a view's title line (`test job`); the footer's word when absent. */
	readonly hint?: string;
	/** What it acts on, taken when the key is pressed (or from the palette's arguments). */
	readonly target: (context: OperationContext, args: readonly string[]) => Target | Unavailable;
	/**
	A form filled in before the confirmation (submit a job). When it is sent, what it made joins the
	target as `form`, and the confirmation and `run` see that.
	*/
	readonly form?: (target: Target, context: OperationContext) => OpenForm | undefined;
	/** The question asked before a write; required for every `write` and `destructive` operation. */
	readonly confirm?: (target: Target, context: OperationContext) => Confirm;
	readonly run: (context: OperationContext, target: Target) => void | Promise<void>;
};

/** Erases an operation's target type for the registry; each record stays checked where it is defined. */
export const defineOperation = <Target>(operation: Operation<Target>): Operation => operation as Operation;

import {defineOperation, unavailable, type Operation} from './operation.js';

const file = '~/.runpod/config.toml';

/**
`:profile NAME` shows the dashboard on another account of `~/.runpod/config.toml` (k9s's `:context`);
`:profile` alone lists them. A name the file lacks is said, and the account on screen stays.
*/
export const profileOperations: readonly Operation[] = [
	defineOperation<string | undefined>({
		id: 'account.profile',
		title: `switch account: a section of ${file} (alone: lists them)`,
		keys: [],
		scope: ['global'],
		danger: 'read',
		palette: {name: 'profile', args: ['profile']},
		target({accounts}, args) {
			if (!accounts) {
				return unavailable('this dashboard cannot switch accounts');
			}

			if (args.length > 1) {
				return unavailable(`:profile takes one name, a section of ${file}`);
			}

			return args[0];
		},
		async run({accounts, store, view}, name) {
			const say = (text: string, tone: 'info' | 'bad') => {
				view.dispatch({type: 'message', text, tone});
			};

			const names = accounts?.names() ?? [];
			if (names.length === 0) {
				say(`profiles need ${file}: a [NAME] section with its api_key for each account`, 'bad');
				return;
			}

			const current = store.getState().profile?.name;
			if (name === undefined) {
				say(`profiles: ${names.map(each => (each === current ? `${each} (on screen)` : each)).join(', ')}; :profile NAME switches`, 'info');
				return;
			}

			if (!names.includes(name)) {
				say(`no profile "${name}" in ${file}; the profiles are ${names.join(', ')}`, 'bad');
				return;
			}

			try {
				await accounts?.switchTo(name);
			} catch (error) {
				say(`cannot switch to profile "${name}": ${error instanceof Error ? error.message : String(error)}; still on ${current ?? 'this account'}`, 'bad');
			}
		},
	}),
];

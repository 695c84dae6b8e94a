import {Box, Text} from 'ink';
import {useServices} from '../ui/app-context.js';

export const keyHelp: ReadonlyArray<readonly [string, string]> = [
	['Tab / Shift-Tab', 'next / previous pane (Endpoints, Pods, GPUs)'],
	['1 2 3', 'Endpoints, Pods, GPUs'],
	['j k  ↑ ↓', 'move'],
	['PgUp PgDn', 'page'],
	['g G', 'first / last (in a job: G follows the tail again)'],
	['Enter', 'drill down (endpoint details, then a job)'],
	['Esc', 'back; closes overlays; clears the filter'],
	['/', 'filter the pane (regex; a leading ! inverts)'],
	['s S', 'sort by the next column / reverse the order'],
	[':', 'command palette: :endpoints :pods :gpus :job <endpoint> <id> :quit (Tab completes)'],
	['t', 'in endpoint details: send a test job and follow it'],
	['r', 'refresh everything now'],
	['?', 'this help'],
	['q  Ctrl-C', 'quit'],
];

type Props = {readonly width: number; readonly height: number};

/** The `?` overlay: every key, k9s-style. */
export function HelpOverlay({width, height}: Props) {
	const {colors} = useServices();
	return (
		<Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={colors.accent} paddingX={1}>
			<Text bold color={colors.accent}>Keys (Esc or ? to close)</Text>
			{keyHelp.slice(0, Math.max(0, height - 3)).map(([keys, what]) => (
				<Text key={keys} wrap="truncate"><Text bold>{keys.padEnd(18)}</Text>{what}</Text>
			))}
		</Box>
	);
}

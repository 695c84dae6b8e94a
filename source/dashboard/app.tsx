import {Box, useApp, useInput, useStdout, type Key} from 'ink';
import {useEffect, useMemo} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {Footer} from '../components/footer.js';
import {Header} from '../components/header.js';
import {HelpOverlay} from '../components/help-overlay.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Tabs} from '../components/tabs.js';
import {handleKey, handleText} from '../operations/handle-key.js';
import {keyName} from '../operations/key-name.js';
import type {OperationContext} from '../operations/operation.js';
import {EndpointDetail} from '../panes/endpoint-detail.js';
import {EndpointsPane} from '../panes/endpoints-pane.js';
import {FormPane} from '../panes/form-pane.js';
import {GpuDetail} from '../panes/gpu-detail.js';
import {GpusPane} from '../panes/gpus-pane.js';
import {JobView} from '../panes/job-view.js';
import {PodsPane} from '../panes/pods-pane.js';
import {frameLayout} from '../view-state/layout.js';
import {currentView} from '../view-state/view-state.js';

type Props = {
	/** How fresh data is when all polls succeed, e.g. `≤5s…60s`. */
	readonly freshnessBound: string;
	readonly readOnly: boolean;
};

const isText = (input: string, key: Key) => input.length > 1 && !key.ctrl && !key.meta && !key.escape;

/**
The dashboard. It owns no state of its own: the data store and the view store hold it all, and
every key goes to the operations registry. The frame is at most rows − 1 lines high.
*/
export function App({freshnessBound, readOnly}: Props) {
	const {store, view, rows, engine} = useServices();
	const {exit} = useApp();
	const {stdout} = useStdout();
	const context: OperationContext = useMemo(() => ({engine, store, view, rows, exit}), [engine, store, view, rows, exit]);
	useInput((input, key) => {
		if (isText(input, key)) {
			// A paste, or keys typed faster than one read: each character in turn.
			handleText(context, input);
			return;
		}

		const name = keyName(input, key);
		if (name) {
			handleKey(context, name);
		}
	});

	useEffect(() => {
		const onResize = () => {
			view.dispatch({type: 'resize', columns: stdout.columns || 80, rows: stdout.rows || 24});
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout, view]);

	const {
		columns,
		rows: lines,
		pane,
		current,
		help,
		form,
	} = useView(
		useShallow(state => ({
			columns: state.columns,
			rows: state.rows,
			pane: state.pane,
			current: currentView(state),
			help: state.overlay.type === 'help',
			form: state.overlay.type === 'form' ? state.overlay : undefined,
		})),
	);
	const degraded = usePodtop(state => state.connection.jobApi.staleSince !== undefined || state.connection.graphql.staleSince !== undefined);
	const {width, height, bodyHeight} = frameLayout({columns, rows: lines}, degraded);

	// What is on screen polls at its visible cadence; a job on screen has its stream followed.
	const focus = current.type === 'job' ? 'job' : current.type === 'endpoint' ? 'endpoints' : current.type === 'gpu' ? 'gpus' : pane;
	useEffect(() => {
		engine?.focus(focus);
	}, [engine, focus]);
	const followedEndpoint = current.type === 'job' ? current.endpointId : undefined;
	const followedJob = current.type === 'job' ? current.jobId : undefined;
	useEffect(
		() => (engine && followedEndpoint && followedJob ? engine.follow(followedEndpoint, followedJob) : undefined),
		[engine, followedEndpoint, followedJob],
	);

	let body;
	if (help) {
		body = <HelpOverlay width={width} height={bodyHeight} />;
	} else if (form) {
		body = <FormPane overlay={form} context={context} width={width} height={bodyHeight} />;
	} else
		switch (current.type) {
			case 'job': {
				body = <JobView endpointId={current.endpointId} jobId={current.jobId} width={width} height={bodyHeight} />;

				break;
			}

			case 'gpu': {
				body = <GpuDetail gpuId={current.gpuId} width={width} height={bodyHeight} />;

				break;
			}

			case 'endpoint': {
				body = <EndpointDetail endpointId={current.endpointId} width={width} height={bodyHeight} />;

				break;
			}

			default: {
				if (pane === 'endpoints') {
					body = <EndpointsPane width={width} height={bodyHeight} />;
				} else if (pane === 'pods') {
					body = <PodsPane width={width} height={bodyHeight} />;
				} else {
					body = <GpusPane width={width} height={bodyHeight} />;
				}
			}
		}

	return (
		<Box flexDirection='column' width={width} height={height}>
			<Header width={width} freshnessBound={freshnessBound} readOnly={readOnly} />
			<Tabs width={width} />
			<Box height={bodyHeight} width={width}>
				{body}
			</Box>
			<Box height={1} width={width}>
				<Footer width={width} readOnly={readOnly} />
			</Box>
		</Box>
	);
}

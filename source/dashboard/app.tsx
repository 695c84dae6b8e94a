import {Box, useApp, useInput, useStdout, type Key} from 'ink';
import {useEffect, useMemo} from 'react';
import {useShallow} from 'zustand/react/shallow';
import {ConfirmDialog, confirmDialogHeight, isTypedConfirmation} from '../components/confirm-dialog.js';
import {Footer} from '../components/footer.js';
import {Header} from '../components/header.js';
import {HelpOverlay} from '../components/help-overlay.js';
import {PaletteCandidates} from '../components/palette-candidates.js';
import {usePodtop, useServices, useView} from '../components/services.js';
import {Tabs} from '../components/tabs.js';
import {handleKey, handleText} from '../operations/handle-key.js';
import {keyName} from '../operations/key-name.js';
import type {OperationContext} from '../operations/operation.js';
import {AlertsView} from '../panes/alerts-view.js';
import {EndpointDetail} from '../panes/endpoint-detail.js';
import {EventsView} from '../panes/events-view.js';
import {EndpointsPane} from '../panes/endpoints-pane.js';
import {FormPane} from '../panes/form-pane.js';
import {GpuDetail} from '../panes/gpu-detail.js';
import {PodDetail} from '../panes/pod-detail.js';
import {GpusPane} from '../panes/gpus-pane.js';
import {JobView} from '../panes/job-view.js';
import {LogView} from '../panes/log-view.js';
import {createLogSlot, type LogSlot} from '../operations/log-slot.js';
import {PodsPane} from '../panes/pods-pane.js';
import {SpendView} from '../panes/spend-view.js';
import {WorkerView} from '../panes/worker-view.js';
import {frameLayout} from '../view-state/layout.js';
import {currentView, type ListPane, type View} from '../view-state/view-state.js';
import {useLogSession} from './use-log-session.js';

type Props = {
	readonly readOnly: boolean;
};

/** What the body shows for the view on top: a drill-down, or the list pane. */
function ViewBody({
	view,
	pane,
	logs,
	width,
	height,
}: {
	readonly view: View;
	readonly pane: ListPane;
	readonly logs: LogSlot;
	readonly width: number;
	readonly height: number;
}) {
	switch (view.type) {
		case 'logs': {
			return <LogView subject={view.subject} label={view.label} slot={logs} width={width} height={height} />;
		}

		case 'job': {
			return <JobView endpointId={view.endpointId} jobId={view.jobId} width={width} height={height} />;
		}

		case 'pod': {
			return <PodDetail podId={view.podId} showEnv={view.showEnv} width={width} height={height} />;
		}

		case 'gpu': {
			return <GpuDetail gpuId={view.gpuId} width={width} height={height} />;
		}

		case 'endpoint': {
			return <EndpointDetail endpointId={view.endpointId} width={width} height={height} />;
		}

		case 'worker': {
			return <WorkerView endpointId={view.endpointId} workerId={view.workerId} width={width} height={height} />;
		}

		case 'alerts': {
			return <AlertsView width={width} height={height} />;
		}

		case 'events': {
			return <EventsView width={width} height={height} />;
		}

		case 'spend': {
			return <SpendView width={width} height={height} />;
		}

		case 'list': {
			return pane === 'endpoints' ? (
				<EndpointsPane width={width} height={height} />
			) : pane === 'pods' ? (
				<PodsPane width={width} height={height} />
			) : (
				<GpusPane width={width} height={height} />
			);
		}
	}
}

const isText = (input: string, key: Key) => input.length > 1 && !key.ctrl && !key.meta && !key.escape;

/**
The dashboard. It owns no state of its own: the data store and the view store hold it all, and
every key goes to the operations registry. The frame is at most rows − 1 lines high.
*/
export function App({readOnly}: Props) {
	const {store, view, rows, engine, accounts} = useServices();
	const {exit} = useApp();
	// Ink types its stdout as any writable stream; it is the terminal's (a WriteStream, with its size).
	const stdout = useStdout().stdout as NodeJS.WriteStream;
	// The open log view's session: filled while a log view is on screen, read by the view and its keys.
	const logs = useMemo(() => createLogSlot(), []);
	const context: OperationContext = useMemo(() => ({engine, store, view, rows, exit, accounts, logs}), [engine, store, view, rows, exit, accounts, logs]);
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
		typed,
		palette,
	} = useView(
		useShallow(state => ({
			columns: state.columns,
			rows: state.rows,
			pane: state.pane,
			current: currentView(state),
			help: state.overlay.type === 'help',
			form: state.overlay.type === 'form' ? state.overlay : undefined,
			typed: isTypedConfirmation(state.overlay) ? state.overlay : undefined,
			palette: state.overlay.type === 'palette',
		})),
	);
	const degraded = usePodtop(state => state.connection.jobApi.staleSince !== undefined || state.connection.graphql.staleSince !== undefined);
	const alerting = usePodtop(state => state.alerts.length > 0);
	const inPast = useView(state => state.cursor !== undefined);
	// The palette's candidates take a line above it while it is open.
	const {width, height, bodyHeight} = frameLayout({columns, rows: lines}, Number(degraded) + Number(alerting) + Number(inPast) + Number(palette));

	// What is on screen polls at its visible cadence; a job on screen has its stream followed.
	const focus =
		current.type === 'job'
			? 'job'
			: current.type === 'endpoint' || current.type === 'worker' || (current.type === 'logs' && current.subject.kind !== 'pod')
				? 'endpoints'
				: current.type === 'logs'
					? 'pods'
					: current.type === 'gpu'
						? 'gpus'
						: current.type === 'pod'
							? 'pods'
							: pane;
	useEffect(() => {
		engine?.focus(focus);
	}, [engine, focus]);
	useLogSession(engine, current.type === 'logs' ? current.subject : undefined, logs, view);
	const watchedPod = current.type === 'pod' ? current.podId : undefined;
	useEffect(() => (engine && watchedPod ? engine.watchPod(watchedPod) : undefined), [engine, watchedPod]);
	// An endpoint's workers are read while its details, one of its workers or one worker's log are shown: what podtop
	// learnt of them (the gone ones) is kept meanwhile. A merged log reads the list itself, for its streams only.
	const watchedEndpoint =
		current.type === 'endpoint' || current.type === 'worker'
			? current.endpointId
			: current.type === 'logs' && current.subject.kind === 'worker'
				? current.subject.endpointId
				: undefined;
	useEffect(() => (engine && watchedEndpoint ? engine.watchEndpoint(watchedEndpoint) : undefined), [engine, watchedEndpoint]);
	const followedEndpoint = current.type === 'job' ? current.endpointId : undefined;
	const followedJob = current.type === 'job' ? current.jobId : undefined;
	useEffect(
		() => (engine && followedEndpoint && followedJob ? engine.follow(followedEndpoint, followedJob) : undefined),
		[engine, followedEndpoint, followedJob],
	);

	// A typed confirmation takes the bottom of the body; the pane it acts on stays in view above it.
	const dialogHeight = typed ? Math.min(bodyHeight - 1, confirmDialogHeight(typed.prompt, width)) : 0;
	const paneHeight = bodyHeight - dialogHeight;
	const body = help ? (
		<HelpOverlay width={width} height={bodyHeight} />
	) : form ? (
		<FormPane overlay={form} context={context} width={width} height={bodyHeight} />
	) : (
		<ViewBody view={current} pane={pane} logs={logs} width={width} height={paneHeight} />
	);

	return (
		<Box flexDirection='column' width={width} height={height}>
			<Header width={width} readOnly={readOnly} />
			<Tabs width={width} />
			<Box height={bodyHeight} width={width} flexDirection='column'>
				{body}
				{typed ? <ConfirmDialog overlay={typed} width={width} height={dialogHeight} /> : undefined}
			</Box>
			{palette ? (
				<Box height={1} width={width}>
					<PaletteCandidates width={width} />
				</Box>
			) : undefined}
			<Box height={1} width={width}>
				<Footer width={width} readOnly={readOnly} />
			</Box>
		</Box>
	);
}

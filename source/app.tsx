import {Box, Text} from 'ink';
import {useCallback, useEffect, useReducer, useRef, useState} from 'react';
import {Header} from './components/header.js';
import {HelpOverlay} from './components/help-overlay.js';
import {InputLine} from './components/input-line.js';
import {Tabs} from './components/tabs.js';
import {EndpointDetail} from './panes/endpoint-detail.js';
import {endpointColumns} from './panes/endpoint-rows.js';
import {EndpointsPane} from './panes/endpoints-pane.js';
import {gpuColumns} from './panes/gpu-rows.js';
import {GpusPane} from './panes/gpus-pane.js';
import {JobView} from './panes/job-view.js';
import {podColumns} from './panes/pod-rows.js';
import {PodsPane} from './panes/pods-pane.js';
import {usePodtop, useServices} from './ui/app-context.js';
import {useKeys} from './ui/use-keys.js';
import {useTerminalSize} from './ui/use-terminal-size.js';
import {currentView, initialUiState, uiReducer, type UiAction, type UiState} from './ui/ui-state.js';
import {jobKey} from './store/job-actions.js';

type Props = {
	/** Open straight into this job (`podtop job <endpoint> <id>`). */
	readonly initialJob?: {readonly endpointId: string; readonly jobId: string};
	/** How fresh data is when all polls succeed, e.g. `≤5s`. */
	readonly freshnessBound: string;
	/** Shown in the footer until the first message replaces it (start-up warnings). */
	readonly notice?: string;
};

const footerHint = 'j/k move · ⏎ open · Esc back · s sort · r refresh · q quit';

function initialState({initialJob, notice}: Pick<Props, 'initialJob' | 'notice'>): UiState {
	const views: UiState['views'] = initialJob ? [{type: 'list'}, {type: 'job', jobKey: jobKey(initialJob.endpointId, initialJob.jobId)}] : initialUiState.views;
	return {...initialUiState, views, message: notice};
}

/**
The dashboard. The frame is at most rows − 1 lines high (a taller frame makes Ink clear the screen
and wipe scrollback), and it reflows on resize.
*/
export function App({initialJob, freshnessBound, notice}: Props) {
	const {store, colors} = useServices();
	const {columns, rows} = useTerminalSize();
	const [ui, reactDispatch] = useReducer(uiReducer, {initialJob, notice}, initialState);
	// The reducer is pure, so the ref can run it too: key handlers see every change at once.
	const latest = useRef(ui);
	const dispatch = useCallback((action: UiAction) => {
		latest.current = uiReducer(latest.current, action);
		reactDispatch(action);
	}, []);
	const [scrollBack, setScrollBack] = useState(0);
	const rowKeys = useRef<readonly string[]>([]);
	const view = currentView(ui);
	const degraded = usePodtop(state => state.connection.jobApi.staleSince !== undefined || state.connection.graphql.staleSince !== undefined);
	const width = Math.max(20, columns);
	const height = Math.max(6, rows - 1);
	const headerHeight = degraded ? 2 : 1;
	const bodyHeight = Math.max(3, height - headerHeight - 2);
	const wide = width >= 110;
	const sortColumns = {endpoints: wide ? endpointColumns.wide : endpointColumns.compact, pods: wide ? podColumns.wide : podColumns.compact, gpus: wide ? gpuColumns.wide : gpuColumns.compact}[ui.pane].length;
	useKeys({current: () => latest.current, dispatch, rowKeys, pageSize: Math.max(1, bodyHeight - 2), setScrollBack: update => setScrollBack(update), sortColumns});

	const followedJob = view.type === 'job' ? view.jobKey : undefined;
	useEffect(() => {
		const {actions} = store.getState();
		actions.setVisiblePane(view.type === 'job' ? 'job' : ui.pane);
	}, [store, view.type, ui.pane]);
	useEffect(() => {
		if (!followedJob) {
			return;
		}

		const {actions} = store.getState();
		const [endpointId = '', ...rest] = followedJob.split('/');
		actions.trackJob(endpointId, rest.join('/'), {follow: true});
		return () => {
			actions.setFollow(followedJob, false);
		};
	}, [store, followedJob]);

	let body;
	if (ui.overlay === 'help') {
		body = <HelpOverlay width={width} height={bodyHeight}/>;
	} else if (view.type === 'job') {
		body = <JobView jobKey={view.jobKey} width={width} height={bodyHeight} scrollBack={scrollBack}/>;
	} else if (view.type === 'endpoint') {
		body = <EndpointDetail endpointId={view.endpointId} width={width} height={bodyHeight} selected={ui.detailSelected} rowKeys={rowKeys}/>;
	} else {
		const paneProps = {width, height: bodyHeight, selected: ui.selected[ui.pane], sort: ui.sort[ui.pane], filter: ui.filter[ui.pane], rowKeys};
		body = ui.pane === 'endpoints' ? <EndpointsPane {...paneProps}/> : (ui.pane === 'pods' ? <PodsPane {...paneProps}/> : <GpusPane {...paneProps}/>);
	}

	let footer;
	if (ui.overlay === 'filter') {
		footer = <InputLine prompt="/" value={ui.input} hint="regex, ! inverts · ⏎ apply · Esc clear" width={width}/>;
	} else if (ui.overlay === 'palette') {
		footer = <InputLine prompt=":" value={ui.input} hint="endpoints pods gpus job <endpoint> <id> quit · Tab completes" width={width}/>;
	} else {
		footer = <Text wrap="truncate" color={ui.message ? colors.warn : undefined} dimColor={!ui.message}>{ui.message ?? footerHint}</Text>;
	}

	return (
		<Box flexDirection="column" width={width} height={height}>
			<Header width={width} freshnessBound={freshnessBound}/>
			<Tabs active={ui.pane} width={width}/>
			<Box height={bodyHeight} width={width}>{body}</Box>
			<Box height={1} width={width}>{footer}</Box>
		</Box>
	);
}

import {describe, expect, test} from 'vitest';
import {Footer} from '../../source/components/footer.js';
import {HelpOverlay} from '../../source/components/help-overlay.js';
import {renderWith, testStore, tick} from '../helpers/ui-fixture.js';

describe('overlays and the footer', () => {
	test('help lists the keys of the view under it, built from the operations, writes marked', async () => {
		const {lastFrame} = renderWith(testStore(), <HelpOverlay width={120} height={40} />);
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/Keys: Endpoints \(Esc or \? to close\)/);
		expect(frame).toMatch(/j ↓ +move down/);
		expect(frame).toMatch(/Enter +open the endpoint/);
		expect(frame).toMatch(/t +send a test job to the endpoint and follow it \(write\)/);
		expect(frame).toMatch(/:job <endpoint> <job> +open a job by id and follow it/);
		expect(frame).toMatch(/q Ctrl-C +quit/);
	});

	test("help for a job view has its scrolling keys, not the list's", async () => {
		const {lastFrame} = renderWith(testStore(), <HelpOverlay width={120} height={30} />, {
			view: {views: [{type: 'list'}, {type: 'job', endpointId: 'e', jobId: 'j'}]},
		});
		await tick();
		expect(lastFrame()).toMatch(/Keys: Job/);
		expect(lastFrame()).toMatch(/k ↑ +scroll up \(pauses following\)/);
		expect(lastFrame()).not.toMatch(/filter the pane/);
	});

	test('at 80×24 help spreads over columns so every key shows', async () => {
		const {lastFrame} = renderWith(testStore(), <HelpOverlay width={80} height={19} />);
		await tick();
		expect(lastFrame()).toMatch(/move down/);
		expect(lastFrame()).toMatch(/quit/);
	});

	test('the footer: the keys worth knowing, then a filter bar, the palette, a y/N question, a typed-name question, a result', async () => {
		const {lastFrame, view} = renderWith(testStore(), <Footer width={120} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/j move · \/ filter · s sort · Enter open · n new job · q quit · \? help · : command/);
		view.dispatch({type: 'open-overlay', overlay: 'filter'});
		view.dispatch({type: 'input', input: 'llama'});
		await tick();
		expect(lastFrame()).toMatch(/^\/llama {3}regex, ! inverts/);
		view.dispatch({type: 'open-overlay', overlay: 'palette'});
		view.dispatch({type: 'input', input: 'po'});
		await tick();
		expect(lastFrame()).toMatch(/^:po {3}Tab completes/);
		view.dispatch({type: 'confirm', operationId: 'job.test', target: 'e', prompt: 'Send a test job to echo?'});
		await tick();
		expect(lastFrame()).toBe('Send a test job to echo? y/N');
		view.dispatch({type: 'confirm', operationId: 'x', target: 'e', prompt: 'Purge the queue of echo?', typeToConfirm: 'echo'});
		view.dispatch({type: 'input', input: 'ec'});
		await tick();
		expect(lastFrame()).toMatch(/^Purge the queue of echo\? Type "echo" to confirm: ec/);
		view.dispatch({type: 'close-overlay'});
		view.dispatch({type: 'message', text: 'refused: cancel job j on e: rejected: \u001B[2Jbad', tone: 'bad'});
		await tick();
		expect(lastFrame()).toBe('refused: cancel job j on e: rejected: ␛[2Jbad');
	});

	test('a write in flight shows a spinner', async () => {
		const {lastFrame, view} = renderWith(testStore(), <Footer width={120} readOnly={false} />);
		view.dispatch({type: 'pending', text: 'sending a test job to echo'});
		await tick();
		expect(lastFrame()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] sending a test job to echo…$/);
	});
});

import {describe, expect, test} from 'vitest';
import {ConfirmDialog, confirmDialogHeight, isTypedConfirmation} from '../../source/components/confirm-dialog.js';
import {Footer} from '../../source/components/footer.js';
import {useView} from '../../source/components/services.js';
import {HelpOverlay} from '../../source/components/help-overlay.js';
import {asciiGlyphs, unicodeGlyphs} from '../../source/format/glyphs.js';
import {renderWith, testStore, tick} from '../helpers/ui-fixture.js';

/** The dialog of the typed confirmation open in the view store, as the dashboard draws it. */
function OpenDialog({width}: {readonly width: number}) {
	const overlay = useView(state => state.overlay);
	return isTypedConfirmation(overlay) ? <ConfirmDialog overlay={overlay} width={width} height={confirmDialogHeight(overlay.prompt, width)} /> : null;
}

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
		// A typed-name question is drawn in its dialog (below); the footer says its keys.
		view.dispatch({type: 'confirm', operationId: 'x', target: 'e', prompt: 'Purge the queue of echo?', typeToConfirm: 'echo'});
		view.dispatch({type: 'input', input: 'ec'});
		await tick();
		expect(lastFrame()).toBe('Enter confirms once the name matches · Backspace edits · Esc cancels');
		view.dispatch({type: 'close-overlay'});
		view.dispatch({type: 'message', text: 'refused: cancel job j on e: rejected: \u001B[2Jbad', tone: 'bad'});
		await tick();
		expect(lastFrame()).toBe('refused: cancel job j on e: rejected: ␛[2Jbad');
	});

	test('a typed confirmation: the question, the field as typed, and match or no match in a word and a mark, also in ASCII without colour', async () => {
		const prompt = 'Terminate pod trainer-01? Its volume is lost for good.';
		for (const glyphs of [unicodeGlyphs, asciiGlyphs]) {
			const [yes, no] = [glyphs.match, glyphs.mismatch].map(mark => mark.replace(/[+?]/, String.raw`\$&`));
			const {lastFrame, view} = renderWith(testStore(), <OpenDialog width={60} />, {glyphs});
			view.dispatch({type: 'confirm', operationId: 'x', target: 'e', prompt, typeToConfirm: 'trainer-01'});
			await tick();
			let frame = lastFrame()!;
			expect(frame).toMatch(/Terminate pod trainer-01\? Its volume is lost for good\./);
			expect(frame).toMatch(/Type "trainer-01" to confirm: +[|│]\n/);
			expect(frame).toMatch(new RegExp(`${no} does not match yet`));
			expect(frame.split('\n')).toHaveLength(confirmDialogHeight(prompt, 60));
			expect(frame.split('\n').every(line => line.length === 60)).toBe(true);
			if (glyphs === asciiGlyphs) {
				expect(frame).toMatch(/^\+-{58}\+$/m);
				expect(frame).not.toMatch(/[^\u0020-\u007E\n]/);
			}

			view.dispatch({type: 'input', input: 'trainer-1'});
			await tick();
			expect(lastFrame()).toMatch(/Type "trainer-01" to confirm: trainer-1/);
			expect(lastFrame()).toMatch(new RegExp(String.raw`${no} does not match "trainer-01" \(Backspace edits\)`));
			view.dispatch({type: 'reject-confirmation'});
			await tick();
			// The sentence wraps inside the border: read it as one line.
			frame = lastFrame()!.replaceAll(/ *[|│]\n[|│] */g, ' ');
			expect(frame).toMatch(
				new RegExp(String.raw`${no} not sent: "trainer-1" does not match "trainer-01"\. Type "trainer-01" \(it replaces this\), or Esc to cancel\.`),
			);
			view.dispatch({type: 'input', input: 'trainer-01'});
			await tick();
			expect(lastFrame()).toMatch(new RegExp(`${yes} matches "trainer-01": Enter confirms`));
		}
	});

	test('a write in flight shows a spinner', async () => {
		const {lastFrame, view} = renderWith(testStore(), <Footer width={120} readOnly={false} />);
		view.dispatch({type: 'pending', text: 'sending a test job to echo'});
		await tick();
		expect(lastFrame()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] sending a test job to echo…$/);
	});
});

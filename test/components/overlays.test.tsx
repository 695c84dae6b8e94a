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
	test('help lists the keys of the view under it in sections, built from the operations, writes marked, nothing cut', async () => {
		const {lastFrame} = renderWith(testStore(), <HelpOverlay width={120} height={40} />);
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/Keys: Endpoints \(Esc or \? to close\)/);
		for (const heading of ['This view', 'History and the time cursor', 'Everywhere']) {
			expect(frame).toContain(heading);
		}

		expect(frame).toMatch(/j ↓ +move down/);
		expect(frame).toMatch(/Enter +open the endpoint/);
		// A title too long for its column goes on under itself, the danger last.
		const lines = frame.split('\n');
		const test = lines.findIndex(line => /│ t +send a test job to the endpoint and follow it/.test(line));
		expect(lines[test + 1]!.indexOf('(write)')).toBe(lines[test]!.indexOf('send a test job'));
		expect(frame).toMatch(/Ctrl-D +delete the endpoint/);
		expect(frame).toMatch(/\[ +the account one step back in time/);
		expect(frame).toMatch(/:job <endpoint> <job> +open a job by id and follow it/);
		expect(frame).toMatch(/q Ctrl-C +quit/);
		expect(frame).not.toMatch(/…|scroll/);
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

	test('at 80×24 help scrolls when the keys do not fit, and says where it is', async () => {
		const {lastFrame, view} = renderWith(testStore(), <HelpOverlay width={80} height={19} />, {
			view: {overlay: {type: 'help', scroll: 0, lastScroll: 0}},
		});
		await tick();
		expect(lastFrame()).toMatch(/j ↓ +move down/);
		expect(lastFrame()).not.toMatch(/quit/);
		const [, shown, total] = /rows 1–(\d+) of (\d+) · j\/k or PgDn\/PgUp scroll/.exec(lastFrame()!) ?? [];
		expect(Number(shown)).toBe(15);
		expect(Number(total)).toBeGreaterThan(15);
		view.dispatch({type: 'scroll-help', to: 'last'});
		await tick();
		// The last section: what the columns say.
		expect(lastFrame()).toMatch(/ETA +until the queue is empty at this rate/);
		expect(lastFrame()).toContain(`rows ${Number(total) - 14}–${total} of ${total}`);
		// Past the end stays at the end; one row up moves one row.
		view.dispatch({type: 'scroll-help', by: 5});
		view.dispatch({type: 'scroll-help', by: -1});
		await tick();
		expect(lastFrame()).toContain(`rows ${Number(total) - 15}–${Number(total) - 1} of ${total}`);
	});

	test('at 80 columns help explains the compact columns (WORKERS 0/10 +1!) from the columns themselves, below the keys', async () => {
		const {lastFrame, view} = renderWith(testStore(), <HelpOverlay width={80} height={19} />, {
			view: {columns: 80, rows: 24, overlay: {type: 'help', scroll: 0, lastScroll: 0}},
		});
		await tick();
		view.dispatch({type: 'scroll-help', to: 'last'});
		await tick();
		const frame = lastFrame()!;
		expect(frame).toMatch(/Columns/);
		expect(frame).toMatch(/WORKERS +running\/most workers; \+N starting; ! some throttled or unhealthy/);
		expect(frame).toMatch(/ETA +until the queue is empty at this rate/);
		// The wide table's columns are not the ones on screen.
		expect(frame).not.toMatch(/MIN-MAX/);
	});

	test('the footer: the keys worth knowing, then a filter bar, the palette, a y/N question, a typed-name question, a result', async () => {
		const {lastFrame, view} = renderWith(testStore(), <Footer width={120} readOnly={false} />);
		await tick();
		expect(lastFrame()).toMatch(/j move · \/ filter · s sort · Enter open · n new job · q quit · \? help · : command/);
		view.dispatch({type: 'open-overlay', overlay: 'filter'});
		view.dispatch({type: 'input', input: 'llama'});
		await tick();
		expect(lastFrame()).toBe('/llama   in name · regex, ! inverts · Enter keeps · Esc clears');
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

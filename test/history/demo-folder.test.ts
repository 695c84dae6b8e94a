import {chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, test} from 'vitest';
import {createEngine, type Engine} from '../../source/engine/create-engine.js';
import {HistoryUnavailableError, openHistoryForWriting, takeWriterLock} from '../../source/history/history-file.js';
import {demoHistoryDirectory} from '../../source/history/open-history.js';

const demo = {mode: 'demo', warnings: []} as const;
const uid = process.getuid!();
const asRoot = uid === 0;

const modeOf = (path: string) => lstatSync(path).mode & 0o7777;

let root: string;
let sharedTmp: string;
const realTmpdir = process.env.TMPDIR;
let engine: Engine | undefined;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'podtop-demo-folder-'));
});

afterAll(() => {
	rmSync(root, {recursive: true, force: true});
});

afterEach(async () => {
	await engine?.close();
	engine = undefined;
	process.env.TMPDIR = realTmpdir;
	if (realTmpdir === undefined) {
		delete process.env.TMPDIR;
	}
});

let count = 0;
/** A `$TMPDIR` as a shared host has it: open to all, sticky (1777). */
function useSharedTmp(): string {
	sharedTmp = join(root, `tmp-${count++}`);
	mkdirSync(sharedTmp);
	chmodSync(sharedTmp, 0o1777);
	process.env.TMPDIR = sharedTmp;
	return sharedTmp;
}

/** A demo engine (no simulated past) and every line it says. */
async function demoEngine(directory?: string) {
	const notices: string[] = [];
	engine = await createEngine({
		target: demo,
		record: true,
		allVisible: true,
		history: {demoPastMs: 0, ...(directory ? {directory} : {})},
		notice: line => notices.push(line),
	});
	engine.start();
	await engine.history.ready;
	return {engine, notices};
}

describe("the demo's history lives in a folder of its own, never changing $TMPDIR", () => {
	test('$TMPDIR open to all (1777) keeps its mode; the file is in $TMPDIR/podtop-demo-<uid>, made 0700 by podtop, and removed at exit', async () => {
		const shared = useSharedTmp();
		const {engine, notices} = await demoEngine();
		expect(engine.history.status.getState()).toMatchObject({state: 'recording'});
		expect(modeOf(shared)).toBe(0o1777);
		const folder = demoHistoryDirectory();
		expect(folder).toBe(join(shared, `podtop-demo-${uid}`));
		expect(modeOf(folder)).toBe(0o700);
		expect(lstatSync(folder).uid).toBe(uid);
		const files = readdirSync(folder).filter(name => name.endsWith('.sqlite'));
		expect(files).toHaveLength(1);
		expect(modeOf(join(folder, files[0]!))).toBe(0o600);
		expect(notices.filter(line => line.includes('history'))).toEqual([]);
		await engine.close();
		expect(readdirSync(folder).filter(name => name.includes('podtop-demo-history'))).toEqual([]);
		expect(modeOf(shared)).toBe(0o1777);
	}, 60_000);

	test('a podtop-demo-<uid> someone made open to all (0777): refused and left as it is, the demo runs without history, saying why in one line', async () => {
		const shared = useSharedTmp();
		const planted = join(shared, `podtop-demo-${uid}`);
		mkdirSync(planted);
		chmodSync(planted, 0o777);
		const {engine, notices} = await demoEngine();
		expect(engine.history.status.getState()).toMatchObject({state: 'off'});
		expect(engine.history.reader()).toBeUndefined();
		expect(modeOf(planted)).toBe(0o777);
		expect(readdirSync(planted)).toEqual([]);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toBe(
			`cannot use the history folder ${planted}: other users can enter it (mode 0777), and podtop changes the mode only of a folder it made (chmod 700 it yourself); choose another with --history-dir, or --no-history`,
		);
		expect(modeOf(shared)).toBe(0o1777);
	}, 60_000);

	test.skipIf(!asRoot)(
		'a podtop-demo-<uid> made first by another user (private to them): refused, its owner and mode untouched',
		async () => {
			const shared = useSharedTmp();
			const planted = join(shared, `podtop-demo-${uid}`);
			mkdirSync(planted, {mode: 0o700});
			chownSync(planted, 65_534, 65_534);
			const {engine, notices} = await demoEngine();
			expect(engine.history.status.getState()).toMatchObject({state: 'off'});
			expect(notices).toEqual([
				`cannot use the history folder ${planted}: it belongs to another user (uid 65534); choose another with --history-dir, or --no-history`,
			]);
			expect(lstatSync(planted).uid).toBe(65_534);
			expect(modeOf(planted)).toBe(0o700);
			expect(readdirSync(planted)).toEqual([]);
		},
		60_000,
	);

	test('a podtop-demo-<uid> planted as a symbolic link to another folder: refused, the folder it points to untouched', async () => {
		const shared = useSharedTmp();
		const victim = join(root, 'victim');
		mkdirSync(victim);
		chmodSync(victim, 0o755);
		symlinkSync(victim, join(shared, `podtop-demo-${uid}`));
		const {engine, notices} = await demoEngine();
		expect(engine.history.status.getState()).toMatchObject({state: 'off'});
		expect(notices).toHaveLength(1);
		expect(notices[0]).toContain('it is a symbolic link');
		expect(modeOf(victim)).toBe(0o755);
		expect(readdirSync(victim)).toEqual([]);
	}, 60_000);

	test('--history-dir is honoured in the demo: its file goes there (and is removed at exit)', async () => {
		useSharedTmp();
		const chosen = join(root, 'chosen', 'history');
		const {engine} = await demoEngine(chosen);
		expect(engine.history.status.getState()).toMatchObject({state: 'recording', file: expect.stringContaining(`${chosen}/podtop-demo-history-`) as string});
		expect(readdirSync(chosen).some(name => name.endsWith('.sqlite'))).toBe(true);
		expect(readdirSync(sharedTmp)).toEqual([]);
		await engine.close();
		expect(readdirSync(chosen).filter(name => name.includes('podtop-demo-history'))).toEqual([]);
	}, 60_000);
});

describe('a history folder that was there already is never changed, and no planted link is followed', () => {
	test("a folder of the user's own open to others is refused, not made 0700", () => {
		const folder = join(root, 'open-own');
		mkdirSync(folder);
		chmodSync(folder, 0o755);
		expect(() => openHistoryForWriting(join(folder, 'account.sqlite'))).toThrow(/other users can enter it \(mode 0755\)/);
		expect(modeOf(folder)).toBe(0o755);
	});

	test("a private folder of the user's own is used as it is", () => {
		const folder = join(root, 'private-own');
		mkdirSync(folder, {mode: 0o700});
		const {db} = openHistoryForWriting(join(folder, 'account.sqlite'));
		db.close();
		expect(modeOf(folder)).toBe(0o700);
	});

	test('a history file, or its lock, planted as a link to another file: refused, the file it points to untouched', () => {
		const folder = join(root, 'linked-file');
		mkdirSync(folder, {mode: 0o700});
		const victim = join(root, 'victim-file');
		writeFileSync(victim, 'precious', {mode: 0o644});
		for (const name of ['account.sqlite', 'account.sqlite-wal']) {
			symlinkSync(victim, join(folder, name));
			expect(() => openHistoryForWriting(join(folder, 'account.sqlite'))).toThrow(HistoryUnavailableError);
			expect(() => openHistoryForWriting(join(folder, 'account.sqlite'))).toThrow(/is a symbolic link, and podtop follows none/);
			rmSync(join(folder, name));
		}

		symlinkSync(victim, join(folder, 'account.sqlite.lock'));
		expect(() => takeWriterLock(join(folder, 'account.sqlite'))).toThrow(/account\.sqlite\.lock is a symbolic link/);
		expect(readFileSync(victim, 'utf8')).toBe('precious');
		expect(statSync(victim).mode & 0o777).toBe(0o644);
	});
});

import {chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, expect, test} from 'vitest';
import {prepareSocketPath} from '../../source/serve/socket-file.js';

// The group a `--group` agent opens its folder to (tests run as root, in group 0): nogroup.
const gid = 65_534;
const base = mkdtempSync(join(tmpdir(), 'podtop-socket-file-'));

afterAll(() => {
	rmSync(base, {recursive: true, force: true});
});

const mode = (path: string) => statSync(path).mode & 0o777;

test("a group folder planted as a link to the user's private folder: refused, and the private folder keeps its mode and group", async () => {
	const private_ = join(base, 'private');
	mkdirSync(private_, {mode: 0o700});
	chmodSync(private_, 0o700);
	const planted = join(base, `podtop-group-${gid}`);
	symlinkSync(private_, planted);
	await expect(prepareSocketPath(join(planted, 'agent-0123456789abcdef.sock'), gid)).rejects.toThrow(
		`${planted} is a symbolic link: podtop will not serve from it`,
	);
	expect(mode(private_)).toBe(0o700);
	expect(statSync(private_).gid).toBe(0);
	expect(lstatSync(planted).isSymbolicLink()).toBe(true);
});

test('a folder that was there with another mode is refused as it is, never changed; one made by an agent before is used', async () => {
	const open = join(base, 'open');
	mkdirSync(open);
	chmodSync(open, 0o755);
	await expect(prepareSocketPath(join(open, 'agent.sock'))).rejects.toThrow(
		/was there already with mode 0755, not 0700: podtop changes no folder it did not make/,
	);
	expect(mode(open)).toBe(0o755);

	const mine = join(base, 'mine');
	mkdirSync(mine);
	chmodSync(mine, 0o700);
	await prepareSocketPath(join(mine, 'agent.sock'));
	expect(mode(mine)).toBe(0o700);
});

test('a folder it makes: private (0700), or for a group entered but not listed by it (0710, the group its own)', async () => {
	const own = join(base, 'made');
	await prepareSocketPath(join(own, 'agent.sock'));
	expect(mode(own)).toBe(0o700);
	const group = join(base, 'made-group');
	await prepareSocketPath(join(group, 'agent.sock'), gid);
	expect(mode(group)).toBe(0o710);
	expect(statSync(group).gid).toBe(gid);
	// Made again (the agent restarted): used as it is.
	await prepareSocketPath(join(group, 'agent.sock'), gid);
	// Someone else's group on it: refused.
	await expect(prepareSocketPath(join(group, 'agent.sock'), 0)).rejects.toThrow(/of group 65534, not 0710 of group 0/);
});

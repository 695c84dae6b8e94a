import {spawn} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {expect, test} from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundle = path.join(root, 'dist', 'bundle', 'podtop.js');

/** The processes whose parent is `pid`. */
function children(pid: number): number[] {
	return readdirSync('/proc')
		.filter(name => /^\d+$/.test(name))
		.filter(name => {
			try {
				return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
			} catch {
				return false;
			}
		})
		.map(Number);
}

const words = (file: string) => readFileSync(file, 'utf8').split('\0');

// `npm test` has just built dist/ (as `npm start` would have).
test.skipIf(process.platform !== 'linux')("`npm start` runs podtop with its shebang's Node flags and environment", async () => {
	const shebang = readFileSync(bundle, 'utf8')
		.split('\n', 1)[0]!
		.replace(/^#!\S*env -S /, '')
		.split(' ');
	const at = shebang.indexOf('node');
	const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.js'), 'sim', '--port', '0'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !shebang.slice(0, at).some(word => word.startsWith(`${name}=`)))),
	});
	try {
		let banner = '';
		child.stdout.setEncoding('utf8');
		await new Promise<void>((resolve, reject) => {
			child.once('exit', () => {
				reject(new Error(`podtop ended before it listened: ${banner}`));
			});
			child.stdout.on('data', (text: string) => {
				banner += text;
				if (banner.includes('listening on')) {
					resolve();
				}
			});
		});
		// The simulator that answers is this process or the one it started (podtop names itself, over its command line, so
		// the flags cannot be read from outside): it has the environment the bin's shebang gives.
		const podtops = [child.pid!, ...children(child.pid!)].filter(pid => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'podtop');
		expect(podtops).toHaveLength(1);
		expect(shebang.slice(0, at)).not.toHaveLength(0);
		expect(words(`/proc/${podtops[0]!}/environ`)).toEqual(expect.arrayContaining(shebang.slice(0, at)));
	} finally {
		child.kill('SIGTERM');
	}
});

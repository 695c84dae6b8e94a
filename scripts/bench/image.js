#!/usr/bin/env node
// A job picture's cost: decoding a 1536×1536 image (FLUX's largest) and shrinking it to a 120×40
// terminal's job view, in the dashboard's thread or in the worker podtop uses. Each case runs in a
// fresh process (with --expose-gc); prints one line per case, asserts nothing.
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const here = fileURLToPath(import.meta.url);
const mb = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function measure(format, where) {
	const {encodePng} = await import('../../dist/sim/images/png.js');
	const {encodeJpeg} = await import('../../dist/sim/images/jpeg.js');
	const {pictureAt} = await import('../../dist/sim/images/picture.js');
	const {decodePicture} = await import('../../dist/images/decode-picture.js');
	const {decodeOffThread} = await import('../../dist/images/decode-off-thread.js');
	const size = 1536;
	const bytes = (format === 'png' ? encodePng : encodeJpeg)(size, size, pictureAt(7, size, size));
	const box = {columns: 120, rows: 29};
	// Warm the decoders on a small image, so the figures are the big one's.
	decodePicture((format === 'png' ? encodePng : encodeJpeg)(64, 64, pictureAt(7, 64, 64)), box);
	globalThis.gc();
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakHeap = before.heapUsed + before.arrayBuffers;
	const sample = () => {
		const now = process.memoryUsage();
		peakRss = Math.max(peakRss, now.rss);
		peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
	};

	const timer = setInterval(sample, 2);
	const start = performance.now();
	const pixels = where === 'worker' ? await decodeOffThread(bytes, box) : decodePicture(bytes, box);
	const ms = performance.now() - start;
	sample();
	clearInterval(timer);
	globalThis.gc();
	const after = process.memoryUsage();
	return {
		format,
		where,
		fileBytes: bytes.length,
		ms,
		picture: `${pixels.width}×${pixels.height}`,
		peakRss: peakRss - before.rss,
		peakHeap: peakHeap - before.heapUsed - before.arrayBuffers,
		kept: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers,
	};
}

if (process.argv[2]) {
	process.stdout.write(JSON.stringify(await measure(process.argv[2], process.argv[3])));
} else {
	console.log('job picture: a 1536×1536 image decoded and shrunk for a 120×40 job view (fresh process each)');
	console.log('format  where         file      time   picture  peak RSS +  peak heap+buffers +  kept after');
	for (const format of ['png', 'jpeg']) {
		for (const where of ['main thread', 'worker']) {
			const run = spawnSync(process.execPath, ['--expose-gc', here, format, where === 'worker' ? 'worker' : 'main'], {encoding: 'utf8'});
			if (run.status !== 0) {
				console.log(`${format} ${where}: failed\n${run.stderr}`);
				continue;
			}

			const result = JSON.parse(run.stdout);
			console.log(
				`${format.padEnd(6)}  ${where.padEnd(11)}  ${mb(result.fileBytes).padStart(7)}  ${result.ms.toFixed(0).padStart(5)} ms  ${result.picture.padStart(7)}  ${mb(result.peakRss).padStart(10)}  ${mb(result.peakHeap).padStart(18)}  ${mb(result.kept).padStart(10)}`,
			);
		}
	}
}

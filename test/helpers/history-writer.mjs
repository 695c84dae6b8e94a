// A recorder in a process of its own, for test/history/bad-conditions.test.ts to kill -9 mid-write:
// it takes the file's writer lock, opens it, and writes a poll of `pods` changing pods every few
// milliseconds, each 5 s (simulated) after the newest in the file, printing each poll's moment once
// its transaction has committed (a pipe's writes are synchronous on Linux). Runs on the tsc build in dist/.
const [dist, file, pods] = process.argv.slice(2);
const {openHistoryForWriting, takeWriterLock} = await import(`${dist}/history/history-file.js`);
const {createRecorder} = await import(`${dist}/history/recorder.js`);
const {createPodtopStore} = await import(`${dist}/store/create-store.js`);

if (!takeWriterLock(file)) {
	process.stdout.write('locked\n');
	process.exit(1);
}

const {db} = openHistoryForWriting(file);
let at = (db.prepare('SELECT max(at) FROM polls').raw().get()[0] ?? Date.parse('2026-11-20T00:00:00Z')) + 5000;
const {store, writes} = createPodtopStore({mode: 'live', apiHost: 'example', keyFingerprint: '••••abcd'});
const recorder = createRecorder({store, db, file, now: () => at, live: false});
const pod = (index, poll) => ({
	id: `pod${index}`,
	name: `pod ${index}`,
	imageName: 'runpod/pytorch',
	desiredStatus: 'RUNNING',
	costPerHr: 1.5,
	gpuCount: 1,
	runtime: {gpus: [{gpuUtilPercent: (index + poll) % 100, memoryUtilPercent: (index * poll) % 100}], container: {cpuPercent: poll % 100, memoryPercent: 40}},
});
process.stdout.write('ready\n');
const write = poll => {
	writes.setPods(
		Array.from({length: Number(pods)}, (_, index) => pod(index, poll)),
		at,
	);
	recorder.flush(at);
	if (recorder.state().state !== 'recording') {
		process.stdout.write(`failed ${JSON.stringify(recorder.state())}\n`);
		process.exit(1);
	}

	process.stdout.write(`wrote ${at}\n`);
	at += 5000;
	setImmediate(() => {
		write(poll + 1);
	});
};

write(0);

// A podtop engine in a process of its own (run as another user by test/serve/agent-history.test.ts):
// it reads the account's history the way `podtop history` would, or makes one write the way a write
// verb does (no `agent` option). It prints one JSON document: what its history says it reads from,
// what it read, and whether it could open the agent's file itself. Runs on the tsc build in dist/
// (`npx tsc -p tsconfig.build.json`).
import {accessSync, constants} from 'node:fs';

const [engineModule, request] = process.argv.slice(2);
const {service, file, endpointId, from, to, at, write} = JSON.parse(request);
const {createEngine} = await import(engineModule);
const engine = await createEngine({target: {mode: 'live', ...service, warnings: []}, poll: [], allVisible: true, ...(write ? {} : {agent: true})});
const result = {uid: process.getuid()};
try {
	let fileError;
	try {
		accessSync(file, constants.R_OK);
	} catch (error) {
		fileError = error.code;
	}

	result.fileError = fileError;
	const reader = write ? undefined : engine.history.reader();
	result.status = engine.history.status.getState();
	result.kind = reader?.kind;
	if (reader) {
		result.series = await reader.series({kind: 'endpoint', keys: [endpointId], from, to});
		result.stateAt = await reader.stateAt(at);
		result.events = await reader.events(from, to);
		result.info = await reader.info();
	}

	if (write) {
		result.write = (await engine.perform(write.id, write.target, undefined)).outcome;
	}
} catch (error) {
	result.error = error instanceof Error ? error.message : String(error);
} finally {
	await engine.close();
}

process.stdout.write(JSON.stringify(result));

import {readFileSync} from 'node:fs';
import openapiTS, {astToString, COMMENT_HEADER} from 'openapi-typescript';
import {expect, test} from 'vitest';

const spec = new URL('../../../spec/runpod-rest-v2.openapi.json', import.meta.url);
const committed = new URL('../../../source/api/rest/v2-schema.ts', import.meta.url);

// The same options as `npm run generate:v2` (a default in the spec does not make a request's field required).
test('the committed v2 types are what the vendored spec generates (npm run generate:v2)', async () => {
	const generated = `${COMMENT_HEADER}${astToString(await openapiTS(spec, {defaultNonNullable: false, silent: true}))}`;
	expect(generated === readFileSync(committed, 'utf8'), 'source/api/rest/v2-schema.ts is stale: run npm run generate:v2').toBe(true);
});

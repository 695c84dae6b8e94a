import {JsonBoundError, parseSplitJson, type JsonBounds} from '../json-stream.js';
import {malformedAnswer} from './rest-errors.js';

/**
A hostile list is refused as it streams in: a pod nests 6 deep and takes about 40 containers; the
skeleton holds each pod's index (under 7 characters) beside the wrapper's few.
*/
const maxPods = 200_000;
const bounds: JsonBounds = {depth: 16, elements: maxPods, perElement: 400, keptBytes: 4 * 1024 * 1024, skeletonChars: maxPods * 7 + 4096};

/**
`{pods: [...]}` read as it streams in (see parseSplitJson): the answer is never one string, and each pod
becomes podtop's record as soon as the list is read, in place, so its wire object can go (10,000 pods
are never held twice over). Anything but a wrapped list, or a list past its bounds, is a malformed answer.
*/
export async function readPodList<T>(body: AsyncIterable<Uint8Array> | null | undefined, toRecord: (pod: never) => T, label: string): Promise<T[]> {
	if (!body) {
		throw malformedAnswer(label);
	}

	let split: Awaited<ReturnType<typeof parseSplitJson>>;
	try {
		split = await parseSplitJson(body, ['pods'], bounds);
	} catch (error) {
		throw error instanceof JsonBoundError ? malformedAnswer(label, error) : error;
	}

	const list = (split.document as {pods?: unknown} | null)?.pods;
	if (!Array.isArray(list) || list.some(item => typeof item !== 'number')) {
		throw malformedAnswer(label);
	}

	const {elements} = split;
	const records = elements as unknown as T[];
	for (const [index, element] of elements.entries()) {
		records[index] = toRecord(element as never);
	}

	return list.map(index => records[index as number]!);
}

import {parentPort, workerData} from 'node:worker_threads';
import {decodePicture, type CellBox} from './decode-picture.js';
import {ImageError} from './image-error.js';

/**
The worker thread `decodeOffThread` starts for one picture: it decodes, shrinks, posts the small
result back and ends, so the full-size pixels never reach the dashboard's heap and its keys and
frames go on while a large JPEG decodes.
*/
const {bytes, box} = workerData as {bytes: Uint8Array; box: CellBox};
try {
	const pixels = decodePicture(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), box);
	parentPort?.postMessage({pixels}, [pixels.data.buffer as ArrayBuffer]);
} catch (error) {
	parentPort?.postMessage({
		error: {kind: error instanceof ImageError ? error.kind : 'broken', message: error instanceof Error ? error.message : String(error)},
	});
}

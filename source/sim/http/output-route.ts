import type {ServerResponse} from 'node:http';
import {encodeJpeg} from '../images/jpeg.js';
import {encodePng} from '../images/png.js';
import {pictureAt} from '../images/picture.js';
import {seedOf} from '../noise.js';
import type {Simulator} from '../simulator.js';
import {sendError} from './respond.js';

const types = {png: 'image/png', jpg: 'image/jpeg'} as const;

const sizeOf = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 16 && value <= 4096 ? value : 1024);

/**
`GET /__sim/outputs/<job_id>.<png|jpg>`: an image model's result, as the service's public links are:
no key needed, a real image of the requested size and format, for as long as the job's result lives.
*/
export function serveOutput(sim: Simulator, name: string, head: boolean, response: ServerResponse): void {
	const match = /^(.+)\.(png|jpg)$/.exec(name);
	const job = match ? [...sim.endpoints.values()].map(endpoint => endpoint.get(match[1]!)).find(Boolean) : undefined;
	const output = job?.status === 'COMPLETED' ? (job.output as {image_url?: unknown} | undefined) : undefined;
	if (!match || !job || typeof output?.image_url !== 'string' || !output.image_url.endsWith(`/${name}`)) {
		sendError(response, 404, 'No such image, or it has expired');
		return;
	}

	const width = sizeOf(job.input.width);
	const height = sizeOf(job.input.height);
	const picture = pictureAt(seedOf(job.id), width, height);
	const body = match[2] === 'png' ? encodePng(width, height, picture) : encodeJpeg(width, height, picture);
	response.writeHead(200, {'content-type': types[match[2] as keyof typeof types], 'content-length': body.length, 'cache-control': 'public, max-age=600'});
	response.end(head ? undefined : body);
}

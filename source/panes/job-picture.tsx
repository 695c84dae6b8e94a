import {Box, Text} from 'ink';
import {useEffect, useState} from 'react';
import {useServices} from '../components/services.js';
import {sanitizeLine} from '../format/sanitize.js';
import type {ImageSource} from '../images/find-image.js';
import {halfBlockCells, halfBlockLines} from '../images/half-blocks.js';
import {describeFacts} from '../images/image-facts.js';
import type {LoadedImage} from '../images/image-loader.js';

type Props = {
	readonly source: ImageSource;
	readonly width: number;
	/** The box: the picture gets all but its last row, which says what the image is. */
	readonly rows: number;
};

/** A resize settles before the picture is decoded again at the new size. */
const redrawAfterMs = 120;

/** Image errors (fetch and decode) are sentences that name the link already. */
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
A finished job's picture above the line that says what it is (`image 1024×1024 (png) <link>`): fetched
once, decoded off the main thread at the box's size, drawn again at a new size after a resize. With
no colour or `--ascii` the line alone. A picture that cannot be fetched or decoded says why in its line.
*/
export function JobPicture({source, width, rows}: Props) {
	const {pictures, colors, glyphs} = useServices();
	const [image, setImage] = useState<LoadedImage>();
	const [failed, setFailed] = useState<string>();
	/** The picture as last drawn, and for which box: a resize keeps it shown until the new one is ready. */
	const [drawn, setDrawn] = useState<{box: string; lines: readonly string[]; problem?: string}>();
	const pictureRows = pictures && pictures.level > 0 ? rows - 1 : 0;
	const box = `${width}x${pictureRows}`;

	useEffect(() => {
		if (!pictures) {
			return;
		}

		let current = true;
		pictures.loader.load(source).then(
			loaded => {
				if (current) {
					setImage(loaded);
				}
			},
			(error: unknown) => {
				if (current) {
					setFailed(reason(error));
				}
			},
		);
		return () => {
			current = false;
		};
	}, [pictures, source]);

	useEffect(() => {
		if (!pictures || pictures.level === 0 || !image || pictureRows < 1) {
			return;
		}

		const {level} = pictures;
		const stop = new AbortController();
		const timer = setTimeout(() => {
			pictures.loader.picture(image, {columns: width, rows: pictureRows}, stop.signal).then(
				pixels => {
					if (!stop.signal.aborted) {
						setDrawn({box, lines: halfBlockLines(halfBlockCells(pixels), level)});
					}
				},
				(error: unknown) => {
					if (!stop.signal.aborted) {
						setDrawn({box, lines: [], problem: reason(error)});
					}
				},
			);
		}, redrawAfterMs);
		return () => {
			clearTimeout(timer);
			stop.abort();
		};
	}, [pictures, image, width, pictureRows, box]);

	const problem = failed ?? drawn?.problem;
	const lines = drawn?.lines ?? [];
	const what = `${describeFacts(image?.facts, glyphs.times)} ${sanitizeLine(source.label)}`;
	const waiting = pictures ? (image ? (pictureRows > 0 && lines.length === 0 && drawn?.box !== box ? 'drawing' : undefined) : 'fetching') : undefined;
	const state = problem ? ` ${glyphs.separator} ${sanitizeLine(problem)}` : waiting ? ` ${glyphs.separator} ${waiting}${glyphs.ellipsis}` : '';
	return (
		<Box flexDirection='column' height={rows} width={width}>
			{lines.slice(0, pictureRows).map((line, index) => (
				<Text key={index} wrap='truncate'>
					{line}
				</Text>
			))}
			<Text wrap='truncate'>
				{what}
				<Text color={problem ? colors.bad : colors.muted}>{state}</Text>
			</Text>
		</Box>
	);
}

/** A colour as red, green, blue, each 0–255. */
export type Rgb = readonly [number, number, number];

/**
A generated picture, the same for the same seed: a sky fading to a horizon, a sun, and hills. It
stands in for the image a real model would draw; clients only need real pixels of the right size.
*/
export function pictureAt(seed: number, width: number, height: number): (x: number, y: number) => Rgb {
	const sunX = 0.25 + ((seed % 97) / 97) * 0.5;
	const sunY = 0.2 + ((seed % 31) / 31) * 0.2;
	const hue = seed % 3;
	return (x, y) => {
		const u = x / width;
		const v = y / height;
		const hill = 0.65 + 0.08 * Math.sin(u * 9 + (seed % 7)) + 0.04 * Math.sin(u * 23);
		if (v > hill) {
			const shade = 1 - (v - hill) * 1.5;
			return [Math.round(40 * shade), Math.round((110 + hue * 20) * shade), Math.round(50 * shade)];
		}

		const sun = Math.hypot(u - sunX, (v - sunY) * (height / width));
		if (sun < 0.07) {
			return [255, 220, 120];
		}

		const glow = Math.max(0, 0.25 - sun) * 300;
		return [Math.min(255, Math.round(70 + v * 160 + glow)), Math.min(255, Math.round(120 + v * 80 + glow * 0.6)), Math.round(230 - v * 90)];
	};
}

/**
Printable ASCII in the order of Unicode's root collation at base strength, as `Intl.Collator` sorts
it (letters without their case; digit runs are compared as numbers). test/lib/natural-compare.test.ts
checks it against the Collator.
*/
const rootOrder = ` _-,;:!?.'"()[]{}@*/\\&#%\`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz`;

/** Each printable ASCII character's place in `rootOrder` (an upper-case letter's is its lower-case one's); 255 elsewhere. */
const ranks = (() => {
	const table = new Uint8Array(128).fill(255);
	for (const [index, character] of [...rootOrder].entries()) {
		table[character.codePointAt(0)!] = index;
		table[character.toUpperCase().codePointAt(0)!] = index;
	}

	return table;
})();

const isDigit = (code: number) => code >= 48 && code <= 57;

/** Whether every character of `text` is printable ASCII (space to `~`), which the fast path orders. */
function isPrintableAscii(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.codePointAt(index)!;
		if (code < 32 || code > 126) {
			return false;
		}
	}

	return true;
}

/** Where the run of digits from `from` ends. */
function digitsEnd(text: string, from: number): number {
	let end = from;
	while (end < text.length && isDigit(text.codePointAt(end)!)) {
		end++;
	}

	return end;
}

/** Two runs of digits by their value (leading zeros count for nothing, as for the Collator). */
function compareNumbers(left: string, leftFrom: number, leftEnd: number, right: string, rightFrom: number, rightEnd: number): number {
	while (leftFrom < leftEnd - 1 && left.codePointAt(leftFrom)! === 48) {
		leftFrom++;
	}

	while (rightFrom < rightEnd - 1 && right.codePointAt(rightFrom)! === 48) {
		rightFrom++;
	}

	const lengths = leftEnd - leftFrom - (rightEnd - rightFrom);
	if (lengths !== 0) {
		return lengths;
	}

	for (; leftFrom < leftEnd; leftFrom++, rightFrom++) {
		const difference = left.codePointAt(leftFrom)! - right.codePointAt(rightFrom)!;
		if (difference !== 0) {
			return difference;
		}
	}

	return 0;
}

function compareAscii(left: string, right: string): number {
	let leftAt = 0;
	let rightAt = 0;
	while (leftAt < left.length && rightAt < right.length) {
		const leftCode = left.codePointAt(leftAt)!;
		const rightCode = right.codePointAt(rightAt)!;
		if (isDigit(leftCode) && isDigit(rightCode)) {
			const leftEnd = digitsEnd(left, leftAt);
			const rightEnd = digitsEnd(right, rightAt);
			const numbers = compareNumbers(left, leftAt, leftEnd, right, rightAt, rightEnd);
			if (numbers !== 0) {
				return numbers;
			}

			leftAt = leftEnd;
			rightAt = rightEnd;
		} else {
			const difference = ranks[leftCode]! - ranks[rightCode]!;
			if (difference !== 0) {
				return difference;
			}

			leftAt++;
			rightAt++;
		}
	}

	return left.length - leftAt - (right.length - rightAt);
}

let collator: Intl.Collator | undefined;

/**
Natural order for names: `exp-2` before `exp-10`, case ignored, as `Intl.Collator(undefined, {numeric:
true, sensitivity: 'base'})` orders them. Names of printable ASCII (nearly all) are compared here: the
Collator's data is 3 MB of memory, made only when a name has other characters.
*/
export function naturalCompare(left: string, right: string): number {
	if (isPrintableAscii(left) && isPrintableAscii(right)) {
		return Math.sign(compareAscii(left, right));
	}

	collator ??= new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});
	return collator.compare(left, right);
}

import type {Diagnosis} from './diagnosis.js';
import {diagnosisWord} from './endpoint-diagnosis.js';

/** What makes a diagnosis a different one: its word and the kinds found (figures that move on alone, how long jobs waited, do not). Empty: nothing wrong. */
export function diagnosisVerdict(diagnosis: Diagnosis): string {
	const word = diagnosisWord(diagnosis);
	const kinds = diagnosis.findings.map(finding => finding.kind).join(',');
	return word === '' && kinds === '' ? '' : `${word}|${kinds}`;
}

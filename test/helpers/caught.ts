import {expect} from 'vitest';
import {ApiError} from '../../source/api/errors.js';

/** The ApiError a call rejects with; fails the test if it resolves, or if the error shows `secret`. */
export async function caught(promise: Promise<unknown>, secret: string): Promise<ApiError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(ApiError);
		expect((error as Error).message).not.toContain(secret);
		return error as ApiError;
	}

	throw new Error('expected a rejection');
}

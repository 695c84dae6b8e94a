export const narrowText: RegExp;
export function withNarrowFastPath<F extends (input: string, options?: {ambiguousIsNarrow?: boolean}) => number>(stringWidth: F): F;

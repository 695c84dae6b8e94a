/** The oldest Node.js major podtop runs on (package.json's engines): Ink 8, undici 8 and vitest 5 need 22. */
export const minimumNodeMajor = 22;

import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		pool: 'forks',
		// Most tests wait on timers and sockets, not the CPU: run more files at once than there are cores.
		maxWorkers: 4,
		env: {NODE_ENV: 'test'},
	},
});

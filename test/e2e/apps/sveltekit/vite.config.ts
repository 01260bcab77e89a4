import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

// The test builds the app twice: at the root, and under a `paths.base` (E2E_BASE) into E2E_OUT.
// (Read through globalThis: the app has no @types/node, and svelte-check checks this file too.)
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

export default defineConfig({
	plugins: [
		sveltekit({
			compilerOptions: {
				runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
			},
			adapter: adapter({ out: env.E2E_OUT ?? 'build' }),
			paths: { base: (env.E2E_BASE ?? '') as '' | `/${string}` }
		})
	]
});

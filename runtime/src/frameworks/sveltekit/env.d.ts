// SvelteKit generates this module per app (`svelte-kit sync`); this is its shape,
// so the integration compiles here. In an app, SvelteKit's own module is used.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>;
}

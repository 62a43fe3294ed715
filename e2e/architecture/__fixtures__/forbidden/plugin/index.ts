// @ts-nocheck
/** Fixture: the plugin's entry point loading the CLI. */
export const cli = () => import('./cli/main');

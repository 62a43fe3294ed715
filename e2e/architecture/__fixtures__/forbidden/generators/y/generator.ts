// @ts-nocheck
/** Fixture: a generator importing a constant from the CLI. */
import type { CliIo } from '../../plugin/cli/main';
export type Y = CliIo;

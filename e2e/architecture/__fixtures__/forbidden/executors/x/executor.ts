// @ts-nocheck
/** Fixture: an executor reaching into the CLI (argv for runCli) instead of calling the operation. */
import { runCli } from '../../plugin/cli/main';
import { publish } from '../../plugin/operations/publish';
export const x = [runCli, publish];

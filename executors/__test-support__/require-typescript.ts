/**
 * Lets Node's own `require` load the TypeScript sources, as `bin/agentdef.cjs` does from a source
 * checkout: the CLI loads each command with `require` (the built package is CommonJS), which
 * vitest's module loader does not see. Import it first in a test that runs `runCli` in-process.
 */
import { join } from 'node:path';

process.env.SWC_NODE_PROJECT ??= join(__dirname, '..', '..', 'tsconfig.json');
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('@swc-node/register');

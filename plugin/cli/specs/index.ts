/**
 * Every verb's table, in the order `agentdef --help` lists them. Only the list and `agentdef help`
 * read them all; a command reads its own.
 */
import { APPLICATION } from './application';
import { ASK } from './ask';
import { BENCH_TOOL } from './bench-tool';
import type { CommandGroupSpec, CommandSpec } from './command-spec';
import { COMPILE } from './compile';
import { DEPLOY } from './deploy';
import { DEV } from './dev';
import { DIFF } from './diff';
import { EVAL } from './eval';
import { EXPORT } from './export';
import { KEYS } from './keys';
import { MCP } from './mcp';
import { PLAN } from './plan';
import { PROMOTE } from './promote';
import { PUBLISH } from './publish';
import { REGISTRY } from './registry';
import { REPUTATION } from './reputation';
import { RUN } from './run';
import { VALIDATE } from './validate';
import { VERIFY } from './verify';

export const COMMAND_SPECS: Readonly<Record<string, CommandSpec | CommandGroupSpec>> = {
  validate: VALIDATE,
  plan: PLAN,
  compile: COMPILE,
  run: RUN,
  dev: DEV,
  eval: EVAL,
  'bench-tool': BENCH_TOOL,
  deploy: DEPLOY,
  ask: ASK,
  application: APPLICATION,
  keys: KEYS,
  diff: DIFF,
  verify: VERIFY,
  export: EXPORT,
  promote: PROMOTE,
  publish: PUBLISH,
  registry: REGISTRY,
  reputation: REPUTATION,
  mcp: MCP,
};

// @ts-nocheck
/** Fixture: an operation importing the CLI and an executor. */
import { compile } from '../compiler/compile';
import { usageError } from '../cli/main';
import { x } from '../../executors/x/executor';
export const publish = [compile, usageError, x];

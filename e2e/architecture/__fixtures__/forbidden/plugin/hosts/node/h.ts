// @ts-nocheck
/** Fixture: a host importing the compiler; node built-ins and the runtime are fine. */
import { spawn } from 'node:child_process';
import { r } from '../../runtime/r';
import { c } from '../../host-contract/c';
import { x } from '../../compiler/x';
export const h = [spawn, r, c, x];

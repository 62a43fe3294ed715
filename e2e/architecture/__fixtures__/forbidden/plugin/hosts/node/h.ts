// @ts-nocheck
/** Fixture: a host importing the compiler and the target table; node built-ins and the runtime are fine. */
import { spawn } from 'node:child_process';
import { r } from '../../runtime/r';
import { c } from '../../host-contract/c';
import { x } from '../../compiler/x';
import { TARGETS } from '../../targets/targets';
export const h = [spawn, r, c, x, TARGETS];

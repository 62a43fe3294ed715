/** `agentdef run` and `agentdef dev` for an HB3 output: the job, run as HB3 would run it, on this machine. */
import { runJobOutput } from '../../hosts/node/run-output';
import { serveProcessOutput } from '../../hosts/node/serve-output';

export const runHb3Job = runJobOutput;
export const serveHb3Job = serveProcessOutput(runJobOutput);

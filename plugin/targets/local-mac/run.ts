/** `agentdef run` and `agentdef dev` for a local output: its launcher, started as the user's service would. */
import { runLauncherOutput } from '../../hosts/node/run-output';
import { serveProcessOutput } from '../../hosts/node/serve-output';

export const runLauncher = runLauncherOutput;
export const serveLauncher = serveProcessOutput(runLauncherOutput);

/**
 * `agentdef run <output folder>` (and the `run` executor): the target its plan.json names runs the
 * output as a process on this machine, through that target's runner. An output no target runs as
 * a process (a Worker: `agentdef dev` serves it) is refused, naming the targets that do.
 */
import type { RunOutputOptions } from '../hosts/node/run-output';
import { outputTarget } from './output-target';
import { listText, processTargets } from './targets';

export async function runCompiledOutput(options: RunOutputOptions): Promise<number> {
  const found = outputTarget(options.outDir);
  const runners = processTargets();
  const compileFor = listText(runners.map((target) => `--target ${target.id}`));
  if (found.target?.run === undefined) {
    const why =
      found.target !== undefined
        ? `${options.outDir} is a ${found.target.id} output, which runs in its own engine (serve it with agentdef dev <folder>)`
        : found.noPlan
          ? `${options.outDir} holds neither ${listText([...new Set(runners.map((target) => target.runs!))], 'nor')}`
          : found.problem;
    options.stderr(`error: ${why}: compile the agent with ${compileFor} first\n`);
    return 2;
  }
  return (await found.target.run())(options);
}

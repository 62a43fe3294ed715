/**
 * A host started by `agentdef run` does not outlive it: when the supervisor is killed outright
 * (SIGKILL, no chance to pass a signal on), the launcher notices, stops its MCP server and exits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf, processesMatching, settle } from '../../plugin/hosts/node/__test-support__/process-tree';
import { agentdefRun, compileExample, isolatedEnv, receiptKeys, scratch, type Scratch } from './support/host-harness';

let tmp: Scratch;
beforeAll(async () => {
  tmp = scratch('supervisor-gone');
  await compileExample('code-search', 'local-mac', tmp.path('out'));
});
afterAll(() => tmp.cleanup());

describe('a supervised host', () => {
  it('stops with its MCP server when agentdef run is killed', async () => {
    const host = agentdefRun(
      tmp.path('out'),
      [],
      isolatedEnv(tmp.path('home'), { AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: (await receiptKeys()).secret }),
    );
    await host.ready;
    const launcher = descendantsOf(host.proc.pid!).find((p) => p.args.includes(tmp.path('out', 'launch.mjs')))!;
    const server = descendantsOf(launcher.pid).find((p) => p.args.includes('code-search/server.mjs'))!;
    expect(server).toBeDefined();
    await host.stop('SIGKILL');
    const running = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const alive = () => [...processesMatching(tmp.dir), ...(running(server.pid) ? [server] : [])];
    expect(await settle(alive, 5000)).toEqual([]);
  });
});

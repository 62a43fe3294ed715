/**
 * The agentic example `fallback-writer` (one Anthropic model, one tool) compiled for every target
 * and served the way users serve it: the Worker in workerd (miniflare behind its loader, as
 * `agentdef dev` starts it), the HB3 entrypoint and the local-mac launcher as real Node processes.
 * Every host reaches the same stub model on loopback and signs receipts with the same key.
 */
import { compileAgent } from '../../../plugin/compiler/compile';
import {
  REPO,
  compileExample,
  isolatedEnv,
  startHostProcess,
  type RunningHost,
  type Scratch,
} from '../../local/support/host-harness';
import { startCompiledWorker, type StartedWorker } from '../../worker/support/start-compiled-worker';

export type HostName = 'worker' | 'hb3' | 'local';
export const HOST_NAMES: readonly HostName[] = ['worker', 'hb3', 'local'];

export interface FallbackWriterHosts {
  urls: Record<HostName, string>;
  worker: StartedWorker;
  processes: Record<'hb3' | 'local', RunningHost>;
  /** Each Node host's receipts file. */
  receiptFiles: Record<'hb3' | 'local', string>;
  stop(): Promise<void>;
}

export async function startFallbackWriterHosts(
  tmp: Scratch,
  options: { modelUrl: string; anthropicKey: string; receiptKey: string },
): Promise<FallbackWriterHosts> {
  const compiled = await compileAgent({
    file: 'examples/fallback-writer/agent.json',
    workspaceRoot: REPO,
    target: 'cloudflare-dynamic-worker',
    outDir: tmp.path('worker'),
  });
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`compile failed: ${JSON.stringify(errors)}`);
  await compileExample('fallback-writer', 'hb3', tmp.path('hb3'));
  await compileExample('fallback-writer', 'local-mac', tmp.path('local'));

  const receiptFiles = { hb3: tmp.path('hb3-receipts.jsonl'), local: tmp.path('local-receipts.jsonl') };
  const common = { AGENTDEF_JOB_MODE: 'serve', AGENTDEF_BASE_URL_ANTHROPIC: options.modelUrl };
  const processes = {
    hb3: startHostProcess([tmp.path('hb3', 'image', 'entrypoint.mjs')], {
      cwd: REPO,
      env: isolatedEnv(tmp.path('home-hb3'), {
        ...common,
        HOST: '127.0.0.1',
        PORT: '0',
        AGENTDEF_RECEIPT_KEY: options.receiptKey,
        ANTHROPIC_API_KEY: options.anthropicKey,
        AGENTDEF_RECEIPTS_FILE: receiptFiles.hb3,
      }),
    }),
    local: startHostProcess([tmp.path('local', 'launch.mjs'), '--port', '0'], {
      cwd: REPO,
      env: isolatedEnv(tmp.path('home-local'), {
        ...common,
        AGENTDEF_SECRET_AGENTDEF_RECEIPT_KEY: options.receiptKey,
        AGENTDEF_SECRET_ANTHROPIC_API_KEY: options.anthropicKey,
        AGENTDEF_RECEIPTS_FILE: receiptFiles.local,
      }),
    }),
  };
  const stopProcesses = () => Promise.all(Object.values(processes).map((p) => p.stop('SIGKILL')));
  let worker: StartedWorker;
  try {
    worker = await startCompiledWorker(tmp.path('worker'), {
      secrets: { ANTHROPIC_API_KEY: options.anthropicKey, AGENTDEF_RECEIPT_KEY: options.receiptKey },
      upstreams: { 'https://api.anthropic.com': options.modelUrl },
    });
  } catch (error) {
    await stopProcesses();
    throw error;
  }
  try {
    const urls = { worker: worker.url, hb3: await processes.hb3.ready, local: await processes.local.ready };
    return {
      urls,
      worker,
      processes,
      receiptFiles,
      stop: async () => {
        await stopProcesses();
        await worker.dispose();
      },
    };
  } catch (error) {
    await stopProcesses();
    await worker.dispose();
    throw error;
  }
}

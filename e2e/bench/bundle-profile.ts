/**
 * What a compiled Worker's bundle is made of: its generated entry bundled again with the same
 * esbuild settings and a metafile, the minified bytes of every input summed by the feature it
 * belongs to (the A2A server, the served card, the run, egress, receipts, telemetry, the model
 * side, the agent's own code). worker-bench.ts prints these as `bundle.<worker>.part.<feature>.kib` lines,
 * the profile behind the bundle ratios.
 */
import { basename, join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** Features, each named by the base names of its runtime and Worker-host modules. */
const FEATURES: Readonly<Record<string, readonly string[]>> = {
  'a2a-server': [
    'a2a-handler',
    'a2a-wire',
    'a2a-list-tasks',
    'a2a-sse',
    'a2a-stream-events',
    'a2a-task-runs',
    'request-guard',
    'task-store',
    'task-store-object',
    'task-store-client',
    'worker-host-plan',
  ],
  'served-card': [
    'agent-card',
    'card-secrets',
    'secret-shapes',
    'served-card',
    'own-card-payload',
    'card-jws',
    'card-signature',
    'card-presence',
    'jcs',
    'jwk-thumbprint',
    'base64url',
  ],
  run: [
    'run-agent',
    'agent-loop',
    'run-budget',
    'redact',
    'text-skeleton',
    'errors',
    'run-id',
    'runtime-config',
    'runtime-parts',
    'secret-source',
    'agent-deps',
  ],
  egress: ['egress', 'egress-guard', 'captured-intrinsics'],
  receipts: ['receipts', 'run-receipt', 'receipt-sink'],
  telemetry: ['run-trace', 'otlp-json', 'otlp-http-exporter', 'run-telemetry', 'worker-telemetry'],
  'model-side': [
    'compaction',
    'transcript',
    'model-turn',
    'post-json',
    'openai-chat',
    'anthropic-messages',
    'ollama-chat',
    'create-model-client',
    'composition',
    'mcp-http-tool',
  ],
};

function featureOf(input: string, entryDir: string): string {
  if (input.startsWith(entryDir) || input.includes('examples/tools/')) return 'agent';
  const name = basename(input).replace(/\.ts$/, '');
  for (const [feature, names] of Object.entries(FEATURES)) if (names.includes(name)) return feature;
  return 'other';
}

/** Minified KiB per feature of the Worker whose generated entry is `<outDir>/src/index.ts`, and the total. */
export async function bundleProfile(
  outDir: string,
  options: { aliases: Plugin; esbuild: Record<string, unknown> },
): Promise<Record<string, number>> {
  const entry = join(outDir, 'src', 'index.ts');
  const result = await build({
    ...options.esbuild,
    entryPoints: [entry],
    outfile: join(outDir, 'profile.js'),
    external: ['cloudflare:*'],
    mainFields: ['browser', 'module', 'main'],
    metafile: true,
    plugins: [options.aliases],
  });
  const output = Object.values(result.metafile!.outputs).find((o) => o.entryPoint !== undefined)!;
  const entryDir = join(outDir, 'src').replace(/\\/g, '/');
  const kib: Record<string, number> = {};
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const feature = featureOf(join(process.cwd(), input).replace(/\\/g, '/'), entryDir);
    kib[feature] = (kib[feature] ?? 0) + bytesInOutput / 1024;
  }
  kib['total'] = output.bytes / 1024;
  return kib;
}

/**
 * What the HB3 e2e tests share: a fake checkpoint folder and its expected digest (computed here,
 * independently of the host), the fake `parse_spans` native tool of splice-resolver, and a stub
 * of the in-container OpenAI-compatible inference server that serves the tuned checkpoint.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedProvider } from '../../plugin/runtime/__test-support__/stub-provider';
import { writeExecutable } from '../local/support/host-harness';

export const SPLICE_CHECKPOINT = 'acme/splice-resolver/2026-10-02';

/** Writes a fake LoRA checkpoint below `weightsRoot` and returns the digest a host must report. */
export function fakeCheckpoint(weightsRoot: string): string {
  const dir = join(weightsRoot, ...SPLICE_CHECKPOINT.split('/'));
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    [
      'adapter_config.json',
      JSON.stringify({ base_model_name_or_path: 'Qwen/Qwen2.5-Coder-7B', r: 16, lora_alpha: 32 }),
    ],
    ['adapter_model.safetensors', 'fake-weights-0123456789'],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  const sha = (t: string) => createHash('sha256').update(t).digest('hex');
  return `sha-256:${sha(files.map(([name, text]) => `${name}\0${sha(text)}\n`).join(''))}`;
}

/**
 * The native tool `parse_spans`: answers the candidate spans it was given, and records the
 * command line of the process that started it (to show which process ran the node).
 */
export function fakeParseSpans(binDir: string, parentLog: string): void {
  writeExecutable(
    binDir,
    'parse_spans',
    `const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const args = JSON.parse(input);
  const parent = execFileSync('ps', ['-o', 'args=', '-p', String(process.ppid)], { encoding: 'utf8' }).trim();
  fs.appendFileSync(${JSON.stringify(parentLog)}, parent + '\\n');
  const spans = (args.candidates || []).map((c, i) => ({ start: c.start, end: c.end, node: i === 0 ? 'export_statement' : 'call_expression' }));
  process.stdout.write(JSON.stringify({ path: args.path, spans }));
});`,
  );
}

/** The tuned model, scripted: ask parse_spans, then answer the splice of the first span it returned. */
export function startInferenceStub() {
  return startScriptedProvider({
    wire: 'openai-chat',
    script: (_index, ctx) => {
      if (ctx.lastToolResults.length === 0)
        return {
          toolCalls: [
            {
              name: 'parse_spans',
              arguments: {
                path: 'src/a.ts',
                candidates: [
                  { start: 7, end: 14 },
                  { start: 40, end: 47 },
                ],
              },
            },
          ],
        };
      const first = (JSON.parse(ctx.lastToolResults[0]!) as { spans: { start: number; end: number; node: string }[] })
        .spans[0]!;
      return { text: JSON.stringify({ start: first.start, end: first.end, replacement: 'renamed', node: first.node }) };
    },
  });
}

export const SPLICE_INPUT = {
  path: 'src/a.ts',
  source: 'export handler = 1;\nconst x = handler();\n',
  instruction: 'rename the exported handler',
  candidates: [
    { start: 7, end: 14 },
    { start: 40, end: 47 },
  ],
};

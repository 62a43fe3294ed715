/**
 * The recording docs/your-first-agent.md replays (recordings/your-first-agent) against what the
 * page's agents send now, in milliseconds (e2e/docs/your-first-agent.test.ts replays it for real, in minutes):
 * every exchange loads; each request offers the tool exactly as the page's `toolInventory` block
 * declares it, names the model the generator pins for `--provider=anthropic`, and starts from a
 * question the page asks; each question the page asks an agentic agent is in it. A change to the
 * page, the generator's default model or the runtime's request shape fails here first: re-record
 * with `node scripts/record-tutorial.mjs`. The recording ships in the package beside a README.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../plugin/definition/scaffold';
import { wireModelId } from '../plugin/definition/rules/exact-models';
import { loadRecording } from '../plugin/hosts/model-replay/recording-folder';
import { extractSteps } from './support/markdown-commands';
import { INSTALLED_RECORDING, TUTORIAL_PAGE, TUTORIAL_RECORDING } from './support/tutorial-model';

const RERECORD = 'the shipped recording no longer matches what the page sends: run node scripts/record-tutorial.mjs';
const steps = extractSteps(readFileSync(TUTORIAL_PAGE, 'utf8'));
const recording = loadRecording(TUTORIAL_RECORDING, 'recordings/your-first-agent');
const requests = [...recording.exchanges.values()].map(
  (e) =>
    e.request.body as {
      model: string;
      tools?: unknown[];
      messages: { role: string; content: { type: string; text?: string }[] }[];
    },
);

describe('recordings/your-first-agent', () => {
  it('loads: every file is an exchange under its own digest, and a README says how it was made', () => {
    expect(recording.problems).toEqual([]);
    expect(recording.exchanges.size).toBeGreaterThanOrEqual(4);
    expect(readdirSync(TUTORIAL_RECORDING).filter((name) => !name.endsWith('.json'))).toEqual(['README.md']);
    expect(readFileSync(join(TUTORIAL_RECORDING, 'README.md'), 'utf8')).toMatch(
      /not Claude's[\s\S]*stand-in[\s\S]*scripts\/record-tutorial\.mjs/,
    );
  });

  it("every request offers the page's tool as declared, to the model the generator pins for Anthropic", () => {
    const block = steps.find((s) => s.kind === 'file' && s.pointer === '/toolInventory');
    expect(block).toBeDefined();
    const tools = (
      JSON.parse(block!.kind === 'file' ? block!.content : '[]') as {
        name: string;
        description: string;
        inputSchema: unknown;
      }[]
    ).map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema,
    }));
    const anthropic = DEFAULT_MODELS['anthropic']!;
    const model = wireModelId({
      providerId: 'anthropic',
      modelId: anthropic.model,
      modelVersion: anthropic.version,
    }).id;
    for (const request of requests) {
      expect(request.tools, RERECORD).toEqual(tools);
      expect(request.model, RERECORD).toBe(model);
    }
  });

  it('holds the first turn of every question the page asks an agent it serves with the recording, and nothing else', () => {
    const commands = steps.flatMap((s) => (s.kind === 'command' ? [s.command] : []));
    const replayedPorts = commands
      .filter((c) => c.includes(`--replay ${INSTALLED_RECORDING}`))
      .map((c) => /--port[= ](\d+)/.exec(c)?.[1]);
    expect(replayedPorts.length).toBeGreaterThanOrEqual(2);
    const questions = commands
      .filter((c) => replayedPorts.some((port) => c.includes(`agentdef ask http://127.0.0.1:${port} `)))
      .map((c) => /agentdef ask \S+ '([^']*)'/.exec(c)?.[1])
      .sort();
    const firstTurns = requests
      .filter((r) => r.messages.length === 1)
      .map((r) => r.messages[0]!.content[0]!.text)
      .sort();
    expect(firstTurns, RERECORD).toEqual(questions);
  });
});

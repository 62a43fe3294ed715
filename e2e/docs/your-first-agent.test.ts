/**
 * docs/your-first-agent.md, followed as a newcomer follows it: agentdef packed and installed into a
 * fresh Nx workspace (e2e/support/doc-workspace.ts), then every step of the page in order
 * (e2e/support/doc-page.ts): each `sh` command run with `sh -c` in the workspace (it must exit 0),
 * each titled file block written (whole, or at its JSON Pointer), each `# serves until Ctrl-C`
 * command left serving (the agent card answering on its port) while the rest of its block runs,
 * then stopped with Ctrl-C (it must stop, and nothing listen afterwards). Every `agentdef ask`
 * must end `state: completed`; the tool agent's answer is the one the page shows.
 *
 * No API key and no model server: the agentic steps replay the recording the package ships
 * (`node_modules/agentdef/recordings/your-first-agent`, made by scripts/record-tutorial.mjs
 * against a scripted stand-in). A request it does not hold fails the ask (`model_request_not_recorded`)
 * and the test says to re-record. One step is not run, for the reason the page gives next to it:
 * `npm install -D miniflare@… wrangler@…` needs the registry; the test checks it names the versions
 * this repository pins (the workspace resolves both from the repository's node_modules). HOME (and
 * with it the default keys folder), state and caches live in the test's temp folder; the keychain
 * is off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording } from '../../plugin/hosts/model-replay/recording-folder';
import { followPage, killLeftovers, missingShownLine, shownBlock } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import { type CommandStep, extractSteps } from '../support/markdown-commands';
import type { TempWorkspace } from '../support/nx-workspace';
import { INSTALLED_RECORDING, workerToolsInstall } from '../support/tutorial-model';
import { docPageTest } from './doc-pages';

const REPO = join(__dirname, '..', '..');
const PAGE = docPageTest('e2e/docs/your-first-agent.test.ts');

describe('docs/your-first-agent.md, every step in a fresh Nx workspace', () => {
  const steps = extractSteps(readFileSync(PAGE.path, 'utf8'));
  const commands = steps.filter((s): s is CommandStep => s.kind === 'command');
  let ws: TempWorkspace;
  /** What each agentic `agentdef ask` printed, and what each served agent printed until Ctrl-C. */
  const asked: { command: string; output: string }[] = [];
  const served: { command: string; output: string }[] = [];

  beforeAll(() => {
    ws = readerWorkspace('your-first-agent');
  });

  afterAll(() => killLeftovers());

  it('covers the whole journey: generate, compile for every target, serve, ask, deploy dry run', () => {
    const all = commands.map((c) => c.command).join('\n');
    expect(all).toContain('nx g agentdef:init');
    expect(all).toMatch(/nx g agentdef:agent \S+ --kind=tool/);
    expect(all).toMatch(/nx g agentdef:agent \S+ --provider=/);
    expect(all).toMatch(/nx g agentdef:agent \S+ --nodes=/);
    for (const target of ['cloudflare-dynamic-worker', 'hb3', 'local-mac']) expect(all).toContain(`--target ${target}`);
    expect(commands.filter((c) => c.longRunning).length).toBeGreaterThanOrEqual(3);
    expect(all).toMatch(/nx run \S+:serve/);
    expect(commands.filter((c) => /agentdef ask /.test(c.command)).length).toBeGreaterThanOrEqual(3);
    expect(all).toMatch(/agentdef deploy \S+ --dry-run/);
    expect(steps.some((s) => s.kind === 'file' && s.pointer === undefined)).toBe(true);
    expect(steps.some((s) => s.kind === 'file' && s.pointer !== undefined)).toBe(true);
    // Every agentic agent the page serves replays the shipped recording.
    expect(commands.filter((c) => c.command.includes(`--replay ${INSTALLED_RECORDING}`)).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('the Worker tools install step names the miniflare and wrangler this repository pins, before the first Worker is served', () => {
    const pins = (
      JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
    ).devDependencies;
    const install = commands.findIndex((c) => workerToolsInstall(c.command) !== undefined);
    expect(install, 'the page installs miniflare and wrangler').toBeGreaterThanOrEqual(0);
    expect(workerToolsInstall(commands[install]!.command)).toEqual({
      miniflare: pins['miniflare'],
      wrangler: pins['wrangler'],
    });
    expect(PAGE.skip.map((s) => commands.filter((c) => s.match.test(c.command)).map((c) => c.command))).toEqual([
      [commands[install]!.command],
    ]);
    const firstWorker = commands.findIndex((c) => /nx run \S+:serve|deploy dist\/worker\//.test(c.command));
    expect(install).toBeLessThan(firstWorker);
  });

  it('every command succeeds, in order; every served agent answers and stops on Ctrl-C; every ask completes', async () => {
    const toolAnswer = shownBlock(PAGE.path, '{"words":4,"characters":19}');
    try {
      await followPage({
        page: PAGE.path,
        skip: PAGE.skip,
        cwd: ws.dir,
        env: ws.env,
        after: (result) => {
          if (result.step.kind !== 'command' || result.skipped !== undefined) return;
          if (result.step.longRunning) served.push({ command: result.command, output: result.output });
          else if (/agentdef ask /.test(result.command)) {
            expect(result.output, `${result.where}\n${result.output}`).toMatch(/^state: completed$/m);
            asked.push({ command: result.command, output: result.output });
            if (result.command.endsWith("'the quick brown fox'"))
              expect(missingShownLine(result.output, toolAnswer), result.output).toBeUndefined();
          }
        },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        /model_request_not_recorded/.test(message)
          ? `${message}\nthe shipped recording does not hold what the page sends now: run node scripts/record-tutorial.mjs`
          : message,
      );
    }
    expect(asked.length).toBe(commands.filter((c) => /agentdef ask /.test(c.command)).length);
    expect(served.length).toBe(commands.filter((c) => c.longRunning).length);
  });

  it('the agentic steps were answered from the shipped recording with no key: the tool was offered, called, and its result sent back and answered', () => {
    const replaying = served.filter((s) => s.command.includes(`--replay ${INSTALLED_RECORDING}`));
    expect(replaying.length).toBeGreaterThanOrEqual(2);
    for (const { command, output } of replaying) {
      expect(output, command).toMatch(
        /^ {2}models: {5}replayed from node_modules\/agentdef\/recordings\/your-first-agent \(\d+ recorded exchanges?; no API key used\)$/m,
      );
      expect(output, command).not.toMatch(/model request not recorded|^error/m);
    }
    const agentic = asked.filter((a) => /models: replayed/.test(a.output));
    expect(agentic.length).toBeGreaterThanOrEqual(2);
    for (const { command, output } of agentic) {
      expect(output, command).toContain('models: replayed from a recording, not a live model (the receipt says so)');
      expect(output, command).toMatch(/The tool says: \{"words":4,"characters":\d+\}/);
    }
    // What was replayed: the requests the page's agents sent, which offered count_words and carried its result back.
    const recording = loadRecording(join(ws.dir, INSTALLED_RECORDING), INSTALLED_RECORDING);
    expect(recording.problems).toEqual([]);
    const calls = [...recording.exchanges.values()].filter((e) => e.request.path === '/v1/messages');
    expect(calls.length).toBeGreaterThanOrEqual(4);
    const bodies = calls.map((c) => c.request.body as { tools?: { name: string }[]; messages: unknown[] });
    expect(bodies.flatMap((b) => (b.tools ?? []).map((t) => t.name))).toContain('count_words');
    expect(JSON.stringify(bodies.map((b) => b.messages))).toContain('\\"words\\":4');
    expect(JSON.stringify(calls)).not.toMatch(/x-api-key|sk-ant-/);
  });
});

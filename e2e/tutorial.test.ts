/**
 * docs/your-first-agent.md, followed as a newcomer follows it: agentdef packed and installed into a
 * fresh Nx workspace, then every step of the page in order (e2e/support/page-steps.ts): each `sh`
 * command run with `sh -c` in the workspace (it must exit 0), each titled file block written
 * (whole, or at its JSON Pointer), each `# serves until Ctrl-C` command left serving (the agent card
 * answering on its port) while the rest of its block runs, then stopped with Ctrl-C (nothing
 * listens afterwards). Every `agentdef ask` must end `state: completed`.
 *
 * No API key and no model server: the agentic steps replay the recording the package ships
 * (`node_modules/agentdef/recordings/your-first-agent`, made by scripts/record-tutorial.mjs
 * against a scripted stand-in). A request it does not hold fails the ask (`model_request_not_recorded`)
 * and the test says to re-record. One step is not run: `npm install -D miniflare@… wrangler@…`
 * needs the registry; the test checks it names the versions this repository pins (the workspace
 * resolves both from the repository's node_modules). HOME, the keys folder, state and caches
 * live in the test's temp folder; the keychain is off.
 */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording } from '../plugin/hosts/model-replay/recording-folder';
import { extractSteps, type CommandStep } from './support/markdown-commands';
import { createWorkspace, nxBin, openWorkspace, packAgentdef, type TempWorkspace } from './support/nx-workspace';
import { killStarted, runPageSteps } from './support/page-steps';
import { INSTALLED_RECORDING, TUTORIAL_PAGE, workerToolsInstall } from './support/tutorial-model';

const REPO = join(__dirname, '..');

describe('docs/your-first-agent.md, every step in a fresh Nx workspace', () => {
  const steps = extractSteps(readFileSync(TUTORIAL_PAGE, 'utf8'));
  const commands = steps.filter((s): s is CommandStep => s.kind === 'command');
  let ws: TempWorkspace;
  /** What each agentic `agentdef ask` printed, and what each served agent printed until Ctrl-C. */
  const asked: { command: string; output: string }[] = [];
  const served: { command: string; output: string }[] = [];

  beforeAll(() => {
    const created = createWorkspace('tutorial', packAgentdef());
    // A workspace made by create-nx-workspace has nx installed: link the repository's.
    symlinkSync(nxBin, join(created.dir, 'node_modules', '.bin', 'nx'));
    ws = openWorkspace(created.dir, created.home, {
      AGENTDEF_KEYCHAIN: 'off',
      AGENTDEF_KEYS_DIR: join(created.home, 'keys'),
      AGENTDEF_STATE_DIR: join(created.home, 'state'),
      WRANGLER_LOG_PATH: join(created.home, 'wrangler-logs'),
      XDG_STATE_HOME: join(created.home, '.local', 'state'),
      npm_config_update_notifier: 'false',
    });
    // No key and no model endpoint of any kind reaches the page's commands.
    for (const name of Object.keys(ws.env)) if (/^AGENTDEF_(SECRET_|BASE_URL_|REPLAY|RECORD|MODEL_PROXY)|^(ANTHROPIC|OPENAI)_API_KEY$|^OLLAMA_HOST$/.test(name)) delete ws.env[name];
  });

  afterAll(() => killStarted());

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
    expect(commands.filter((c) => c.command.includes(`--replay ${INSTALLED_RECORDING}`)).length).toBeGreaterThanOrEqual(2);
  });

  it('the Worker tools install step names the miniflare and wrangler this repository pins, before the first Worker is served', () => {
    const pins = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    const install = commands.findIndex((c) => workerToolsInstall(c.command) !== undefined);
    expect(install, 'the page installs miniflare and wrangler').toBeGreaterThanOrEqual(0);
    expect(workerToolsInstall(commands[install]!.command)).toEqual({ miniflare: pins['miniflare'], wrangler: pins['wrangler'] });
    const firstWorker = commands.findIndex((c) => /nx run \S+:serve|deploy dist\/worker\//.test(c.command));
    expect(install).toBeLessThan(firstWorker);
  });

  it('every command succeeds, in order; every served agent answers and stops on Ctrl-C', async () => {
    await runPageSteps(ws.dir, steps, ws.env, {
      // Needs the registry: checked above instead, and the workspace resolves both packages already.
      command: (command) => (workerToolsInstall(command) ? undefined : command),
      finished: (step, command, finished) => {
        const where = `docs/your-first-agent.md:${step.line}: ${command}`;
        expect(
          finished.status,
          `${where}\n${finished.output}${/model_request_not_recorded/.test(finished.output) ? '\nthe shipped recording does not hold what the page sends now: run node scripts/record-tutorial.mjs' : ''}`,
        ).toBe(0);
        if (/agentdef ask /.test(command)) {
          expect(finished.output, `${where}\n${finished.output}`).toMatch(/^state: completed$/m);
          asked.push({ command, output: finished.output });
        }
      },
      stopped: (step, command, stopped, stillListening) => {
        const where = `line ${step.line}: ${command}`;
        expect(stopped.signal === 'SIGKILL', `${where} did not stop on Ctrl-C:\n${stopped.output}`).toBe(false);
        expect(stillListening, `${where} still listens after Ctrl-C`).toBe(false);
        served.push({ command, output: stopped.output });
      },
    });
  });

  it('the agentic steps were answered from the shipped recording with no key: the tool was offered, called, and its result sent back and answered', () => {
    const replaying = served.filter((s) => s.command.includes(`--replay ${INSTALLED_RECORDING}`));
    expect(replaying.length).toBeGreaterThanOrEqual(2);
    for (const { command, output } of replaying) {
      expect(output, command).toMatch(/^ {2}models: {5}replayed from node_modules\/agentdef\/recordings\/your-first-agent \(\d+ recorded exchanges?; no API key used\)$/m);
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

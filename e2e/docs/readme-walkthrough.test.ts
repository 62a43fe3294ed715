/**
 * The README's "Using agentdef in an Nx workspace" walk-through, followed as a new user follows it:
 * its fenced `sh` block is read from README.md at test time and run as written, in order
 * (e2e/support/doc-page.ts), in a fresh Nx workspace that is a git repository on `main`, as
 * create-nx-workspace makes one (e2e/support/doc-workspace.ts). Every command must exit 0; after
 * each `nx g agentdef:agent` its project is in `nx show projects`, after each
 * `nx run <agent>:compile` its output folder exists, and `nx affected -t compile` compiles every
 * agent the walk-through created.
 *
 * Installing: the block's `npm install -D` of the packed tarball is left out, for the reason the
 * README gives next to it (npm fetches agentdef's dependencies from the registry); the workspace
 * has the tarball the global setup packed unpacked into node_modules/agentdef, as npm lays it out.
 * Afterwards, the generator's rough edges through the real nx CLI: init says it is already
 * registered, a pin that resolves to nothing and a mistyped provider are refused with nothing
 * written, and `--format=yaml` writes an agent.yaml whose schema modeline names the shipped schema
 * and which validates and compiles like JSON.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { followPage, killLeftovers } from '../support/doc-page';
import { readerWorkspace } from '../support/doc-workspace';
import { type CommandStep, extractSteps } from '../support/markdown-commands';
import type { CommandResult, TempWorkspace } from '../support/nx-workspace';
import { docPageTest } from './doc-pages';
import { HUNG_CHILD_MS } from '../support/hung-child';

const PAGE = docPageTest('e2e/docs/readme-walkthrough.test.ts');
const COMMAND_MS = HUNG_CHILD_MS;

/** A command's words before its trailing `# comment`. */
function words(command: string): string[] {
  return command
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/);
}

/** The slug `nx g agentdef:agent <name> …` creates: the last segment of its name. */
function generatedSlug(command: string): string | undefined {
  const args = words(command);
  const at = args.indexOf('agentdef:agent');
  const name = at >= 0 ? args.slice(at + 1).find((w) => !w.startsWith('-')) : undefined;
  return name === undefined ? undefined : posix.basename(name);
}

/** The project `nx run <project>:compile …` compiles. */
function compiledProject(command: string): string | undefined {
  return /\bnx run ([a-z0-9-]+):compile\b/.exec(command)?.[1];
}

function sh(ws: TempWorkspace, command: string): CommandResult {
  const r = spawnSync('sh', ['-c', command], { cwd: ws.dir, env: ws.env, encoding: 'utf8', timeout: COMMAND_MS });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function projects(ws: TempWorkspace): string[] {
  const r = ws.nx(['show', 'projects', '--json']);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

describe('README "Using agentdef in an Nx workspace", every command in order in a fresh workspace', () => {
  const commands = extractSteps(readFileSync(PAGE.path, 'utf8'), { sections: PAGE.sections! }).filter(
    (s): s is CommandStep => s.kind === 'command',
  );
  let ws: TempWorkspace;

  beforeAll(() => {
    ws = readerWorkspace('readme-walkthrough');
  });

  it('is a walk-through worth following: install, init, agents, a composition, plan, compile, affected', () => {
    expect(
      /\bnpm (install|i|add)\b/.test(commands[0]!.command) && /agentdef/.test(commands[0]!.command),
      'the block starts with the install line',
    ).toBe(true);
    expect(PAGE.skip.map((s) => commands.filter((c) => s.match.test(c.command)).length)).toEqual([1]);
    const all = commands.map((c) => c.command);
    expect(all.some((c) => /nx g agentdef:init\b/.test(c))).toBe(true);
    expect(all.filter((c) => generatedSlug(c) !== undefined).length).toBeGreaterThanOrEqual(3);
    expect(all.some((c) => /--nodes=/.test(c))).toBe(true);
    expect(all.some((c) => /nx affected -t compile/.test(c))).toBe(true);
  });

  it('runs every command after the install, in order, each succeeding, with what it made in place', async () => {
    const created: string[] = [];
    try {
      await followPage({
        page: PAGE.path,
        sections: PAGE.sections!,
        skip: PAGE.skip,
        cwd: ws.dir,
        env: ws.env,
        after: (result) => {
          if (result.step.kind !== 'command' || result.skipped !== undefined) return;
          const slug = generatedSlug(result.command);
          if (slug !== undefined) {
            created.push(slug);
            expect(projects(ws), result.where).toEqual(expect.arrayContaining(created));
          }
          const compiled = compiledProject(result.command);
          if (compiled !== undefined)
            expect(existsSync(join(ws.dir, 'dist', 'agents', compiled, 'plan.json')), result.where).toBe(true);
          if (/nx affected -t compile/.test(result.command)) {
            for (const agent of created)
              expect(result.stdout, `${result.where}: compiles ${agent}`).toContain(`${agent}:compile`);
          }
        },
      });
    } finally {
      killLeftovers();
    }
    expect(created.length).toBeGreaterThanOrEqual(3);
  });

  it('says so when init finds the plugin already registered, and leaves nx.json as it is', () => {
    const before = readFileSync(join(ws.dir, 'nx.json'), 'utf8');
    const r = ws.nx(['g', 'agentdef:init']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /agentdef:init: the agentdef plugin is already registered in nx\.json \(plugins\[\d+\]\); nothing changed/,
    );
    expect(readFileSync(join(ws.dir, 'nx.json'), 'utf8')).toBe(before);
  });

  it('refuses a pin that resolves to nothing, a mistyped provider and a model without its version, naming them, and writes nothing', () => {
    const before = projects(ws);
    const pin = ws.nx(['g', 'agentdef:agent', 'editor', '--nodes=summarizer@0.1.0,splicer@0.1.0']);
    expect(pin.status).not.toBe(0);
    expect(pin.stdout + pin.stderr).toContain('--nodes pins splicer@0.1.0, which does not resolve');
    expect(pin.stdout + pin.stderr).toContain('did you mean splice?');
    const provider = ws.nx(['g', 'agentdef:agent', 'editor', '--provider=OpenAI', '--model=gpt-4o']);
    expect(provider.status).not.toBe(0);
    expect(provider.stdout + provider.stderr).toContain(
      '--provider "OpenAI" is not a provider agentdef knows: did you mean "openai"?',
    );
    expect(provider.stdout + provider.stderr).not.toMatch(/pattern \^/);
    const tier = ws.nx(['g', 'agentdef:agent', 'editor', '--tier=Small']);
    expect(tier.status).not.toBe(0);
    expect(tier.stdout + tier.stderr).toContain(
      '--tier "Small" is not allowed: did you mean "small"? It must be one of frontier, small, tuned, local',
    );
    // A model the generator cannot pin without its version: it asks for the provider's exact form, with an example.
    const model = ws.nx(['g', 'agentdef:agent', 'editor', '--kind=agent', '--provider=openai', '--model=gpt-4o-mini']);
    expect(model.status).not.toBe(0);
    expect(model.stdout + model.stderr).toContain(
      '--model=gpt-4o-mini names no version: OpenAI pins a model by the date of its snapshot, written YYYY-MM-DD. Pass it after "@": --model=gpt-4o-mini@<YYYY-MM-DD>, for example --model=gpt-4o-mini@2024-07-18',
    );
    expect(existsSync(join(ws.dir, 'editor'))).toBe(false);
    expect(projects(ws)).toEqual(before);
    // Given in that form, what it writes validates.
    const pinned = ws.nx([
      'g',
      'agentdef:agent',
      'editor',
      '--kind=agent',
      '--provider=openai',
      '--model=gpt-4o-mini@2024-07-18',
    ]);
    expect(pinned.status, pinned.stdout + pinned.stderr).toBe(0);
    const validated = sh(ws, 'npx agentdef validate editor/agent.json --format json');
    expect(JSON.parse(validated.stdout)).toEqual({ valid: true, diagnostics: [] });
  });

  it('writes agent.yaml with a modeline naming the shipped schema; it validates and compiles like agent.json', () => {
    const r = ws.nx(['g', 'agentdef:agent', 'agents/notes', '--format=yaml', '--provider=anthropic', '--tier=small']);
    expect(r.status, r.stderr).toBe(0);
    const file = join(ws.dir, 'agents', 'notes', 'agent.yaml');
    const [first] = readFileSync(file, 'utf8').split('\n');
    const schema = /^# yaml-language-server: \$schema=(\S+)$/.exec(first!)?.[1];
    expect(schema).toBe('../../node_modules/agentdef/plugin/schema/agent-definition.v1.schema.json');
    expect(existsSync(join(dirname(file), schema!))).toBe(true);
    expect(projects(ws)).toContain('notes');
    const validated = sh(ws, 'npx agentdef validate agents/notes/agent.yaml --format json');
    expect(validated.status, validated.stdout + validated.stderr).toBe(0);
    expect(JSON.parse(validated.stdout)).toEqual({ valid: true, diagnostics: [] });
    const compiled = ws.nx(['run', 'notes:compile']);
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    const plan = (project: string) =>
      JSON.parse(readFileSync(join(ws.dir, 'dist', 'agents', project, 'plan.json'), 'utf8')) as { target: string };
    expect(plan('notes').target).toBe(plan('summarizer').target);
  });
});

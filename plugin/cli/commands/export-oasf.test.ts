/**
 * `agentdef export oasf`: the command over a copy of the examples workspace committed at a fixed
 * time. The record it prints validates against the OASF definitions, states the commit time, maps
 * the MCP tools to the workspace's server (its command, never its arguments), is the same bytes
 * twice; `--out` writes it; a Worker gets its card module and locators only with `--worker-url`; a
 * skill that maps to no OASF skill is a located error and nothing is written; usage errors exit 2.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateOasfRecord } from '../../definition/oasf/validate-oasf-record';
import { runExportCommand } from './export';
import { captureRun, copyExamplesWorkspace, gitAt } from './test-support';

const COMMIT_TIME = '2026-03-04T05:06:07Z';
let root: string;

beforeEach(() => {
  root = copyExamplesWorkspace('agentdef-export-oasf-');
  gitAt(root, COMMIT_TIME, 'init', '-q');
  gitAt(root, COMMIT_TIME, 'add', '-A');
  gitAt(root, COMMIT_TIME, 'commit', '-q', '-m', 'examples');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const run = (...argv: string[]) => captureRun(runExportCommand, ['oasf', ...argv], root);

describe('agentdef export oasf', () => {
  it('prints a valid record created at the commit, with the MCP server as the workspace maps it, the same bytes twice', async () => {
    const first = await run('examples/code-search/agent.json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const record = JSON.parse(first.stdout);
    expect(validateOasfRecord(record)).toEqual([]);
    expect(record.created_at).toBe(COMMIT_TIME);
    expect(record.name).toBe('Code search');
    const mcp = record.modules.find((m: { name: string }) => m.name === 'integration/mcp');
    expect(mcp.data).toEqual({
      name: 'code-search-index',
      tools: [{ name: 'search' }],
      connections: [{ type: 'stdio', command: 'node' }],
    });
    // code-search runs on the local host: the card is served on the container port.
    expect(record.locators.map((l: { urls: string[] }) => l.urls[0])).toContain(
      'http://127.0.0.1:8080/.well-known/agent-card.json',
    );
    const second = await run('examples/code-search/agent.json');
    expect(second.stdout).toBe(first.stdout);
  });

  it('writes --out, and gives a Worker its card module and locators only with --worker-url', async () => {
    const without = await run('examples/web-summarizer/agent.json', '--out', 'out/web.oasf.json');
    expect(without.code).toBe(0);
    expect(without.stdout).toBe('wrote out/web.oasf.json (OASF 1.2.0-dev record of web-summarizer@2.0.0)\n');
    expect(without.stderr).toContain('pass --worker-url');
    const bare = JSON.parse(readFileSync(join(root, 'out/web.oasf.json'), 'utf8'));
    expect(bare.modules).toBeUndefined();
    expect(validateOasfRecord(bare)).toEqual([]);

    const withUrl = await run('examples/web-summarizer/agent.json', '--worker-url', 'https://web.example.workers.dev');
    expect(withUrl.code).toBe(0);
    const record = JSON.parse(withUrl.stdout);
    expect(validateOasfRecord(record)).toEqual([]);
    expect(record.modules[0].name).toBe('integration/a2a');
    expect(record.modules[0].data.card_data.name).toBe('Web summarizer');
    expect(record.locators.map((l: { urls: string[] }) => l.urls[0])).toEqual([
      'https://github.com/acme/agents',
      'https://web.example.workers.dev/.well-known/agent-card.json',
      'https://web.example.workers.dev/',
    ]);
  });

  it('fails a skill that maps to no OASF skill at its line, and writes nothing', async () => {
    const file = join(root, 'examples/text-stats/agent.json');
    const definition = JSON.parse(readFileSync(file, 'utf8'));
    definition.capabilityContract.skills[0].id = 'text.tally';
    definition.capabilityContract.skills[0].tags = ['tally'];
    writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
    const result = await run('examples/text-stats/agent.json', '--out', 'out/stats.oasf.json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/oasf-export: The skill "text\.tally" maps to no OASF skill/);
    expect(result.stderr).toMatch(
      /--> examples\/text-stats\/agent\.json:\d+:\d+ {2}\(\/capabilityContract\/skills\/0\)/,
    );
    expect(result.stderr).toContain('nearest:');
    expect(existsSync(join(root, 'out/stats.oasf.json'))).toBe(false);
  });

  it('exits 2 on usage errors', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('examples/text-stats/agent.json', '--port', 'x')).code).toBe(2);
    const unknown = await captureRun(runExportCommand, ['oasfx', 'examples/text-stats/agent.json'], root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('oasf');
  });
});

/**
 * `agentdef application catalog | plan | execute | check` over a copy of the examples: exit
 * codes, text and JSON output, located diagnostics, drift, and the flags' usage errors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../application/catalog';
import {
  ARTIFACTS_FOLDER,
  EXAMPLE_MANIFEST,
  editManifest,
  exampleWorkspace,
} from '../../application/__test-support__/application-workspace';
import { runApplicationCommand } from './application';
import { captureRun } from './test-support';

const artifacts = ['--artifacts', ARTIFACTS_FOLDER];

describe('agentdef application catalog', () => {
  it('prints the active digests, in text and JSON', async () => {
    const root = exampleWorkspace();
    const catalog = builtinCatalog();
    const text = await captureRun(runApplicationCommand, ['catalog'], root);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`catalog digest          ${catalog.catalogDigest}`);
    expect(text.stdout).toContain('agentdef.registered-agent@1.0.0');
    const json = await captureRun(runApplicationCommand, ['catalog', '--format', 'json'], root);
    expect(JSON.parse(json.stdout).adapterPolicyDigest).toBe(catalog.adapterPolicyDigest);
  });
});

describe('agentdef application plan', () => {
  it('prints the plan and its digest; JSON is the plan itself', async () => {
    const root = exampleWorkspace();
    const text = await captureRun(runApplicationCommand, ['plan', EXAMPLE_MANIFEST, ...artifacts], root);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/release-brief@1\.0\.0: plan \(dry-run\)\n {2}plan digest {6}[0-9a-f]{64}\n/);
    const json = await captureRun(
      runApplicationCommand,
      ['plan', EXAMPLE_MANIFEST, '--format', 'json', '--mode', 'live', ...artifacts],
      root,
    );
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.mode).toBe('live');
    expect(text.stdout).not.toContain(plan.digest); // another mode, another plan
  });

  it('a stale source digest is a located diagnostic with the command that fixes it (exit 1)', async () => {
    const root = exampleWorkspace();
    const file = join(root, EXAMPLE_MANIFEST);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"maxSteps": 8', '"maxSteps": 7'));
    const result = await captureRun(runApplicationCommand, ['plan', EXAMPLE_MANIFEST, ...artifacts], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`--> ${EXAMPLE_MANIFEST}:7:15  (/source/sha256)`);
    expect(result.stderr).toContain('agentdef application digest <file>');
  });

  it('usage errors exit 2', async () => {
    const root = exampleWorkspace();
    for (const argv of [
      ['plan'],
      ['plan', EXAMPLE_MANIFEST, '--mode', 'preview'],
      ['plan', EXAMPLE_MANIFEST, '--bogus'],
      ['frobnicate'],
    ]) {
      const result = await captureRun(runApplicationCommand, argv, root);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage:');
    }
  });
});

describe('agentdef application execute', () => {
  it('dry-runs with --input and prints the outputs (exit 0)', async () => {
    const root = exampleWorkspace();
    const result = await captureRun(
      runApplicationCommand,
      ['execute', EXAMPLE_MANIFEST, '--input', 'request.value={"topic":"x"}', '--key', 'cli-1', ...artifacts],
      root,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('release-brief@1.0.0: succeeded (dry-run)');
    expect(result.stdout).toContain('idempotency key  cli-1');
    expect(result.stdout).toContain('"modelCalls":0');
  });

  it('takes the inputs file beside the manifest as --inputs, and prints JSON', async () => {
    const root = exampleWorkspace();
    const result = await captureRun(
      runApplicationCommand,
      [
        'execute',
        EXAMPLE_MANIFEST,
        '--inputs',
        'examples/applications/release-brief/inputs.json',
        '--format',
        'json',
        ...artifacts,
      ],
      root,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      replayed: false,
      run: { status: 'succeeded', mode: 'dry-run' },
    });
  });

  it('refuses drift from --expect (exit 1) and runs nothing', async () => {
    const root = exampleWorkspace();
    const result = await captureRun(
      runApplicationCommand,
      [
        'execute',
        EXAMPLE_MANIFEST,
        '--mode',
        'live',
        '--expect',
        'f'.repeat(64),
        '--input',
        'request.value={}',
        ...artifacts,
      ],
      root,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: drift: the plan changed since it was accepted');
  });

  it('a stopped run exits 1 and says where it stopped', async () => {
    const root = exampleWorkspace();
    editManifest(root, (m) => {
      Object.assign(m.nodes.find((n: any) => n.id === 'brief-prompt').config, {
        template: 'About {{missing}}.',
        variables: ['missing'],
      });
    });
    const result = await captureRun(
      runApplicationCommand,
      ['execute', EXAMPLE_MANIFEST, '--input', 'request.value={"topic":"x"}', ...artifacts],
      root,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'stopped          failure at brief-prompt: the `vars` input has no member `missing` [template-variable]',
    );
  });

  it('refuses malformed --input values with a usage error', async () => {
    const root = exampleWorkspace();
    for (const input of ['request.value', 'request.value={', 'Request.value=1']) {
      const result = await captureRun(
        runApplicationCommand,
        ['execute', EXAMPLE_MANIFEST, '--input', input, ...artifacts],
        root,
      );
      expect(result.code, input).toBe(2);
    }
  });
});

describe('agentdef application check', () => {
  it('runs the local verification of the example offline, every check passing', async () => {
    const root = exampleWorkspace();
    const result = await captureRun(runApplicationCommand, ['check', EXAMPLE_MANIFEST, ...artifacts], root);
    expect(result.code, result.stdout).toBe(0);
    for (const name of [
      'dependency-independence',
      'canonical-hashing',
      'catalog-and-plan-privacy',
      'offline-execution',
      'idempotency',
      'owner-stop',
      'strict-mcp-contracts',
      'stdio-discovery-and-calls',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`ok {4}${name} `));
    }
    expect(result.stdout).toMatch(/\d+ checks passed\n$/);
  });

  it('fails (exit 1) when the application cannot run offline', async () => {
    const root = exampleWorkspace();
    editManifest(root, (m) => {
      Object.assign(m.nodes.find((n: any) => n.id === 'brief-prompt').config, {
        template: 'About {{missing}}.',
        variables: ['missing'],
      });
    });
    const result = await captureRun(runApplicationCommand, ['check', EXAMPLE_MANIFEST, ...artifacts], root);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}offline-execution +the dry-run stopped: failure at brief-prompt/);
  });
});

describe('agentdef application execute --ledger', () => {
  it('creates the ledger folder, and a repeat with the same key replays from the durable ledger in a new host', async () => {
    const root = exampleWorkspace();
    const argv = [
      'execute',
      EXAMPLE_MANIFEST,
      '--input',
      'request.value={"topic":"x"}',
      '--key',
      'durable-1',
      '--ledger',
      '.agentdef/ledgers/app.sqlite',
      '--format',
      'json',
      ...artifacts,
    ];
    const first = await captureRun(runApplicationCommand, argv, root);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).replayed).toBe(false);
    const second = await captureRun(runApplicationCommand, argv, root);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ replayed: true, run: JSON.parse(first.stdout).run });
  });
});

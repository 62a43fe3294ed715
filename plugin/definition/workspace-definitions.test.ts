import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INCLUDE } from '../../generators/init/generator';
import { AGENT_DEFINITION_GLOB } from '../graph/create-nodes';
import { DEFAULT_PLUGIN_OPTIONS } from '../graph/options';
import { scaffoldAgent } from './scaffold';
import { validateDefinitionSource } from './validate-definition';
import {
  compareSemver,
  defaultOutputDir,
  DEFINITION_FILE_NAMES,
  EXACT_SEMVER_PATTERN,
  findDefinitionFiles,
  findWorkspaceRoot,
  isDefinitionFileName,
  isExactSemver,
  isSlug,
  kymRef,
  pinKey,
  readIdentity,
  registrySlugPath,
  registrySnapshotPath,
  registrySnapshotVersion,
  SEMVER_MAX_LENGTH,
  SKIPPED_DIRECTORIES,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
  sortVersions,
  WORKSPACE_DEFAULTS,
} from './workspace-definitions';

const repoRoot = join(__dirname, '..', '..');
const readJsonFile = (file: string): any => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
const schema = readJsonFile('plugin/schema/agent-definition.v1.schema.json');

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function tempFolder(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'agentdef-wsdefs-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

const identity = (slug: string, version: string) => JSON.stringify({ identity: { slug, versionSemver: version } });

describe('the schema patterns', () => {
  it('are the schema’s own Slug and Semver patterns and length limits', () => {
    expect(SLUG_PATTERN.source).toBe(schema.$defs.Slug.pattern);
    expect(SLUG_MAX_LENGTH).toBe(schema.$defs.Slug.maxLength);
    expect(EXACT_SEMVER_PATTERN.source).toBe(schema.$defs.Semver.pattern);
    expect(SEMVER_MAX_LENGTH).toBe(schema.$defs.Semver.maxLength);
  });

  it('are the ones identity and composition pins use', () => {
    expect(schema.$defs.Identity.properties.slug.$ref).toBe('#/$defs/Slug');
    expect(schema.$defs.Identity.properties.versionSemver.$ref).toBe('#/$defs/Semver');
    expect(schema.$defs.AgentRef.properties.slug.$ref).toBe('#/$defs/Slug');
    expect(schema.$defs.AgentRef.properties.version.$ref).toBe('#/$defs/Semver');
  });

  const base = scaffoldAgent(
    { name: 'probe' },
    { packageName: 'acme' },
    { id: '01J0000000000000000000000A', versionId: '01J0000000000000000000000B' },
  );
  if (!base.ok) throw new Error(base.problem);
  /** Whether the real validator accepts `value` at /identity/<key>. */
  const schemaAccepts = (key: 'slug' | 'versionSemver', value: string): boolean => {
    const definition = { ...base.value.definition, identity: { ...base.value.definition.identity, [key]: value } };
    delete (definition.identity as { kymRef?: string }).kymRef;
    const result = validateDefinitionSource(JSON.stringify(definition), 'agent.json', 'json');
    return !result.diagnostics.some((d) => d.path === `/identity/${key}` && d.rule === 'schema');
  };

  it('isExactSemver agrees with the validator, tricky cases included', () => {
    const cases = [
      '0.0.0',
      '1.2.3',
      '10.20.30',
      '1.0.0-0',
      '1.0.0-0a',
      '1.0.0-alpha.1',
      '1.0.0-x-y.z',
      '1.0.0+build',
      '1.0.0+01',
      '1.0.0-rc.1+build.5',
      '1.0.0-01',
      '1.0.0-alpha.01',
      '01.0.0',
      '1.01.0',
      '1.0.01',
      '1.0.0-',
      '1.0.0+',
      '1.0.0-a..b',
      '1.2',
      '^1.2.3',
      '~1.2.3',
      'latest',
      '1.2.3.4',
      '',
      ' 1.0.0',
      `1.0.0-${'a'.repeat(122)}`,
      `1.0.0-${'a'.repeat(123)}`,
    ];
    for (const v of cases) expect([v, isExactSemver(v)]).toEqual([v, schemaAccepts('versionSemver', v)]);
    expect(isExactSemver('1.0.0-01')).toBe(false);
    expect(isExactSemver('01.0.0')).toBe(false);
    expect(isExactSemver('1.0.0+build')).toBe(true);
  });

  it('isSlug agrees with the validator', () => {
    for (const s of [
      'a',
      'code-search',
      'a1-b2',
      'a'.repeat(64),
      'a'.repeat(65),
      'A',
      'a--b',
      '-a',
      'a-',
      'a_b',
      'a.b',
      '',
      'a/b',
    ]) {
      expect([s, isSlug(s)]).toEqual([s, schemaAccepts('slug', s)]);
    }
  });
});

describe('semver ordering', () => {
  it('orders by precedence, numerically and with pre-releases first', () => {
    expect(
      sortVersions([
        '1.10.0',
        '1.9.0',
        '1.0.0',
        '1.0.0-rc.1',
        '1.0.0-alpha',
        '1.0.0-alpha.10',
        '1.0.0-alpha.2',
        '0.4.2',
        '1.0.0-alpha.beta',
      ]),
    ).toEqual([
      '0.4.2',
      '1.0.0-alpha',
      '1.0.0-alpha.2',
      '1.0.0-alpha.10',
      '1.0.0-alpha.beta',
      '1.0.0-rc.1',
      '1.0.0',
      '1.9.0',
      '1.10.0',
    ]);
  });

  it('deduplicates and keeps invalid strings last', () => {
    expect(sortVersions(['2.0.0', 'latest', '2.0.0', '^1.0.0'])).toEqual(['2.0.0', '^1.0.0', 'latest']);
    expect(compareSemver('1.0.0+b', '1.0.0+a')).toBeGreaterThan(0);
    expect(compareSemver('1.0.0', '1.0.0')).toBe(0);
  });

  it('sorts versions the schema rejects after every valid one', () => {
    expect(sortVersions(['1.0.0-01', '2.0.0', '01.0.0', '1.0.0-1'])).toEqual([
      '1.0.0-1',
      '2.0.0',
      '01.0.0',
      '1.0.0-01',
    ]);
  });

  it('accepts exact versions only', () => {
    for (const v of ['0.0.0', '1.2.3', '1.2.3-rc.1+build.5', '10.20.30']) expect(isExactSemver(v)).toBe(true);
    for (const v of ['1.2', '^1.2.3', '~1.2.3', 'latest', '01.2.3', '1.2.3.4', ''])
      expect(isExactSemver(v)).toBe(false);
  });
});

describe('findDefinitionFiles', () => {
  it('finds the three file names in code-unit order, depth first', () => {
    const ws = tempFolder({
      'b/agent.json': '{}',
      'a/z/agent.yaml': '',
      'a/agent.yml': '',
      'a/other.json': '{}',
      'A/agent.json': '{}',
      'a-b/agent.json': '{}',
      'agent.json': '{}',
      'a/agent.JSON': '{}',
    });
    expect(findDefinitionFiles(ws)).toEqual([
      'A/agent.json',
      'a/agent.yml',
      'a/z/agent.yaml',
      'a-b/agent.json',
      'agent.json',
      'b/agent.json',
    ]);
  });

  it('skips the tool folders and enters other dot-folders', () => {
    const ws = tempFolder({
      'node_modules/x/agent.json': '{}',
      'dist/agents/b/agent.json': '{}',
      '.nx/cache/agent.json': '{}',
      'tmp/agent.json': '{}',
      '.git/agent.json': '{}',
      '.agents/hidden/agent.json': '{}',
      'src/dist-like/agent.json': '{}',
      'deep/node_modules/agent.json': '{}',
    });
    expect(SKIPPED_DIRECTORIES).toEqual(['.git', '.nx', 'dist', 'node_modules', 'tmp']);
    expect(findDefinitionFiles(ws)).toEqual(['.agents/hidden/agent.json', 'src/dist-like/agent.json']);
    expect(findDefinitionFiles(ws, { skipDirectories: ['.agents', 'src'] })).toEqual([
      '.git/agent.json',
      '.nx/cache/agent.json',
      'deep/node_modules/agent.json',
      'dist/agents/b/agent.json',
      'node_modules/x/agent.json',
      'tmp/agent.json',
    ]);
  });

  it('does not follow symbolic links to folders or files', () => {
    const ws = tempFolder({ 'real/agent.json': '{}' });
    mkdirSync(join(ws, 'links'));
    symlinkSync(join(ws, 'real'), join(ws, 'links', 'again'), 'dir');
    symlinkSync(ws, join(ws, 'links', 'loop'), 'dir');
    mkdirSync(join(ws, 'file-link'));
    symlinkSync(join(ws, 'real', 'agent.json'), join(ws, 'file-link', 'agent.json'), 'file');
    expect(findDefinitionFiles(ws)).toEqual(['real/agent.json']);
  });

  it('gives nothing for a missing folder or a file', () => {
    const ws = tempFolder({ 'agent.json': '{}' });
    expect(findDefinitionFiles(join(ws, 'missing'))).toEqual([]);
    expect(findDefinitionFiles(join(ws, 'agent.json'))).toEqual([]);
  });

  it('knows the definition file names, in order of preference', () => {
    expect(DEFINITION_FILE_NAMES).toEqual(['agent.json', 'agent.yaml', 'agent.yml']);
    expect(DEFINITION_FILE_NAMES.map(isDefinitionFileName)).toEqual([true, true, true]);
    for (const name of ['agent.JSON', 'agents.json', 'agent.json5', 'x/agent.json'])
      expect(isDefinitionFileName(name)).toBe(false);
  });

  it('names the same files as the graph glob and the init generator’s include', () => {
    const braces = /^\*\*\/agent\.\{(.+)\}$/.exec(AGENT_DEFINITION_GLOB);
    expect(braces![1]!.split(',').map((ext) => `agent.${ext}`)).toEqual([...DEFINITION_FILE_NAMES]);
    expect(DEFAULT_INCLUDE).toEqual(
      [...DEFINITION_FILE_NAMES, 'application.json', 'application.yaml', 'application.yml'].map((name) => `**/${name}`),
    );
  });
});

describe('readIdentity', () => {
  it('reads the identity of JSON and YAML without validating the rest', () => {
    expect(readIdentity('{"identity":{"slug":"q","versionSemver":"^1"},"junk":true}', 'agent.json')).toEqual({
      slug: 'q',
      versionSemver: '^1',
    });
    expect(readIdentity('\uFEFF{"identity":{"slug":"q","versionSemver":"1.0.0"}}', 'agent.json')).toEqual({
      slug: 'q',
      versionSemver: '1.0.0',
    });
    expect(readIdentity('identity:\n  slug: a\n  versionSemver: 2.0.0\n', 'x/agent.yaml')).toEqual({
      slug: 'a',
      versionSemver: '2.0.0',
    });
    expect(readIdentity('identity: { slug: a, versionSemver: "1.0.0" }\n', 'agent.yml')).toEqual({
      slug: 'a',
      versionSemver: '1.0.0',
    });
  });

  it('gives a reason, never throws, for broken or identity-less files', () => {
    const broken = readIdentity('{ "identity": ', 'agent.json');
    expect(broken).toEqual({ reason: expect.stringMatching(/^cannot be parsed \(line 1: /) });
    expect(readIdentity('identity: [', 'agent.yaml')).toEqual({ reason: expect.stringMatching(/^cannot be parsed/) });
    expect(readIdentity('identity:\n  slug: a\n  slug: b\n  versionSemver: 1.0.0\n', 'agent.yaml')).toEqual({
      reason: expect.stringMatching(/^cannot be parsed/),
    });
    expect(readIdentity('', 'agent.json')).toEqual({ reason: expect.stringMatching(/^cannot be parsed/) });
    for (const text of [
      '[]',
      '3',
      'null',
      '{ "identity": { "slug": 3, "versionSemver": "1.0.0" } }',
      '{ "identity": "a@1.0.0" }',
      '{}',
    ]) {
      expect(readIdentity(text, 'agent.json')).toEqual({
        reason: 'has no string identity.slug and identity.versionSemver',
      });
    }
    expect(
      readIdentity('{ "identity": { "__proto__": { "slug": "x" }, "versionSemver": "1.0.0" } }', 'agent.json'),
    ).toHaveProperty('reason');
  });
});

describe('registry layout and pins', () => {
  it('puts slug@version at <registryRoot>/<slug>/<version>.json', () => {
    expect(registrySlugPath('registry/agents', 'writer')).toBe('registry/agents/writer');
    expect(registrySnapshotPath('registry/agents', 'writer', '1.2.0')).toBe('registry/agents/writer/1.2.0.json');
    expect(registrySnapshotPath('.', 'writer', '1.2.0-rc.1')).toBe('./writer/1.2.0-rc.1.json');
    expect(pinKey('writer', '1.2.0')).toBe('writer@1.2.0');
    expect(kymRef('writer', '1.2.0')).toBe('kym://agents/writer@1.2.0');
  });

  it('reads a version back from a snapshot file name only when it is exact', () => {
    expect(registrySnapshotVersion('1.2.0.json')).toBe('1.2.0');
    expect(registrySnapshotVersion('1.2.0-rc.1+b.json')).toBe('1.2.0-rc.1+b');
    for (const name of ['1.2.0.yaml', '1.2.0', 'latest.json', '1.0.0-01.json', '.json', '1.2.0.json.bak'])
      expect(registrySnapshotVersion(name)).toBeUndefined();
  });
});

describe('workspace defaults', () => {
  it('are one set of values', () => {
    expect(WORKSPACE_DEFAULTS).toEqual({
      registryRoot: 'registry/agents',
      outputRoot: 'dist/agents',
      maxDepth: 16,
      maxNodes: 512,
    });
    expect(defaultOutputDir('writer')).toBe('dist/agents/writer');
    const { targetNames: _names, ...rest } = DEFAULT_PLUGIN_OPTIONS;
    expect(rest).toEqual(WORKSPACE_DEFAULTS);
  });

  it('agree with what the executors’ schemas say (JSON cannot import them)', () => {
    for (const executor of ['compile', 'plan']) {
      const properties = readJsonFile(`executors/${executor}/schema.json`).properties;
      expect([
        executor,
        properties.registryRoot.default,
        properties.maxDepth.default,
        properties.maxNodes.default,
      ]).toEqual([executor, WORKSPACE_DEFAULTS.registryRoot, WORKSPACE_DEFAULTS.maxDepth, WORKSPACE_DEFAULTS.maxNodes]);
    }
    expect(readJsonFile('executors/compile/schema.json').properties.outputPath.description).toContain(
      `\`${defaultOutputDir('<slug>')}\``,
    );
    expect(readJsonFile('executors/run/schema.json').properties.outputPath.description).toContain(
      `\`${WORKSPACE_DEFAULTS.outputRoot}/<project>\``,
    );
  });
});

describe('findWorkspaceRoot', () => {
  it('finds the nearest nx.json, else the nearest package.json, else nothing', () => {
    const ws = tempFolder({
      'nx.json': '{}',
      'a/b/agent.json': identity('a', '1.0.0'),
      'pkg/package.json': '{}',
      'pkg/x/agent.json': '{}',
    });
    expect(findWorkspaceRoot(join(ws, 'a', 'b'))).toBe(ws);
    expect(findWorkspaceRoot(join(ws, 'pkg', 'x'))).toBe(ws);
    expect(findWorkspaceRoot(ws)).toBe(ws);
    rmSync(join(ws, 'nx.json'));
    expect(findWorkspaceRoot(join(ws, 'pkg', 'x'))).toBe(join(ws, 'pkg'));
  });
});

describe('weight', () => {
  it('imports only node:fs, node:path, the definition parser and the workspace-root lookup', () => {
    const source = readFileSync(join(__dirname, 'workspace-definitions.ts'), 'utf8');
    const specifiers = [
      ...source.matchAll(/\bfrom\s+'([^']+)'|\brequire\(\s*'([^']+)'\s*\)|\bimport\(\s*'([^']+)'\s*\)/g),
    ].map((m) => m[1] ?? m[2] ?? m[3]);
    expect([...new Set(specifiers)].sort()).toEqual(['./parse-document', './workspace-root', 'node:fs', 'node:path']);
  });

  it('loads without the yaml package until a YAML file is read', () => {
    const script = [
      "const m = require('./plugin/definition/workspace-definitions.ts');",
      'const yamlLoaded = () => Object.keys(require.cache).some((k) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(k));',
      'const before = yamlLoaded();',
      'm.readIdentity(\'{"identity":{"slug":"a","versionSemver":"1.0.0"}}\', \'agent.json\');',
      'const afterJson = yamlLoaded();',
      "m.readIdentity('identity: {}', 'agent.yaml');",
      'console.log(JSON.stringify([before, afterJson, yamlLoaded()]));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim())).toEqual([false, false, true]);
  });
});

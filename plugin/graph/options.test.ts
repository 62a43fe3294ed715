import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_APPLICATION_TARGET_NAMES,
  DEFAULT_APPROVED_ARTIFACTS,
  DEFAULT_EVAL_RECORDINGS,
  DEFAULT_PLUGIN_OPTIONS,
  normalizePluginOptions,
  PLUGIN_VERSION,
} from './options';
import { REPO_ROOT } from './test-support';

describe('normalizePluginOptions', () => {
  it('fills every default', () => {
    const { hash, ...rest } = normalizePluginOptions(undefined);
    expect(rest).toEqual({
      ...DEFAULT_PLUGIN_OPTIONS,
      applicationTargetNames: DEFAULT_APPLICATION_TARGET_NAMES,
      approvedArtifacts: DEFAULT_APPROVED_ARTIFACTS,
      requireEval: false,
      evalRecordings: DEFAULT_EVAL_RECORDINGS,
      operationalTargets: false,
    });
    expect(rest).toEqual({
      targetNames: { validate: 'validate', plan: 'plan', compile: 'compile' },
      applicationTargetNames: { plan: 'plan', execute: 'execute', check: 'check' },
      outputRoot: 'dist/agents',
      registryRoot: 'registry/agents',
      maxDepth: 16,
      maxNodes: 512,
      approvedArtifacts: 'approved-artifacts',
      requireEval: false,
      evalRecordings: '{projectRoot}/recordings',
      operationalTargets: false,
    });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps given values, renames some targets, and normalises folders', () => {
    const options = normalizePluginOptions({
      targetNames: { compile: 'build-agent' },
      outputRoot: './out/agents/',
      registryRoot: 'reg\\agents',
      maxDepth: 3,
    });
    expect(options).toMatchObject({
      targetNames: { validate: 'validate', plan: 'plan', compile: 'build-agent' },
      outputRoot: 'out/agents',
      registryRoot: 'reg/agents',
      maxDepth: 3,
      maxNodes: 512,
    });
  });

  it('has a stable hash: equal options (in any spelling) hash equal, different options differ', () => {
    const a = normalizePluginOptions({ outputRoot: 'dist/agents', maxDepth: 16 }).hash;
    expect(normalizePluginOptions({ maxDepth: 16, outputRoot: './dist/agents/' }).hash).toBe(a);
    expect(normalizePluginOptions({}).hash).toBe(a);
    const variants = [
      { outputRoot: 'out' },
      { registryRoot: 'reg' },
      { maxDepth: 4 },
      { maxNodes: 9 },
      { targetNames: { validate: 'check' } },
      { targetNames: { plan: 'plan-agent' } },
      { targetNames: { compile: 'build' } },
      { applicationTargetNames: { plan: 'plan-app' } },
      { applicationTargetNames: { execute: 'run-app' } },
      { applicationTargetNames: { check: 'verify' } },
      { requireEval: true },
      { evalRecordings: 'recordings/{projectName}' },
    ];
    const hashes = variants.map((v) => normalizePluginOptions(v).hash);
    expect(new Set([a, ...hashes]).size).toBe(variants.length + 1);
  });

  it('refuses options that cannot work, naming the option', () => {
    expect(() => normalizePluginOptions({ outputRoot: '../elsewhere' })).toThrow(/outputRoot/);
    expect(() => normalizePluginOptions({ registryRoot: '/abs' })).toThrow(/registryRoot/);
    expect(() => normalizePluginOptions({ maxDepth: 0 })).toThrow(/maxDepth/);
    expect(() => normalizePluginOptions({ maxNodes: 1.5 })).toThrow(/maxNodes/);
    expect(() => normalizePluginOptions({ targetNames: { compile: 'plan' } })).toThrow(/same name/);
    expect(() => normalizePluginOptions({ targetNames: { build: 'x' } as never })).toThrow(/targetNames\.build/);
    expect(() => normalizePluginOptions({ outDir: 'x' } as never)).toThrow(/unknown option.*outDir/);
    expect(() => normalizePluginOptions({ requireEval: 'yes' } as never)).toThrow(/requireEval/);
    expect(() => normalizePluginOptions({ operationalTargets: 'yes' } as never)).toThrow(
      /`operationalTargets` must be true or false/,
    );
    // The benchmark gate of tool-shipped is mandatory: the old opt-in is an unknown option now.
    expect(() => normalizePluginOptions({ requireBench: true } as never)).toThrow(/unknown option.*requireBench/);
    expect(() => normalizePluginOptions({ evalRecordings: '../recordings' })).toThrow(/evalRecordings/);
    expect(() => normalizePluginOptions({ evalRecordings: 'x/{projectRoot}/y' })).toThrow(/evalRecordings/);
  });

  it('keeps the eval options: requireEval, and evalRecordings with {projectRoot} and {projectName} in it', () => {
    expect(normalizePluginOptions({ requireEval: true, evalRecordings: './recordings/{projectName}/' })).toMatchObject({
      requireEval: true,
      evalRecordings: 'recordings/{projectName}',
    });
    expect(normalizePluginOptions({ evalRecordings: '{projectRoot}/evals/recordings' }).evalRecordings).toBe(
      '{projectRoot}/evals/recordings',
    );
  });

  it('infers the operational targets only when asked: operationalTargets', () => {
    expect(normalizePluginOptions({}).operationalTargets).toBe(false);
    expect(normalizePluginOptions({ operationalTargets: false }).operationalTargets).toBe(false);
    expect(normalizePluginOptions({ operationalTargets: true }).operationalTargets).toBe(true);
    // It only adds uncached targets: the inference cache and every other target's hash stay as they are.
    expect(normalizePluginOptions({ operationalTargets: true }).hash).toBe(normalizePluginOptions({}).hash);
  });

  it('takes application target names apart from the agent ones, checked the same way', () => {
    // An application's `plan` and an agent's `plan` never share a project, so they may share a name.
    expect(normalizePluginOptions({ applicationTargetNames: { execute: 'run-app' } }).applicationTargetNames).toEqual({
      plan: 'plan',
      execute: 'run-app',
      check: 'check',
    });
    expect(() => normalizePluginOptions({ applicationTargetNames: { check: 'plan' } })).toThrow(
      /applicationTargetNames.*same name/,
    );
    expect(() => normalizePluginOptions({ applicationTargetNames: { compile: 'x' } as never })).toThrow(
      /applicationTargetNames\.compile.*allowed: plan, execute, check/,
    );
    expect(() => normalizePluginOptions({ applicationTargetNames: { plan: 'no spaces' } })).toThrow(
      /applicationTargetNames\.plan/,
    );
    expect(() => normalizePluginOptions({ applicationTargetNames: ['plan'] as never })).toThrow(
      /applicationTargetNames.*must be an object/,
    );
  });

  it('knows its own version from package.json', () => {
    expect(PLUGIN_VERSION).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
  });
});

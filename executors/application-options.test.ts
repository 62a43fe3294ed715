/** The options the application executors hand their operation (each as given, `input` a list), and their option schemas. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApplicationProject } from '../plugin/graph/application-project';
import { normalizePluginOptions } from '../plugin/graph/options';
import { checkApplicationOptions } from './application-options';

describe('checkApplicationOptions', () => {
  it('passes each set option as it is (input as a list), and leaves out the unset ones', () => {
    expect(
      checkApplicationOptions('apps/a/application.json', [
        ['mode', 'live'],
        ['input', ['q.value={"a":1,"b":"x=y"}', 'r.value="--mode=live"']],
        ['key', undefined],
        ['format', 'json'],
      ]),
    ).toEqual({
      manifest: 'apps/a/application.json',
      values: { mode: 'live', input: ['q.value={"a":1,"b":"x=y"}', 'r.value="--mode=live"'], format: 'json' },
    });
    expect(checkApplicationOptions('application.yaml', [['artifacts', undefined]])).toEqual({
      manifest: 'application.yaml',
      values: {},
    });
    expect(checkApplicationOptions('a.json', [['input', 'q.value=1']])).toEqual({
      manifest: 'a.json',
      values: { input: ['q.value=1'] },
    });
  });

  it('never reads a value or the manifest as a flag', () => {
    expect(checkApplicationOptions('--mode=live', [['key', '--format=json']])).toEqual({
      manifest: '--mode=live',
      values: { key: '--format=json' },
    });
  });

  it('names the problem with a missing manifest, a value that is not a string, or one the option does not take', () => {
    expect(checkApplicationOptions(undefined, [])).toEqual({ problem: 'the "manifest" option is required' });
    expect(checkApplicationOptions('', [])).toEqual({ problem: 'the "manifest" option is required' });
    expect(checkApplicationOptions('a.json', [['key', 42]])).toEqual({
      problem: 'the "key" option must be a string, not 42',
    });
    expect(checkApplicationOptions('a.json', [['key', ['a', 'b']]])).toEqual({
      problem: 'the "key" option must be a string, not ["a","b"]',
    });
    expect(checkApplicationOptions('a.json', [['input', ['a.b=1', true]]])).toEqual({
      problem: 'the "input" option must be a string, not true',
    });
    expect(checkApplicationOptions('a.json', [['mode', '--format=json']])).toEqual({
      problem: '--mode "--format=json" is not allowed. It must be one of dry-run, live',
    });
    expect(checkApplicationOptions('a.json', [['format', 'jsno']])).toEqual({
      problem: '--format "jsno" is not allowed: did you mean "json"? It must be one of text, json',
    });
  });
});

describe('the application executor schemas', () => {
  const schema = (name: string) =>
    JSON.parse(readFileSync(join(__dirname, name, 'schema.json'), 'utf8')) as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { enum?: string[]; default?: unknown }>;
    };

  it('require the manifest, take the flags their CLI subcommand takes, and nothing else', () => {
    expect(Object.keys(schema('application-plan').properties)).toEqual([
      'manifest',
      'mode',
      'format',
      'artifacts',
      'host',
    ]);
    expect(Object.keys(schema('application-execute').properties)).toEqual([
      'manifest',
      'mode',
      'input',
      'inputs',
      'key',
      'expect',
      'format',
      'artifacts',
      'host',
      'ledger',
    ]);
    expect(Object.keys(schema('application-check').properties)).toEqual(['manifest', 'artifacts', 'host', 'inputs']);
    for (const name of ['application-plan', 'application-execute', 'application-check']) {
      expect(schema(name).required, name).toEqual(['manifest']);
      expect(schema(name).additionalProperties, name).toBe(false);
    }
    for (const name of ['application-plan', 'application-execute'])
      expect(schema(name).properties.mode).toMatchObject({ enum: ['dry-run', 'live'], default: 'dry-run' });
  });

  it('accept every option the inferred targets set', () => {
    const project = buildApplicationProject(
      { file: 'a/application.json', root: 'a', summary: { agents: [], parsed: true } },
      [],
      normalizePluginOptions({}),
      '/ws',
      'agentdefDefinition',
    );
    for (const target of Object.values(project.targets)) {
      const name = target.executor!.replace('agentdef:', '');
      for (const option of Object.keys(target.options))
        expect(Object.keys(schema(name).properties), `${name} ${option}`).toContain(option);
    }
  });
});

/** The argument list the application executors hand the CLI (flags as `--name=value`, the manifest last), and their option schemas. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApplicationProject } from '../plugin/graph/application-project';
import { normalizePluginOptions } from '../plugin/graph/options';
import { applicationArgv } from './application-cli';

describe('applicationArgv', () => {
  it('passes each set option as one --name=value flag (a list repeats it), and the manifest last', () => {
    expect(
      applicationArgv('execute', 'apps/a/application.json', [
        ['mode', 'live'],
        ['input', ['q.value={"a":1,"b":"x=y"}', 'r.value="--mode=live"']],
        ['key', undefined],
        ['format', 'json'],
      ]),
    ).toEqual(['application', 'execute', '--mode=live', '--input=q.value={"a":1,"b":"x=y"}', '--input=r.value="--mode=live"', '--format=json', 'apps/a/application.json']);
    expect(applicationArgv('check', 'application.yaml', [['artifacts', undefined]])).toEqual(['application', 'check', 'application.yaml']);
  });

  it('never lets a value or the manifest be read as a flag', () => {
    expect(applicationArgv('plan', '--mode=live', [['mode', '--format=json']])).toEqual(['application', 'plan', '--mode=--format=json', './--mode=live']);
  });

  it('names the problem with a missing manifest or a value that is not a string', () => {
    expect(applicationArgv('plan', undefined, [])).toEqual({ problem: 'the "manifest" option is required' });
    expect(applicationArgv('plan', '', [])).toEqual({ problem: 'the "manifest" option is required' });
    expect(applicationArgv('execute', 'a.json', [['key', 42]])).toEqual({ problem: 'the "key" option must be a string, not 42' });
    expect(applicationArgv('execute', 'a.json', [['input', ['a.b=1', true]]])).toEqual({ problem: 'the "input" option must be a string, not true' });
  });
});

describe('the application executor schemas', () => {
  const schema = (name: string) =>
    JSON.parse(readFileSync(join(__dirname, name, 'schema.json'), 'utf8')) as { required: string[]; additionalProperties: boolean; properties: Record<string, { enum?: string[]; default?: unknown }> };

  it('require the manifest, take the flags their CLI subcommand takes, and nothing else', () => {
    expect(Object.keys(schema('application-plan').properties)).toEqual(['manifest', 'mode', 'format', 'artifacts', 'host']);
    expect(Object.keys(schema('application-execute').properties)).toEqual(['manifest', 'mode', 'input', 'inputs', 'key', 'expect', 'format', 'artifacts', 'host', 'ledger']);
    expect(Object.keys(schema('application-check').properties)).toEqual(['manifest', 'artifacts', 'host', 'inputs']);
    for (const name of ['application-plan', 'application-execute', 'application-check']) {
      expect(schema(name).required, name).toEqual(['manifest']);
      expect(schema(name).additionalProperties, name).toBe(false);
    }
    for (const name of ['application-plan', 'application-execute']) expect(schema(name).properties.mode).toMatchObject({ enum: ['dry-run', 'live'], default: 'dry-run' });
  });

  it('accept every option the inferred targets set', () => {
    const project = buildApplicationProject({ file: 'a/application.json', root: 'a', summary: { agents: [], parsed: true } }, [], normalizePluginOptions({}), '/ws', 'agentdefDefinition');
    for (const target of Object.values(project.targets)) {
      const name = target.executor!.replace('agentdef:', '');
      for (const option of Object.keys(target.options)) expect(Object.keys(schema(name).properties), `${name} ${option}`).toContain(option);
    }
  });
});

/**
 * Application manifests and the agent commands:
 * - `agentdef validate` checks an application manifest (application.json / .yaml, or another name
 *   whose schemaVersion says so) as an application, with the application layer's located
 *   diagnostics, and finds manifests when it walks a folder;
 * - `agentdef compile` and `agentdef plan` answer a manifest with one error naming the command that
 *   takes it, exit 2 (the file is fine, the command is the wrong one: a usage error), writing nothing.
 * Before, each printed 22 AgentDefinition schema errors (exit 1), and `validate <dir>` skipped manifests.
 */
// validate loads the application layer with Node's require (see require-typescript.ts).
import '../../../executors/__test-support__/require-typescript';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as yamlStringify } from 'yaml';
import { runCompileCommand } from './compile';
import { runPlanCommand } from './plan';
import { captureRun, copyExamplesWorkspace } from './test-support';
import { runValidateCommand } from './validate';

const MANIFEST = 'examples/applications/release-brief/application.json';
let root: string;
beforeAll(() => {
  root = copyExamplesWorkspace('agentdef-validate-apps-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const validate = (argv: string[]) => captureRun(runValidateCommand, argv, root);

describe('agentdef validate on application manifests', () => {
  it('validates a manifest as an application: valid, exit 0, no agent-schema diagnostics', async () => {
    const result = await validate([MANIFEST]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('1 application manifest checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n');
    expect(result.code).toBe(0);
  });

  it('walks folders for manifests too, and counts them apart from definitions', async () => {
    const result = await validate(['examples']);
    const definitions = readdirSync(join(root, 'examples')).filter(
      (name) =>
        existsSync(join(root, 'examples', name, 'agent.json')) ||
        existsSync(join(root, 'examples', name, 'agent.yaml')),
    ).length;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${definitions} definitions and 2 application manifests checked: ${definitions + 2} valid, 0 invalid (0 errors, 0 warnings)\n`,
    );
    const apps = await validate(['examples/applications']);
    expect(apps.stdout).toBe('2 application manifests checked: 2 valid, 0 invalid (0 errors, 0 warnings)\n');
    expect(apps.stderr).toBe('');
  });

  it("reports an invalid manifest's problems located, with the manifest's code and rules, in text and JSON", async () => {
    const text = readFileSync(join(root, MANIFEST), 'utf8').replace('"maxSteps": 8', '"maxSteps": "eight"');
    mkdirSync(join(root, 'apps/broken'), { recursive: true });
    writeFileSync(join(root, 'apps/broken/application.json'), text);
    const result = await validate(['apps/broken/application.json', '--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      valid: boolean;
      diagnostics: { code: string; rule: string; path: string; file: string; line: number; column: number }[];
    };
    expect(report.valid).toBe(false);
    const line = text.split('\n').findIndex((l) => l.includes('"eight"')) + 1;
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        code: 'application_manifest_invalid',
        rule: 'schema',
        path: '/bounds/maxSteps',
        file: 'apps/broken/application.json',
        line,
        column: text.split('\n')[line - 1]!.indexOf('"eight"') + 1,
      }),
    ]);
    const plain = await validate(['apps/broken/application.json']);
    expect(plain.stdout).toContain(
      'error[application_manifest_invalid] schema: `/bounds/maxSteps` must be integer, not a string\n  --> apps/broken/application.json:',
    );
    expect(plain.stdout).not.toContain('agent_definition_invalid');
    expect(plain.stdout).toMatch(/1 application manifest checked: 0 valid, 1 invalid \(1 error, 0 warnings\)\n$/);
  });

  it('recognises a manifest named otherwise by its schemaVersion, in JSON and YAML; a definition named otherwise stays a definition', async () => {
    const value = JSON.parse(readFileSync(join(root, MANIFEST), 'utf8')) as unknown;
    mkdirSync(join(root, 'named'), { recursive: true });
    cpSync(join(root, MANIFEST), join(root, 'named/brief.json'));
    writeFileSync(join(root, 'named/brief.yaml'), yamlStringify(value));
    cpSync(join(root, 'examples/text-stats/agent.json'), join(root, 'named/stats.json'));
    const result = await validate(['named/brief.json', 'named/brief.yaml', 'named/stats.json']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      '1 definition and 2 application manifests checked: 3 valid, 0 invalid (0 errors, 0 warnings)\n',
    );
    expect(result.code).toBe(0);
  });
});

describe('compile and plan on an application manifest', () => {
  it('answer with one error naming `agentdef application plan`, exit 2, and write nothing', async () => {
    mkdirSync(join(root, 'named'), { recursive: true });
    cpSync(join(root, MANIFEST), join(root, 'named/brief.json'));
    for (const file of [MANIFEST, 'named/brief.json']) {
      const shown = file;
      const expected = `error: ${shown} is an application manifest, not an AgentDefinition: an application is planned and executed, not compiled; use \`agentdef application plan ${shown}\`\n`;
      const compiled = await captureRun(runCompileCommand, [file, '--out', 'dist/never'], root);
      expect(compiled).toEqual({ code: 2, stdout: '', stderr: expected });
      const planned = await captureRun(runPlanCommand, [file], root);
      expect(planned).toEqual({ code: 2, stdout: '', stderr: expected });
      const json = await captureRun(runPlanCommand, [file, '--format', 'json'], root);
      expect(json.code).toBe(2);
    }
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});

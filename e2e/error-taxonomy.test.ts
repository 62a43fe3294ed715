/**
 * The error taxonomy (docs/decisions/0008-compile-error-classes.md, docs/reference/error-codes.md):
 * every error a compile refusal reports carries one of the two classes, `agent_definition_invalid`
 * or `runtime_capability_mismatch`, across every invalid fixture, every example planned for every
 * target and the CLI's `compile --format json`; the classes, the other diagnostic codes and the run
 * receipt codes are disjoint; the reference page lists exactly the codes the code defines.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planAgent } from '../plugin/compiler/compile';
import { type Diagnostic, ERROR_CODES } from '../plugin/definition/diagnostic';
import { isRefusalClass, REFUSAL_CLASS_MEANINGS, REFUSAL_CLASSES } from '../plugin/definition/refusal-classes';
import { validateDefinition } from '../plugin/definition/validate-definition-file';
import { KILLED_ERROR_CODE } from '../plugin/hosts/node/killed-receipt';
import { RUNTIME_ERROR_CODES } from '../plugin/runtime/errors';
import { TARGET_OPTIONS } from '../plugin/targets/targets';
import { e2eRoot } from './support/pack';
import { repoRoot, runAgentdef } from './support/run-cli';

const invalidDir = join(repoRoot, 'e2e', 'fixtures', 'invalid');
const expectations = JSON.parse(
  readFileSync(join(repoRoot, 'e2e', 'fixtures', 'invalid.expected.json'), 'utf8'),
) as Record<string, { rule: string; code: string }>;
const examples = readdirSync(join(repoRoot, 'examples'))
  .map((name) =>
    ['agent.json', 'agent.yaml'].map((file) => `examples/${name}/${file}`).find((f) => existsSync(join(repoRoot, f))),
  )
  .filter((file): file is string => file !== undefined);
/** The codes a run receipt's `outcome.errorCode` takes: the runtime's, and the two only a receipt writer sets. */
const RECEIPT_CODES = [...RUNTIME_ERROR_CODES, 'receipt_incomplete', KILLED_ERROR_CODE];

const errorsOf = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity === 'error');
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('compile refusal classes', () => {
  it('are exactly the two the seed names, each with its meaning', () => {
    expect([...REFUSAL_CLASSES]).toEqual(['agent_definition_invalid', 'runtime_capability_mismatch']);
    expect(Object.keys(REFUSAL_CLASS_MEANINGS).sort()).toEqual([...REFUSAL_CLASSES].sort());
  });

  it.each(Object.keys(expectations).filter((file) => expectations[file]!.rule !== 'empty-file'))(
    'every error of the invalid fixture %s carries one class, the one its rule reports',
    (file) => {
      const result = validateDefinition(join(invalidDir, file));
      const errors = errorsOf(result.diagnostics);
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) expect(isRefusalClass(error.code), `${error.rule}: ${error.code}`).toBe(true);
      expect(errors[0]!.code).toBe(expectations[file]!.code);
    },
  );

  it('both classes occur among the invalid fixtures', () => {
    expect(new Set(Object.values(expectations).map((e) => e.code))).toEqual(new Set(REFUSAL_CLASSES));
  });

  it('planning every example for every target refuses only with a class, and a target the tree cannot run on is a runtime_capability_mismatch', async () => {
    const mismatches: string[] = [];
    for (const file of examples)
      for (const target of TARGET_OPTIONS) {
        const result = await planAgent({ file, workspaceRoot: repoRoot, target });
        expect(result.ioError, `${file} --target ${target}`).toBeUndefined();
        for (const error of errorsOf(result.diagnostics)) {
          expect(isRefusalClass(error.code), `${file} --target ${target}: ${error.rule} ${error.code}`).toBe(true);
          if (error.rule === 'runtime-choice') {
            expect(error.code).toBe(ERROR_CODES.runtimeMismatch);
            mismatches.push(`${file} ${target}`);
          }
        }
      }
    // The write-router tree needs a container: a Worker target is refused for the runtime, not the definition.
    expect(mismatches).toContain('examples/write-router/agent.json cloudflare-dynamic-worker');
  });

  it('compile --format json carries the class on each diagnostic and writes nothing', () => {
    const dir = mkdtempSync(join(e2eRoot(), 'error-taxonomy-'));
    cleanup.push(dir);
    const out = join(dir, 'out');
    const run = runAgentdef([
      'compile',
      'examples/write-router/agent.json',
      '--target',
      'cloudflare-dynamic-worker',
      '--out',
      out,
      '--format',
      'json',
    ]);
    expect(run.status).toBe(1);
    const printed = JSON.parse(run.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect(printed.valid).toBe(false);
    expect(printed.diagnostics.map((d) => [d.code, d.rule])).toEqual([
      ['runtime_capability_mismatch', 'runtime-choice'],
    ]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('the error taxonomy', () => {
  it('keeps compile classes, other diagnostic codes and run receipt codes apart', () => {
    const diagnosticCodes = Object.values(ERROR_CODES) as string[];
    for (const code of REFUSAL_CLASSES) expect(diagnosticCodes).toContain(code);
    for (const code of RECEIPT_CODES) expect(diagnosticCodes, code).not.toContain(code);
    expect(new Set(RECEIPT_CODES).size).toBe(RECEIPT_CODES.length);
    // Every code fits the receipt schema's errorCode pattern, so the split is by list, not by shape.
    const pattern = /^[a-z][a-z0-9_]*$/;
    for (const code of [...diagnosticCodes, ...RECEIPT_CODES]) expect(code).toMatch(pattern);
  });

  it('docs/reference/error-codes.md lists exactly these codes, each in its family', () => {
    const page = readFileSync(join(repoRoot, 'docs', 'reference', 'error-codes.md'), 'utf8');
    const section = (heading: string) => {
      const start = page.indexOf(`\n## ${heading}\n`);
      expect(start, heading).toBeGreaterThan(-1);
      const end = page.indexOf('\n## ', start + 1);
      const text = page.slice(start, end === -1 ? undefined : end);
      return [...text.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    };
    expect(section('Compile refusals')).toEqual([...REFUSAL_CLASSES]);
    expect(section('Other diagnostic codes').sort()).toEqual(
      (Object.values(ERROR_CODES) as string[]).filter((code) => !isRefusalClass(code)).sort(),
    );
    expect(section('Run receipt codes')).toEqual(RECEIPT_CODES);
    for (const [code, meaning] of Object.entries(REFUSAL_CLASS_MEANINGS))
      expect(page, code).toContain(`| \`${code}\` | ${meaning} |`);
  });
});

/**
 * `junit.xml` for CI: one `<testsuite>` per cases file, one `<testcase>` per case, one `<failure>`
 * per failed assertion, an `<error>` when the run itself failed, and every assertion (with the
 * grader's reasoning) in `<system-out>`. Model output and case files are hostile text: every
 * string is escaped for XML (`&`, `<`, `>`, quotes; line breaks and tabs in attributes as
 * character references), and characters XML 1.0 cannot carry at all (C0 controls, lone
 * surrogates, U+FFFE/U+FFFF) become U+FFFD. Deterministic: files in load order, cases in order.
 */
import type { CaseResult, RunScore } from './score-case';

/** Characters XML 1.0 allows: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF. */
function xmlChars(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    out += allowed ? ch : '\uFFFD';
  }
  return out;
}

/** Text content; a carriage return as a character reference (a parser would fold CR LF to LF). */
export function xmlText(text: string): string {
  return xmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** An attribute value (double-quoted); line breaks and tabs survive attribute normalisation. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(result: CaseResult, classname: string): string[] {
  const lines = [
    `    <testcase name="${xmlAttribute(result.caseId)}" classname="${xmlAttribute(classname)}" time="${seconds(result.latencyMs)}">`,
  ];
  if (result.error !== undefined)
    lines.push(
      `      <error message="${xmlAttribute(`the run failed: ${result.error.code}`)}" type="${xmlAttribute(result.error.code)}">${xmlText(result.error.message)}</error>`,
    );
  for (const a of result.assertions) {
    if (a.passed) continue;
    const body = a.reasoning !== undefined ? `${a.detail}\n\n${a.grader ?? 'grader'}: ${a.reasoning}` : a.detail;
    lines.push(
      `      <failure message="${xmlAttribute(`${a.id}: ${a.detail}`)}" type="${xmlAttribute(a.type)}">${xmlText(body)}</failure>`,
    );
  }
  const out = result.assertions.map((a) => {
    const head = `${a.passed ? 'PASS' : 'FAIL'} ${a.id} (${a.type}) score ${a.score}: ${a.detail}`;
    return a.reasoning !== undefined ? `${head}\n  ${a.grader ?? 'grader'}: ${a.reasoning}` : head;
  });
  lines.push(`      <system-out>${xmlText(out.join('\n'))}</system-out>`, '    </testcase>');
  return lines;
}

export interface JunitInput {
  definition: { slug: string; version: string };
  results: readonly CaseResult[];
  run: RunScore;
}

export function evalReportJunit(input: JunitInput): string {
  const files: string[] = [];
  const byFile = new Map<string, CaseResult[]>();
  for (const result of input.results) {
    if (!byFile.has(result.file)) {
      byFile.set(result.file, []);
      files.push(result.file);
    }
    byFile.get(result.file)!.push(result);
  }
  const counts = (results: readonly CaseResult[]) => ({
    tests: results.length,
    failures: results.filter((r) => r.error === undefined && !r.passed).length,
    errors: results.filter((r) => r.error !== undefined).length,
    time: seconds(results.reduce((sum, r) => sum + r.latencyMs, 0)),
  });
  const all = counts(input.results);
  const agent = `${input.definition.slug}@${input.definition.version}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(`agentdef eval ${agent}`)}" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" time="${all.time}">`,
  ];
  for (const file of files) {
    const results = byFile.get(file)!;
    const c = counts(results);
    lines.push(
      `  <testsuite name="${xmlAttribute(file)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="0" time="${c.time}">`,
    );
    // Invariants no case scores are reported, not failed: a property CI dashboards show.
    if (input.run.coverage.unscored.length > 0) {
      lines.push('    <properties>');
      for (const index of input.run.coverage.unscoredIndices)
        lines.push(
          `      <property name="unscored-invariant" value="${xmlAttribute(`[${index}] ${input.run.coverage.invariants[index]!.text}`)}"/>`,
        );
      lines.push('    </properties>');
    }
    for (const result of results) lines.push(...testcase(result, `${agent} ${file}`));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

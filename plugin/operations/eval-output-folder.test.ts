/** The eval output folder's guard: only a new, empty or eval-made folder is written; reports replace whole. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BENCH_OUTPUT,
  EVAL_OUTPUT_MARKER,
  claimEvalOutput,
  evalOutputRefusal,
  outputFolderRefusal,
  writeEvalReports,
} from './eval-output-folder';

const root = mkdtempSync(join(__dirname, '.tmp-eval-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `ws-${++n}`);

describe('evalOutputRefusal', () => {
  it('lets eval write a missing folder, an empty one, and one it claimed before', () => {
    const ws = fresh();
    mkdirSync(join(ws, 'dist', 'empty'), { recursive: true });
    expect(evalOutputRefusal(join(ws, 'dist', 'eval', 'x'), ws, 'dist/eval/x')).toBeUndefined();
    expect(evalOutputRefusal(join(ws, 'dist', 'empty'), ws, 'dist/empty')).toBeUndefined();
    const own = join(ws, 'dist', 'own');
    claimEvalOutput(own);
    mkdirSync(join(own, 'build'));
    writeEvalReports(own, { 'eval.json': '{}\n', 'junit.xml': '<x/>\n', 'eval.receipt.json': '{}\n' });
    expect(evalOutputRefusal(own, ws, 'dist/own')).toBeUndefined();
  });

  it('refuses the workspace root, a folder holding it, and either through a symbolic link', () => {
    const ws = fresh();
    mkdirSync(ws, { recursive: true });
    expect(evalOutputRefusal(ws, ws, '.')).toMatch(/is or contains the workspace root/);
    expect(evalOutputRefusal(root, ws, '..')).toMatch(/is or contains the workspace root/);
    symlinkSync(root, join(ws, 'up'));
    expect(evalOutputRefusal(join(ws, 'up'), ws, 'up')).toMatch(/is or contains the workspace root/);
  });

  it('refuses a file, a symbolic link, a folder of files eval did not write, and reports that are links', () => {
    const ws = fresh();
    mkdirSync(join(ws, 'out'), { recursive: true });
    writeFileSync(join(ws, 'file'), 'x');
    expect(evalOutputRefusal(join(ws, 'file'), ws, 'file')).toMatch(/it is a file/);
    symlinkSync(join(ws, 'out'), join(ws, 'link'));
    expect(evalOutputRefusal(join(ws, 'link'), ws, 'link')).toMatch(/symbolic link/);
    // A user's own reports folder: no marker.
    writeFileSync(join(ws, 'out', 'junit.xml'), '<mine/>');
    expect(evalOutputRefusal(join(ws, 'out'), ws, 'out')).toMatch(/did not write \(no \.agentdef-eval marker\)/);
    // Claimed, but holding something else too.
    writeFileSync(join(ws, 'out', EVAL_OUTPUT_MARKER), 'x');
    writeFileSync(join(ws, 'out', 'notes.txt'), 'mine');
    expect(evalOutputRefusal(join(ws, 'out'), ws, 'out')).toMatch(
      /holds notes\.txt, which agentdef eval did not write/,
    );
    rmSync(join(ws, 'out', 'notes.txt'));
    // A report that is a link out of the folder would be written through.
    rmSync(join(ws, 'out', 'junit.xml'));
    writeFileSync(join(ws, 'target'), 'precious');
    symlinkSync(join(ws, 'target'), join(ws, 'out', 'junit.xml'));
    expect(evalOutputRefusal(join(ws, 'out'), ws, 'out')).toMatch(/junit\.xml is not a file agentdef eval wrote/);
    expect(readFileSync(join(ws, 'target'), 'utf8')).toBe('precious');
  });
});

describe('the bench-tool output folder', () => {
  it("is guarded the same way, with bench-tool's own marker and report", () => {
    const ws = fresh();
    const out = join(ws, 'dist', 'bench', 'x');
    expect(outputFolderRefusal(BENCH_OUTPUT, out, ws, 'dist/bench/x')).toBeUndefined();
    claimEvalOutput(out, BENCH_OUTPUT);
    expect(readdirSync(out)).toEqual(['.agentdef-bench']);
    mkdirSync(join(out, 'build'));
    writeEvalReports(out, { 'tool-benchmark-events.json': '{}\n' });
    expect(outputFolderRefusal(BENCH_OUTPUT, out, ws, 'dist/bench/x')).toBeUndefined();
    // An eval's folder is not bench-tool's, nor the other way round.
    expect(evalOutputRefusal(out, ws, 'dist/bench/x')).toMatch(/no \.agentdef-eval marker/);
    const evalOut = join(ws, 'dist', 'eval', 'x');
    claimEvalOutput(evalOut);
    expect(outputFolderRefusal(BENCH_OUTPUT, evalOut, ws, 'dist/eval/x')).toMatch(
      /^refusing to write the benchmark to dist\/eval\/x: it holds files agentdef bench-tool did not write \(no \.agentdef-bench marker\)/,
    );
    writeFileSync(join(out, 'eval.json'), '{}');
    expect(outputFolderRefusal(BENCH_OUTPUT, out, ws, 'dist/bench/x')).toMatch(
      /holds eval\.json, which agentdef bench-tool did not write/,
    );
    expect(outputFolderRefusal(BENCH_OUTPUT, ws, ws, '.')).toMatch(/is or contains the workspace root/);
  });
});

describe('writeEvalReports', () => {
  it('replaces each report whole and leaves no temporary file', () => {
    const out = join(fresh(), 'out');
    claimEvalOutput(out);
    writeEvalReports(out, { 'eval.json': 'one\n' });
    writeEvalReports(out, { 'eval.json': 'two\n' });
    expect(readFileSync(join(out, 'eval.json'), 'utf8')).toBe('two\n');
    expect(readdirSync(out).sort()).toEqual([EVAL_OUTPUT_MARKER, 'eval.json']);
  });
});

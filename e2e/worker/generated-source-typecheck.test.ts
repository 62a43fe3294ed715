/**
 * The generated `src/` (and the loader's entry, and the example tools it imports) type-checks
 * with `tsc --noEmit` against `@cloudflare/workers-types` and no DOM lib: the Worker's own types.
 * The portable runtime and the Worker host glue are seen through their declaration files (emitted
 * first with the repository's compiler settings), as a package's consumers see them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLoaderEntry } from '../../plugin/targets/cloudflare-dynamic-worker/generate-source';
import { compileWorker, exampleWorkspace, repoRoot, type ExampleWorkspace } from './support/example-workspace';
import { HUNG_CHILD_MS } from '../support/hung-child';

const TSC = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const GLUE = 'plugin/hosts/worker/index';
const SLUGS = ['text-stats', 'text-digest', 'web-summarizer', 'fallback-writer'];

let ws: ExampleWorkspace;
let declarations: string;

function tsc(project: string, ...extra: string[]) {
  const run = spawnSync(process.execPath, [TSC, '-p', project, ...extra], { encoding: 'utf8', timeout: HUNG_CHILD_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeAll(async () => {
  ws = exampleWorkspace('typecheck');
  declarations = join(ws.root, 'declarations');
  writeFileSync(
    join(ws.root, 'tsconfig.declarations.json'),
    JSON.stringify({
      extends: join(repoRoot, 'tsconfig.base.json'),
      compilerOptions: {
        declaration: true,
        emitDeclarationOnly: true,
        noEmit: false,
        outDir: declarations,
        rootDir: repoRoot,
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules', '@types')],
      },
      files: [join(repoRoot, 'plugin/runtime/index.ts'), join(repoRoot, `${GLUE}.ts`)],
    }),
  );
  // --noCheck: the declarations only (e2e/typecheck.test.ts checks the sources they come from).
  const emitted = tsc(join(ws.root, 'tsconfig.declarations.json'), '--noCheck');
  expect(emitted.status, emitted.output).toBe(0);
  for (const slug of SLUGS) {
    const compiled = await compileWorker(ws.root, slug);
    expect(compiled.result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  }
  mkdirSync(join(ws.root, 'loader'), { recursive: true });
  const loader = generateLoaderEntry();
  writeFileSync(join(ws.root, 'loader', loader.path), loader.contents);
  writeFileSync(
    join(ws.root, 'loader', 'host-plan.json'),
    (await compileWorker(ws.root, 'text-digest')).files.get('host-plan.json')!,
  );
});
afterAll(() => ws.remove());

function checkConfig(include: string[]): string {
  const path = join(ws.root, `tsconfig.check-${include.length}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'es2022',
        moduleResolution: 'bundler',
        lib: ['es2023'],
        types: ['@cloudflare/workers-types'],
        typeRoots: [join(repoRoot, 'node_modules')],
        strict: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        resolveJsonModule: true,
        isolatedModules: true,
        skipLibCheck: true,
        paths: {
          'agentdef:runtime': [join(declarations, 'plugin/runtime/index.d.ts')],
          'agentdef:worker-host': [join(declarations, `${GLUE}.d.ts`)],
          'agentdef:workspace/*': [join(ws.root, '*')],
        },
      },
      include,
    }),
  );
  return path;
}

describe('the generated Worker source', () => {
  it('type-checks against @cloudflare/workers-types (tsc --noEmit)', () => {
    // Every example tool too, also the ones no Worker example bundles (fs-write, workspace-read).
    const project = checkConfig([
      ...SLUGS.map((slug) => join(ws.root, 'dist/agents', slug, 'src/**/*.ts')),
      join(ws.root, 'loader/*.ts'),
      join(ws.root, 'examples/tools/*.ts'),
    ]);
    const run = tsc(project);
    expect(run.output).toBe('');
    expect(run.status).toBe(0);
    // The program really holds the generated modules, the tools they import and workers-types.
    const files = tsc(project, '--listFilesOnly').output;
    for (const expected of [
      'dist/agents/text-digest/src/index.ts',
      'dist/agents/text-digest/src/isolates/1-text-classify.ts',
      'dist/agents/web-summarizer/src/agents/0-web-summarizer.ts',
      'examples/tools/web-fetch.ts',
      'examples/tools/fs-write.ts',
      'loader/loader.ts',
      '@cloudflare/workers-types/index.d.ts',
    ]) {
      expect(files).toContain(expected);
    }
    expect(files).not.toContain('lib.dom.d.ts');
  });

  it('fails the check when the generated code is wrong (the check can fail)', () => {
    const broken = join(ws.root, 'dist/agents/text-stats/src/broken.ts');
    writeFileSync(broken, 'import { agent } from "./agents/0-text-stats";\nexport const id: number = agent.nodeId;\n');
    const run = tsc(checkConfig([broken]));
    expect(run.status).not.toBe(0);
    expect(run.output).toContain("Type 'string' is not assignable to type 'number'");
  });
});

/**
 * A target is named in its own folder only: outside plugin/targets/ no production file (and no
 * executor or generator schema) spells a target id in a string; everything else derives from the
 * table (plugin/targets/targets.ts). Generated texts (the executor schemas' target descriptions,
 * plugin/targets/schema-texts.ts, held equal to their files by executors/executor-schema-texts.test.ts)
 * are the one exception. First over a fixture tree, then the real one.
 */
import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executorSchemaTexts } from '../../plugin/targets/schema-texts';
import { COMPILE_TARGETS } from '../../plugin/targets/targets';
import { listSources } from './import-graph';
import { TOP_FOLDERS } from './layers';
import { type IdHit, targetIdHits } from './target-ids';

const repoRoot = join(__dirname, '..', '..');
const fixture = join(__dirname, '__fixtures__', 'target-ids');

/** The schema files Nx reads: every executor's and generator's. */
function schemaFiles(root: string): string[] {
  const out: string[] = [];
  for (const top of ['executors', 'generators']) {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(join(root, top), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries)
      if (entry.isDirectory() && existsSync(join(root, top, entry.name, 'schema.json')))
        out.push(`${top}/${entry.name}/schema.json`);
  }
  return out.sort();
}

/** Hits outside a target's own folder and generated files, not counting the generated `texts`. */
function misplaced(root: string, generated: readonly string[]): IdHit[] {
  const files = [...listSources(root, TOP_FOLDERS), ...schemaFiles(root)].filter(
    (file) => !file.startsWith('plugin/targets/') && !file.includes('/generated/'),
  );
  return targetIdHits(root, files, COMPILE_TARGETS).filter((hit) => !generated.includes(hit.text));
}

const shown = (hits: readonly IdHit[]) => hits.map((h) => `${h.file}:${h.line}: ${h.id}`);

describe('target ids', () => {
  it('finds an id spelt in a string literal, a template or a schema, not in a file name, a comment, an import or the target folder', () => {
    expect(shown(misplaced(fixture, ['generated: hb3']))).toEqual([
      'plugin/cli/spells.ts:4: hb3',
      'plugin/cli/spells.ts:5: local-mac',
      'plugin/cli/spells.ts:6: hb3',
      'plugin/cli/spells.ts:8: cloudflare-dynamic-worker',
      'executors/x/schema.json:2: local-mac',
    ]);
  });

  it('the real plugin/, executors/ and generators/ spell none outside plugin/targets/', () => {
    const hits = misplaced(
      repoRoot,
      executorSchemaTexts().map((t) => t.description),
    );
    if (hits.length > 0)
      expect.fail(
        `${hits.length} target id(s) spelt outside plugin/targets/ (derive them from TARGETS):\n${hits.map((h) => `${h.file}:${h.line}: ${h.id} in ${JSON.stringify(h.text.slice(0, 100))}`).join('\n')}`,
      );
    expect(hits).toEqual([]);
  });
});

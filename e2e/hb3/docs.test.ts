/** docs/hb3.md explains every field of both published schemas, and says whose contract it is. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../local/support/host-harness';

type Node = { properties?: Record<string, Node>; items?: Node; oneOf?: Node[]; description?: string };

function fields(node: Node, where: string, out: { name: string; where: string; described: boolean }[] = []) {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    out.push({
      name,
      where: `${where}.${name}`,
      described: typeof child.description === 'string' && child.description.length > 0,
    });
    fields(child, `${where}.${name}`, out);
  }
  if (node.items) fields(node.items, `${where}[]`, out);
  for (const branch of node.oneOf ?? []) fields(branch, where, out);
  return out;
}

describe('docs/hb3.md', () => {
  const doc = readFileSync(join(REPO, 'docs', 'hb3.md'), 'utf8');
  it.each(['hb3-job.v1.schema.json', 'hb3-workflow.v1.schema.json'])(
    'names and the schema describes every field of %s',
    (file) => {
      const schema = JSON.parse(readFileSync(join(REPO, 'plugin', 'schema', file), 'utf8')) as Node;
      const all = fields(schema, file);
      expect(all.length).toBeGreaterThan(20);
      expect(all.filter((f) => !f.described).map((f) => f.where)).toEqual([]);
      const missing = [...new Set(all.map((f) => f.name))].filter(
        (name) => !new RegExp(`\`(?:[A-Za-z[\\]]+\\.)*${name}\``).test(doc),
      );
      expect(missing).toEqual([]);
    },
  );

  it("says plainly that this is agentdef's own contract", () => {
    expect(doc).toContain("**The two files described here are agentdef's own contract**");
  });
});

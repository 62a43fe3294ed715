/** A compile plan as a table people read (the CLI's and the executors' text output). Pure. */
import { describeHosts } from '../definition/runtime-hosts';
import type { CompilePlan } from './plan';

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function formatPlanText(plan: CompilePlan): string {
  const { runtime } = plan;
  const nodeName = new Map(plan.nodes.map((n) => [n.id, `${n.slug}@${n.version}`]));
  const lines = [
    `plan ${plan.planVersion} for ${plan.root.slug}@${plan.root.version}`,
    `digest  ${plan.digest}`,
    `runtime ${runtime.declaredClass} -> ${runtime.chosenClass}: target ${runtime.target} (allowed: ${describeHosts(runtime.hosts)})`,
    ...(plan.target !== runtime.target ? [`target  ${plan.target} (asked for)`] : []),
    `reason  ${runtime.reason}`,
    '',
    'nodes',
    ...table([
      ['  NODE', 'DEPTH', 'SOURCE', 'CLASS', 'QUARANTINE', 'DIGEST', 'FILE'],
      ...plan.nodes.map((n) => [
        `  ${'  '.repeat(n.depth)}${n.slug}@${n.version}`,
        String(n.depth),
        n.source,
        n.runtimeCapabilityClass,
        n.quarantine ? 'yes' : 'no',
        n.digest.slice(0, 12),
        n.file,
      ]),
    ]),
  ];
  if (runtime.constraints.length > 0) {
    lines.push(
      '',
      'constraints',
      ...table([
        ['  NODE', 'ELEMENT', 'HOSTS', 'REASON'],
        ...runtime.constraints.map((c) => [`  ${c.node}`, c.element, c.hosts.join(',') || '-', c.reason]),
      ]),
    );
  }
  if (plan.edges.length > 0) {
    lines.push(
      '',
      'edges',
      ...plan.edges.map((e) =>
        e.kind === 'pin'
          ? `  ${nodeName.get(e.from) ?? e.from} pins ${nodeName.get(e.to) ?? e.to}`
          : `  ${nodeName.get(e.from) ?? e.from} -> ${nodeName.get(e.to) ?? e.to}${e.gate ? ` (${e.gate})` : ''} within ${nodeName.get(e.within) ?? e.within}`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

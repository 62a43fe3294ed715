// The main job: everything agentdef does, end to end, on the example agents.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'agentdef.cjs');
const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function step(title, shown, args) {
  process.stdout.write(`\n== ${title}\n$ ${shown}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    process.stderr.write(`\nmain job failed at: ${title}\n`);
    process.exit(result.status ?? 1);
  }
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, i) => String(cell).padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

step('Validate every example definition', 'agentdef validate examples', [cli, 'validate', 'examples']);
step(
  'Compile every example agent for its chosen target (Nx, cached, one batch process)',
  'nx run-many -t compile --batch',
  [nx, 'run-many', '-t', 'compile', '--batch', '--output-style=static'],
);

process.stdout.write('\n== Compile summary\n');
const rows = [['AGENT', 'DECLARED CLASS', 'CHOSEN RUNTIME', 'TARGET', 'REASON', 'OUTPUT']];
const outputs = join(root, 'dist', 'agents');
for (const slug of readdirSync(outputs).sort()) {
  const planFile = join(outputs, slug, 'plan.json');
  if (!existsSync(planFile)) continue;
  const plan = JSON.parse(readFileSync(planFile, 'utf8'));
  const rootKey = `${plan.root.slug}@${plan.root.version}`;
  const own = plan.runtime.constraints.find(
    (c) => c.node === rootKey && c.element === '/runtimeRequirements/runtimeCapabilityClass',
  );
  const forcing = plan.runtime.constraints.find((c) => own && !c.hosts.includes(own.hosts[0]));
  const reason = forcing ? `${forcing.node}: ${forcing.reason.split(':')[0]}` : 'the declared class';
  rows.push([
    `${plan.root.slug}@${plan.root.version}`,
    plan.runtime.declaredClass,
    plan.runtime.chosenClass,
    plan.target,
    reason.length > 90 ? `${reason.slice(0, 87)}...` : reason,
    `dist/agents/${slug}`,
  ]);
}
process.stdout.write(table(rows));

step(
  'Compile a Worker-class example for HB3 as well',
  'agentdef compile examples/fallback-writer/agent.json --target hb3 --out dist/hb3/fallback-writer',
  [cli, 'compile', 'examples/fallback-writer/agent.json', '--target', 'hb3', '--out', 'dist/hb3/fallback-writer'],
);
step(
  'Compile a container agent for Kubernetes: the HB3 image contract plus a Deployment, Service, NetworkPolicy and kustomization',
  'agentdef compile examples/write-router/agent.json --target kubernetes --out dist/kubernetes/write-router',
  [
    cli,
    'compile',
    'examples/write-router/agent.json',
    '--target',
    'kubernetes',
    '--out',
    'dist/kubernetes/write-router',
  ],
);
step(
  'The Kubernetes deploy dry run: the image to build, the Secrets to create (names and keys only), kubectl apply -k',
  'agentdef deploy dist/kubernetes/write-router --dry-run',
  [cli, 'deploy', 'dist/kubernetes/write-router', '--dry-run'],
);
step(
  'Two replicas of the HB3 job share their A2A tasks in PostgreSQL: sent to one, listed and read through the other',
  'node scripts/run-replicas-example.mjs dist/hb3/fallback-writer',
  [join(root, 'scripts', 'run-replicas-example.mjs'), 'dist/hb3/fallback-writer'],
);
step(
  'For a Worker, an HB3 job, a local launcher and a hybrid leaf (its route and verdicts): agentdef dev, agentdef ask, the deploy dry run, Ctrl-C',
  'node scripts/run-dev-ask-examples.mjs --worker dist/agents/text-digest --hb3 dist/hb3/fallback-writer --local dist/agents/local-notes --hybrid dist/agents/support-triage',
  [
    join(root, 'scripts', 'run-dev-ask-examples.mjs'),
    '--worker',
    'dist/agents/text-digest',
    '--hb3',
    'dist/hb3/fallback-writer',
    '--local',
    'dist/agents/local-notes',
    '--hybrid',
    'dist/agents/support-triage',
  ],
);
step(
  'Plan and dry-run execute an example application through `agentdef mcp` (the official MCP client)',
  'node scripts/run-application-example.mjs examples/applications/release-brief/application.json --artifacts examples/applications/approved-artifacts --inputs examples/applications/release-brief/inputs.json',
  [
    join(root, 'scripts', 'run-application-example.mjs'),
    'examples/applications/release-brief/application.json',
    '--artifacts',
    'examples/applications/approved-artifacts',
    '--inputs',
    'examples/applications/release-brief/inputs.json',
  ],
);
step(
  'Publish one example agent to a scratch registry and verify its signed card and AgentFacts credential',
  'node scripts/run-trust-example.mjs examples/text-stats/agent.json --worker-url https://text-stats.example.workers.dev',
  [
    join(root, 'scripts', 'run-trust-example.mjs'),
    'examples/text-stats/agent.json',
    '--worker-url',
    'https://text-stats.example.workers.dev',
  ],
);
step(
  "Score the hybrid leaf's eval cases (agentdef eval: invariants as scores, replayed models and grader) and verify the signed eval receipt",
  'node scripts/run-eval-example.mjs examples/support-triage',
  [join(root, 'scripts', 'run-eval-example.mjs'), 'examples/support-triage'],
);
step(
  'Export an OASF record for every example agent (skills and domains mapped to OASF taxonomy ids, validated against the OASF definitions)',
  'node scripts/run-oasf-examples.mjs examples',
  [join(root, 'scripts', 'run-oasf-examples.mjs'), 'examples'],
);

// Plans and dry-run executes an example application through `agentdef mcp`, driven as an agent
// host drives it: the official MCP client spawns the stdio server, lists its three tools, reads
// the catalog, plans the manifest and executes the plan it accepted, then prints the plan digest.
// Usage: node scripts/run-application-example.mjs <manifest> --artifacts <folder> --inputs <file>
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [manifestPath, ...flags] = process.argv.slice(2);
const flag = (name) => {
  const at = flags.indexOf(name);
  return at === -1 ? undefined : flags[at + 1];
};
const artifacts = flag('--artifacts');
const inputs = JSON.parse(readFileSync(join(root, flag('--inputs')), 'utf8')).map(({ node, port, value }) => ({
  node,
  port,
  json: JSON.stringify(value),
}));

const client = new Client({ name: 'agentdef-main-job', version: '1.0.0' });
const args = [
  join(root, 'bin', 'agentdef.cjs'),
  'mcp',
  '--workspace',
  root,
  ...(artifacts ? ['--artifacts', artifacts] : []),
];
await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: root, stderr: 'inherit' }));
try {
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  console.log(`tools: ${tools.join(', ')}`);
  const catalog = (await client.callTool({ name: 'agentdef.application.catalog', arguments: {} })).structuredContent;
  console.log(`catalog digest: ${catalog.catalogDigest} (${catalog.components.length} components)`);
  const planned = (
    await client.callTool({ name: 'agentdef.application.plan', arguments: { manifestPath, mode: 'dry-run' } })
  ).structuredContent;
  if (!planned.ok) throw new Error(`the plan was refused:\n${JSON.stringify(planned.diagnostics, null, 2)}`);
  const plan = planned.plan;
  console.log(`plan digest: ${plan.digest}`);
  for (const [i, step] of plan.steps.entries())
    console.log(`  ${i + 1}. ${step.node} (${step.component.id}@${step.component.revision})`);
  const executed = (
    await client.callTool({
      name: 'agentdef.application.execute',
      arguments: {
        manifestPath,
        mode: 'dry-run',
        expectedPlanDigest: plan.digest,
        idempotencyKey: 'main-job-dry-run',
        inputs,
      },
    })
  ).structuredContent;
  if (!executed.ok) throw new Error(`execute was refused: ${executed.refusal}: ${executed.message}`);
  const run = executed.run;
  console.log(
    `dry-run: ${run.status}, ${run.steps.filter((s) => s.status === 'completed').length} of ${run.steps.length} steps, nothing dispatched: ${run.steps.every((s) => !s.dispatched)}`,
  );
  if (run.status !== 'succeeded') throw new Error(`the dry-run stopped: ${JSON.stringify(run.stop)}`);
  for (const [name, value] of Object.entries(run.outputs)) console.log(`  output ${name}: ${JSON.stringify(value)}`);
} finally {
  await client.close();
}

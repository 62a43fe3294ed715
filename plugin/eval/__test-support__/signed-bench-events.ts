/**
 * Signed tool benchmark events for tests that promote to tool-shipped without serving the tool:
 * one ok event per declared tool (`toolInventory`), for exactly the definition file's current
 * digest, signed with the given key (the promoting key), written where `agentdef bench-tool` writes
 * them (`<workspace>/dist/bench/<slug>/tool-benchmark-events.json`) unless `out` names a file. The
 * gate checks these as it checks bench-tool's: signature, digest, a tool per event.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { definitionDigest } from '../../trust/lifecycle-receipt';
import { BENCH_OUTPUT_ROOT, TOOL_BENCHMARK_EVENTS_FILE } from '../eval-output';
import { buildToolBenchmarkEvents, signToolBenchmarkEvents, toolBenchmarkEventsText } from '../tool-benchmark-events';

interface Definition {
  identity: { slug: string; versionSemver: string; versionId: string };
  capabilityContract?: { skills?: { id: string; tags?: string[] }[] };
  toolInventory: { id: string; name: string }[];
}

/** Writes the signed events for the definition at `workspace`/`file`; the path written. */
export async function writeSignedBenchEvents(
  workspace: string,
  file: string,
  key: { privateJwk: JsonWebKey; kid: string },
  out?: string,
): Promise<string> {
  const definition = JSON.parse(readFileSync(join(workspace, file), 'utf8')) as Definition;
  const skill = definition.capabilityContract?.skills?.[0];
  const unsigned = buildToolBenchmarkEvents({
    definition: {
      slug: definition.identity.slug,
      version: definition.identity.versionSemver,
      versionId: definition.identity.versionId,
      digest: await definitionDigest(definition),
    },
    casesDigest: `sha-256:${'0'.repeat(64)}`,
    runsPerCase: 1,
    events: definition.toolInventory.map((tool, i) => ({
      runId: `01KQXTGGAHPQXPXEVVWRWT${String(i).padStart(4, '0')}`,
      caseId: 'test-support',
      iteration: 1,
      skill: skill?.id ?? 'skill',
      category: skill?.tags?.[0] ?? 'uncategorised',
      tool: tool.id,
      operation: tool.name,
      latencyMs: 1,
      ok: true,
    })),
  });
  const signed = await signToolBenchmarkEvents(unsigned, key.privateJwk, key.kid);
  const path = out ?? join(workspace, BENCH_OUTPUT_ROOT, definition.identity.slug, TOOL_BENCHMARK_EVENTS_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, toolBenchmarkEventsText(signed));
  return path;
}

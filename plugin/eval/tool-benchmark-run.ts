/**
 * The tool benchmark events of one observed run (ask-case.ts): one event per tool call, in the
 * seed's tool taxonomy. `tool` is the called tool's `toolInventory[].id`, `operation` the name it
 * was called by (`toolInventory[].name`: for an MCP tool, the MCP tool name), `skill` the skill the
 * run served (its run receipt's pinning, else the case's, else the definition's first), `category`
 * that skill's first tag (`uncategorised` when it has none). `latencyMs` is the run's latency as
 * its host measured it (the run receipt's `latencyMs`: a tool-only run is exactly one tool call),
 * else as the client observed it. A run that made no tool call gives no event.
 */
import type { AgentDefinition } from '../schema/generated/agent-definition.types';
import type { ToolBenchmarkEvent } from '../schema/generated/tool-benchmark-events.types';
import type { AskedCase } from './ask-case';

export const UNCATEGORISED = 'uncategorised';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface BenchmarkedRun {
  asked: AskedCase;
  caseId: string;
  /** 1-based: which run of the case. */
  iteration: number;
  /** The skill the case asked for, when it named one. */
  caseSkill?: string;
}

export function toolBenchmarkEventsOfRun(
  definition: Pick<AgentDefinition, 'capabilityContract' | 'toolInventory'>,
  run: BenchmarkedRun,
): ToolBenchmarkEvent[] {
  const { observation, receipt } = run.asked;
  const pinning = isRecord(receipt?.['pinning']) ? receipt['pinning'] : {};
  const skills = definition.capabilityContract.skills;
  const skillId =
    (typeof pinning['skill'] === 'string' && pinning['skill'] !== '' ? pinning['skill'] : undefined) ??
    run.caseSkill ??
    skills[0]?.id ??
    'default';
  const tags = skills.find((s) => s.id === skillId)?.tags ?? [];
  const category = tags[0] ?? UNCATEGORISED;
  const hostLatency = receipt?.['latencyMs'];
  const latencyMs =
    typeof hostLatency === 'number' && Number.isInteger(hostLatency) && hostLatency >= 0
      ? hostLatency
      : observation.latencyMs;
  return observation.toolCalls.map((call) => {
    const tool = definition.toolInventory.find((t) => t.name === call.name) ??
      definition.toolInventory.find((t) => t.id === call.name) ?? { id: call.name, name: call.name };
    return {
      ...(observation.runId !== undefined ? { runId: observation.runId } : {}),
      caseId: run.caseId,
      iteration: run.iteration,
      skill: skillId,
      category,
      tool: tool.id,
      operation: tool.name,
      latencyMs,
      ok: call.ok,
      ...(!call.ok ? { errorCode: call.errorCode ?? observation.error?.code ?? 'tool_failed' } : {}),
    };
  });
}

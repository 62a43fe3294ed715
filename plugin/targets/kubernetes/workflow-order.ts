/**
 * The order of a workflow's steps (hb3-workflow.json) as plain Kubernetes can carry it: it has no
 * Job DAG, so each step's Job gets a number (its place in a topological order of the steps'
 * `dependsOn`, ties kept in the workflow's own plan order) and its dependencies as an annotation.
 */

/** The part of an `hb3-workflow.json` step the manifests read. */
export interface WorkflowStep {
  id: string;
  name: string;
  agent: string;
  parent: string;
  isolation: 'job' | 'in-process';
  job?: string;
  runsIn?: string;
  dependsOn: { step: string; gate: string; condition?: { pointer: string; equals: unknown } }[];
}

/** The steps, each after every step it depends on; among steps free at once, the earlier in plan order first. */
export function orderedSteps(steps: readonly WorkflowStep[]): WorkflowStep[] {
  const ids = new Set(steps.map((s) => s.id));
  const done = new Set<string>();
  const out: WorkflowStep[] = [];
  while (out.length < steps.length) {
    const next = steps.find((s) => !done.has(s.id) && s.dependsOn.every((d) => done.has(d.step) || !ids.has(d.step)));
    // A cycle cannot pass the compiler (a dag); keep the rest in plan order rather than loop.
    const step = next ?? steps.find((s) => !done.has(s.id))!;
    done.add(step.id);
    out.push(step);
  }
  return out;
}

/** `01`, `02`, …: a step's number, as wide as the largest. */
export function stepNumber(index: number, count: number): string {
  return String(index + 1).padStart(Math.max(2, String(count).length), '0');
}

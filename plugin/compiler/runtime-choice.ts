/**
 * Chooses the runtime for a resolved tree. The root's declared class dispatches; the strictest
 * requirement anywhere in the tree wins: the hosts of every model pin and tool of every node, and
 * every child's own declared class, are intersected with the root class's hosts, and the first
 * host left in the root class's order of preference is chosen. The host sets come from
 * `definition/runtime-hosts.ts`, the table the single-file rule reads too.
 */
import { ERROR_CODES, type Diagnostic } from '../definition/diagnostic';
import {
  ALL_HOSTS,
  CLASS_TARGET_HOSTS,
  HOST_CLASS,
  describeHosts,
  intersectHosts,
  pinHosts,
  toolHosts,
  type Host,
  type RuntimeCapabilityClass,
} from '../definition/runtime-hosts';
import { locateFinding } from '../definition/validate-definition';
import type { ResolvedNode } from './resolve';
import { hostOf, targetForHost, type CompileTarget } from '../targets/targets';

export interface RuntimeConstraint {
  /** `slug@version` of the node the requirement comes from. */
  node: string;
  /** JSON Pointer of the requiring element in that node's definition, e.g. `/modelSet/0`. */
  element: string;
  /** The hosts the element allows. */
  hosts: Host[];
  reason: string;
}

export interface RuntimeChoice {
  declaredClass: RuntimeCapabilityClass;
  /** The declared class when its first choice of host held; otherwise the strict class of the chosen host. */
  chosenClass: RuntimeCapabilityClass;
  target: CompileTarget;
  /** Every host the whole tree allows, in the root class's order of preference (the first is chosen). */
  hosts: Host[];
  reason: string;
  /** The requirements that narrow the choice (the root's class first), in tree order. */
  constraints: RuntimeConstraint[];
}

export interface RuntimeChoiceResult {
  choice?: RuntimeChoice;
  diagnostics: Diagnostic[];
}

interface LocatedConstraint extends RuntimeConstraint {
  /** Where in the ROOT file the constraint enters the tree: the root's own element, or the pin of its top-level ancestor. */
  via: string;
}

const classPointer = '/runtimeRequirements/runtimeCapabilityClass';

/** Every host requirement of the tree, in pre-order; per node its model pins, its tools, then (children only) its declared class. */
export function collectConstraints(root: ResolvedNode): LocatedConstraint[] {
  const out: LocatedConstraint[] = [];
  const declared = root.definition.runtimeRequirements.runtimeCapabilityClass;
  out.push({
    node: root.key,
    element: classPointer,
    hosts: [...CLASS_TARGET_HOSTS[declared]],
    reason: `runtimeCapabilityClass "${declared}"`,
    via: classPointer,
  });
  const visit = (node: ResolvedNode, via: string | undefined) => {
    const at = (element: string) => via ?? element;
    node.definition.modelSet.forEach((pin, i) => {
      const need = pinHosts(pin);
      out.push({
        node: node.key,
        element: `/modelSet/${i}`,
        hosts: [...need.hosts],
        reason: need.reason,
        via: at(`/modelSet/${i}`),
      });
    });
    node.definition.toolInventory.forEach((tool, i) => {
      const need = toolHosts(tool);
      out.push({
        node: node.key,
        element: `/toolInventory/${i}`,
        hosts: [...need.hosts],
        reason: need.reason,
        via: at(`/toolInventory/${i}`),
      });
    });
    if (via !== undefined) {
      const cls = node.definition.runtimeRequirements.runtimeCapabilityClass;
      out.push({
        node: node.key,
        element: classPointer,
        hosts: [...CLASS_TARGET_HOSTS[cls]],
        reason: `runtimeCapabilityClass "${cls}"`,
        via,
      });
    }
    for (const child of node.children) visit(child, via ?? child.pinPointer ?? classPointer);
  };
  visit(root, undefined);
  return out;
}

const narrows = (c: RuntimeConstraint) => ALL_HOSTS.some((h) => !c.hosts.includes(h));
const explain = (c: RuntimeConstraint) => `${c.node}: ${c.reason}`;

/** Without the root-file location, and once per node and element (a child pinned twice counts once). */
function publicConstraints(constraints: readonly LocatedConstraint[]): RuntimeConstraint[] {
  const seen = new Set<string>();
  const out: RuntimeConstraint[] = [];
  for (const { node, element, hosts, reason } of constraints) {
    const key = `${node}\u0000${element}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ node, element, hosts, reason });
  }
  return out;
}

const unique = (texts: string[]) => [...new Set(texts)];

/** One diagnostic per place in the root file, naming every requirement that enters there. */
function mismatchDiagnostics(
  root: ResolvedNode,
  offenders: LocatedConstraint[],
  lead: string,
  suggestion: string,
): Diagnostic[] {
  const byPlace = new Map<string, LocatedConstraint[]>();
  for (const c of offenders) byPlace.set(c.via, [...(byPlace.get(c.via) ?? []), c]);
  return [...byPlace.entries()].map(([via, group]) =>
    locateFinding(root.document, {
      code: ERROR_CODES.runtimeMismatch,
      rule: 'runtime-choice',
      path: via,
      message: `${lead}: ${unique(group.map(explain)).join('; ')}`,
      suggestion,
    }),
  );
}

export function chooseRuntime(root: ResolvedNode): RuntimeChoiceResult {
  const declaredClass = root.definition.runtimeRequirements.runtimeCapabilityClass;
  const preference = CLASS_TARGET_HOSTS[declaredClass];
  const constraints = collectConstraints(root);
  const [rootClass, ...requirements] = constraints;
  let hosts: Host[] = [...preference];
  for (const c of requirements) hosts = intersectHosts(hosts, c.hosts);

  if (hosts.length === 0) {
    const direct = requirements.filter((c) => intersectHosts(preference, c.hosts).length === 0);
    if (direct.length > 0) {
      return {
        diagnostics: mismatchDiagnostics(
          root,
          direct,
          `${root.key} is ${declaredClass} (${describeHosts(preference)}), which cannot host`,
          `change runtimeCapabilityClass of ${root.key}, or pin children whose models and tools run on ${describeHosts(preference)}`,
        ),
      };
    }
    // No single requirement conflicts with the root's class, but together they leave no host.
    let left: Host[] = [...preference];
    const narrowing: LocatedConstraint[] = [];
    for (const c of requirements) {
      const next = intersectHosts(left, c.hosts);
      if (next.length < left.length) narrowing.push(c);
      left = next;
      if (left.length === 0) break;
    }
    return {
      diagnostics: mismatchDiagnostics(
        root,
        narrowing,
        `no host satisfies every requirement in the tree of ${root.key} (${declaredClass})`,
        'the requirements named here exclude each other: change one of the pins',
      ),
    };
  }

  const chosen = hosts[0]!;
  const firstChoice = preference[0]!;
  const passedOver = preference.slice(0, preference.indexOf(chosen));
  const excluders = requirements.filter((c) => passedOver.some((h) => !c.hosts.includes(h)));
  const chosenClass = chosen === firstChoice ? declaredClass : HOST_CLASS[chosen];
  const reason =
    excluders.length === 0
      ? `${root.key} is ${declaredClass}; nothing in its tree needs more than ${describeHosts([chosen])}`
      : `${root.key} is ${declaredClass} but runs on ${describeHosts([chosen])} (${chosenClass}): ${unique(excluders.map(explain)).join('; ')}`;
  return {
    choice: {
      declaredClass,
      chosenClass,
      target: targetForHost(chosen),
      hosts,
      reason,
      constraints: publicConstraints([rootClass!, ...requirements.filter(narrows)]),
    },
    diagnostics: [],
  };
}

/**
 * Whether an explicitly requested target can honour the tree: fails closed with
 * `runtime_capability_mismatch` naming every child, pin or tool that forbids the target's host.
 */
export function checkTarget(root: ResolvedNode, target: CompileTarget): Diagnostic[] {
  const host = hostOf(target);
  const constraints = collectConstraints(root);
  const offenders = constraints.filter((c) => !c.hosts.includes(host));
  if (offenders.length === 0) return [];
  const allowed = constraints.reduce<Host[]>(
    (left, c) => intersectHosts(left, c.hosts),
    [...CLASS_TARGET_HOSTS[root.definition.runtimeRequirements.runtimeCapabilityClass]],
  );
  return mismatchDiagnostics(
    root,
    offenders,
    `target "${target}" runs on ${describeHosts([host])}, which the tree of ${root.key} forbids`,
    allowed.length > 0
      ? `compile with --target auto, or --target ${allowed.map((h) => targetForHost(h)).join(' or ')}`
      : 'no target can host this tree: change the pins named here',
  );
}

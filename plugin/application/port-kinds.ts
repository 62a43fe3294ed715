/**
 * The kinds of value that flow along an application's edges, and which output kind an input
 * kind accepts. The lattice is small on purpose and closed:
 *
 *              json            any JSON value: the top
 *           /    |    \
 *       text  artifact  agent-plan
 *
 * - `text`: a string (a prompt, an answer). A string is a JSON value, so `text` flows into `json`.
 * - `artifact`: a reference to an approved external artifact (its digest and public metadata,
 *   never the bytes), as the approved-artifact component produces it.
 * - `agent-plan`: the zero-call plan of one registered agent (digests and public metadata).
 * - `json`: any JSON value. Every kind flows into `json` (a generic output port takes anything);
 *   `json` flows into `json` only, because nothing proves an arbitrary value is a string, an
 *   artifact reference or a plan.
 *
 * No other pair is assignable; `text` never flows into `artifact` or `agent-plan` (a string is not
 * evidence of an approved artifact or a plan), and siblings never convert into each other. A kind
 * outside the lattice (a typo, a future kind, an unreviewed pack's invention) is assignable to
 * nothing and accepts nothing: unknown kinds fail closed.
 */

export const PORT_KINDS = ['json', 'text', 'artifact', 'agent-plan'] as const;

export type PortKind = (typeof PORT_KINDS)[number];

/** Each kind's direct supertype; `json` is the top and has none. */
const SUPERTYPE: Readonly<Record<PortKind, PortKind | undefined>> = {
  json: undefined,
  text: 'json',
  artifact: 'json',
  'agent-plan': 'json',
};

export function isPortKind(kind: unknown): kind is PortKind {
  return typeof kind === 'string' && (PORT_KINDS as readonly string[]).includes(kind);
}

/** Whether a value an output port of kind `from` produces may flow into an input port of kind `to`. */
export function isAssignableKind(from: string, to: string): boolean {
  if (!isPortKind(from) || !isPortKind(to)) return false;
  for (let kind: PortKind | undefined = from; kind !== undefined; kind = SUPERTYPE[kind]) {
    if (kind === to) return true;
  }
  return false;
}

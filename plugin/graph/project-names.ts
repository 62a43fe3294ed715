/**
 * One name per project across everything graph inference infers. An agent project is named by
 * its `identity.slug`, an application project by its `id`; either falls back to its folder's name
 * when the file states none that can be read (so the project, and its failing `validate` or
 * `check`, still shows). Nx refuses the whole graph when two projects share a name, and it keeps
 * projects in plain objects, where a name such as `constructor` or `__proto__` is a built-in
 * property: both are refused here, one project at a time, with a located message saying what to
 * change, and every other project stays.
 *
 * A stated name is claimed before any folder fallback (a broken file never takes the name of an
 * agent that states it), agents before applications, each in the caller's order (by path): the
 * first claim keeps the name. Pure; never throws.
 */
import { basename } from 'node:path';
import type { SourcePosition } from '../definition/source-document';

export interface NameClaim {
  /** Workspace-relative, posix. */
  file: string;
  kind: 'agent' | 'application';
  name: string;
  /** True when the file states the name (slug or id); false for a folder's name. */
  stated: boolean;
  /** Where the stated name stands. */
  at?: SourcePosition;
}

/** The name of a project whose file states none: its folder's (the workspace's own for the root). */
export function folderProjectName(root: string, workspaceRoot: string): string {
  return basename(root === '.' ? workspaceRoot : root);
}

const located = (file: string, at?: SourcePosition) => (at === undefined ? file : `${file}:${at.line}:${at.column}`);

/** Names Nx would read as properties every object has (Object.prototype's, `__proto__` included). */
export function isBuiltInPropertyName(name: string): boolean {
  return name === '__proto__' || Object.hasOwn(Object.prototype, name);
}

/** What names a project of each kind, as a generator's user reads it. */
const NAMED_BY = { agent: "an agent's identity.slug", application: "an application's id" } as const;

/**
 * Why a project a generator is about to create, named `name`, would be refused by graph inference:
 * a name Nx reads as a built-in property, or one an existing project (`holders`) already has.
 * Undefined when the name is free. Pure; never throws.
 */
export function newProjectNameProblem(
  name: string,
  holders: readonly Pick<NameClaim, 'file' | 'kind' | 'name'>[],
): string | undefined {
  if (isBuiltInPropertyName(name))
    return `"${name}" cannot name an Nx project: Nx keeps projects in plain objects, where "${name}" is a property every object has; choose another name`;
  const holder = holders.find((claim) => claim.name === name);
  if (holder === undefined) return undefined;
  return `"${name}" already names the project of ${holder.file} (${NAMED_BY[holder.kind]}); project names are unique in an Nx workspace, so choose another name`;
}

const FIELD = {
  agent: { label: 'identity.slug', pointer: '/identity/slug', what: 'slug' },
  application: { label: 'id', pointer: '/id', what: 'id' },
} as const;

function advice(claim: NameClaim): string {
  const field = FIELD[claim.kind];
  return claim.stated ? `change ${field.pointer}` : `state a valid ${field.what} of its own in ${field.pointer}`;
}

function builtInMessage(claim: NameClaim): string {
  const subject = claim.stated
    ? `${located(claim.file, claim.at)}: ${FIELD[claim.kind].label} "${claim.name}"`
    : `${claim.file}: its ${FIELD[claim.kind].what} is unreadable, so its project would be named after its folder, but "${claim.name}"`;
  return `${subject} cannot name an Nx project: Nx keeps projects in plain objects, where "${claim.name}" is a property every object has; ${advice(claim)}`;
}

function takenMessage(claim: NameClaim, holder: NameClaim): string {
  const held = holder.stated
    ? `${located(holder.file, holder.at)} (its ${FIELD[holder.kind].label})`
    : `${holder.file} (named after its folder too)`;
  const subject = claim.stated
    ? `${located(claim.file, claim.at)}: ${FIELD[claim.kind].label} "${claim.name}" already names the project of ${held}`
    : `${claim.file}: its ${FIELD[claim.kind].what} is unreadable, so its project would be named after its folder, "${claim.name}", which already names the project of ${held}`;
  return `${subject}; project names are unique in an Nx workspace, so ${advice(claim)}`;
}

/**
 * The claims that cannot have their name, each with its message (`file` → message). The caller
 * leaves those projects out and reports the messages.
 */
export function refuseProjectNames(claims: readonly NameClaim[]): Map<string, string> {
  const refused = new Map<string, string>();
  const holders = new Map<string, NameClaim>();
  const order = [
    ...claims.filter((c) => c.stated && c.kind === 'agent'),
    ...claims.filter((c) => c.stated && c.kind === 'application'),
    ...claims.filter((c) => !c.stated),
  ];
  for (const claim of order) {
    if (isBuiltInPropertyName(claim.name)) {
      refused.set(claim.file, builtInMessage(claim));
      continue;
    }
    const holder = holders.get(claim.name);
    if (holder === undefined) {
      holders.set(claim.name, claim);
      continue;
    }
    refused.set(claim.file, takenMessage(claim, holder));
  }
  return refused;
}

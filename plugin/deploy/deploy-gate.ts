/**
 * The deploy gate: whether a compile output may be deployed, decided from facts gathered before
 * any deploy side effect (operations/deploy.ts gathers them: plan.json, the live worktree, the
 * registry). Pure: the same facts give the same decision and the same words.
 *
 * The seed's rules: an agentic agent (a model anywhere in the tree, modelSet ≥ 1) MUST be
 * registered, so it deploys only when its exact definition is published in the configured
 * registry (the published snapshot and the compiled definition have the same digest once publish's
 * own stamps are set aside), and every deployed agent traces back to a commit, so it deploys only
 * when its compile stamped a commit from a clean worktree and the worktree is still clean.
 * Tool-only agents are not gated. `--allow-unregistered` (development) turns every refusal into a
 * warning and marks the deployment unregistered.
 */

export interface StampFacts {
  commit: string | null;
  dirty: boolean | null;
  reason?: string;
}

export type PublishedFacts =
  /** The registry holds this slug@version with the same definition digest. */
  | { state: 'same' }
  /** The registry holds this slug@version with other content. */
  | { state: 'other'; publishedDigest: string }
  | { state: 'missing' }
  /** The registry could not be read, or its snapshot is not the one its index records. */
  | { state: 'unreadable'; problem: string };

export interface DeployGateFacts {
  slug: string;
  version: string;
  /** The definition's workspace-relative file (plan.json's root node), for the commands that fix a refusal. */
  definitionFile: string;
  /** The output folder as shown (workspace-relative). */
  outDir: string;
  /** The registry folder as shown (workspace-relative). */
  registryFolder: string;
  /** plan.json's `registration`; undefined when the output predates it (compile again). */
  registration?: { required: boolean; definitionDigest: string };
  /** plan.json's `provenance`: the worktree at compile time. */
  provenance?: StampFacts;
  /** The worktree now. */
  live: StampFacts;
  published: PublishedFacts;
  allowUnregistered: boolean;
}

export type DeployGateDecision =
  | { allowed: true; unregistered: boolean; warnings: string[] }
  | { allowed: false; refusals: string[] };

/** The refusals an agentic output earns (empty when it may deploy). */
function agenticRefusals(facts: DeployGateFacts): string[] {
  const out: string[] = [];
  const { provenance, live, definitionFile: file } = facts;
  const recompile = `then compile again (\`agentdef compile ${file}\`; under Nx \`nx run ${facts.slug}:compile --skip-nx-cache\`)`;
  if (provenance === undefined || provenance.commit === null)
    out.push(
      `${facts.outDir} records no commit (${provenance?.reason ?? 'its plan.json has no provenance'}): every deployed agent traces back to a commit; commit the workspace (\`git add -A && git commit\`), ${recompile}`,
    );
  else if (provenance.dirty !== false)
    out.push(
      `${facts.outDir} was compiled from a worktree with uncommitted changes (at ${provenance.commit}): commit them (\`git add -A && git commit\`), ${recompile}`,
    );
  if (live.dirty === true)
    out.push(
      'the worktree has uncommitted changes now (`git status` lists them): commit them (`git add -A && git commit`) or set them aside (`git stash -u`) before deploying',
    );
  else if (live.dirty === null && live.commit !== null)
    out.push(`whether the worktree is clean is unknown (${live.reason ?? 'git status failed'})`);
  const ref = `${facts.slug}@${facts.version}`;
  const publish = `\`agentdef publish ${file} --registry ${facts.registryFolder}\``;
  const published = facts.published;
  if (published.state === 'missing')
    out.push(
      `${ref} is agentic (it has a model) and is not published in ${facts.registryFolder}: agentic agents must be registered before they deploy; publish it with ${publish}`,
    );
  else if (published.state === 'other')
    out.push(
      `${ref} is published in ${facts.registryFolder} with other content (published ${published.publishedDigest}, compiled ${facts.registration?.definitionDigest ?? 'unknown'}): bump identity.versionSemver and identity.versionId, commit, then publish it with ${publish} and compile again`,
    );
  else if (published.state === 'unreadable')
    out.push(
      `whether ${ref} is published cannot be told: ${published.problem}; fix the registry, or publish with ${publish}`,
    );
  return out;
}

/** Decides whether the output may be deployed (see the header). */
export function deployGate(facts: DeployGateFacts): DeployGateDecision {
  if (facts.registration === undefined)
    return {
      allowed: false,
      refusals: [
        `${facts.outDir}/plan.json records no registration facts (compiled by an older agentdef): compile again (\`agentdef compile ${facts.definitionFile}\`)`,
      ],
    };
  if (!facts.registration.required) return { allowed: true, unregistered: false, warnings: [] };
  const refusals = agenticRefusals(facts);
  if (refusals.length === 0) return { allowed: true, unregistered: false, warnings: [] };
  if (!facts.allowUnregistered) return { allowed: false, refusals };
  return {
    allowed: true,
    unregistered: true,
    warnings: [
      `--allow-unregistered: deploying ${facts.slug}@${facts.version} for development, marked unregistered in its card; in production this deploy is refused:`,
      ...refusals.map((r) => `  ${r}`),
    ],
  };
}

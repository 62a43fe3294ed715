/**
 * The compiler's pipeline, visible in one place:
 *   planAgent:   load → validate → resolve → plan (runtime choice, digest)
 *   emitAgent:   target check → tool modules exist → adapter (plan → files in memory, bundled
 *                through the bundler port) → plan.json → sorted files
 *   compileAgent: planAgent → stamp (commit, dirty tree, registration) → tools.json/mcp.json →
 *                emitAgent → write (guarded, atomic)
 * Takes absolute paths in, puts only workspace-relative names out. Never throws, never prints,
 * never exits: problems come back as diagnostics, or as `ioError` for I/O and option errors.
 */
import { basename, dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { workspacePath } from '../definition/workspace-path';
import { locateFinding } from '../definition/validate-definition';
import { hasErrors, sortDiagnostics, uniqueDiagnostics, type Diagnostic } from '../definition/diagnostic';
import { loadDefinition } from '../definition/load-definition';
import { defaultOutputDir, isApplicationManifest, WORKSPACE_DEFAULTS } from '../definition/workspace-definitions';
import type { RuleOptions } from '../definition/rules/rule';
import { CanonicalJsonError } from './canonical-json';
import type { Bundler } from './bundler';
import { createEsbuildBundler } from './bundle';
import { missingToolModules } from './tool-modules';
import { buildPlan, PLAN_FILE, serializePlan, type CompilePlan } from './plan';
import { FolderRegistry, type AgentRegistry } from '../registry/agent-registry';
import { resolveComposition, type DefinitionCache, type ResolvedNode } from './resolve';
import { checkTarget, chooseRuntime } from './runtime-choice';
import type { AdapterOptions, EmittedFile } from '../targets/target';
import {
  isTargetOption,
  targetFor,
  unknownTargetProblem,
  type CompileTarget,
  type TargetOption,
} from '../targets/targets';
import { loadWorkspaceConfig, type WorkspaceConfig } from './workspace-config';
import type { PinLookup } from './workspace-index';
import { lazyWorkspaceIndex } from './workspace-index-lazy';
import { workspaceRoots } from '../definition/read-source';
import { loadDefinitionKept, type KeptDefinition, type ValidatedDefinitionStore } from './validated-definition-store';
import { writeOutputAtomic, type OutputFs } from './write-output';
import { stampPlan } from './provenance';
import { readSourceStampAsync, type SourceStamp, type SourceStampReader } from './source-stamp';

export interface PlanAgentOptions {
  /** The root definition; relative paths are taken from `workspaceRoot`. */
  file: string;
  /** Absolute workspace root: children are searched below it and every output path is relative to it. */
  workspaceRoot: string;
  /** Registry folder (default `registry/agents`, relative to the workspace root). */
  registryRoot?: string;
  /** A registry to use instead of the folder registry (e.g. an HTTP one). */
  registry?: AgentRegistry;
  /** Validated definitions kept across calls by a long-lived host (see resolve.ts). */
  definitionCache?: DefinitionCache;
  /** Clean validations kept between processes by the caller (validated-definition-store.ts); it saves them. */
  validatedDefinitions?: ValidatedDefinitionStore;
  /**
   * The workspace's definitions, when the caller already has them (`indexWorkspace`). Else, only if
   * the root pins children, the plan reads the workspace's definitions and parses those that may
   * state a pinned slug (workspace-index-lazy.ts).
   */
  index?: PinLookup;
  maxDepth?: number;
  maxNodes?: number;
  ruleOptions?: RuleOptions;
  /**
   * `auto` (the default) plans for the runtime's choice; an explicit target must be one the whole
   * tree allows, else planning fails closed with `runtime_capability_mismatch`.
   */
  target?: TargetOption;
}

export interface CompileAgentOptions extends PlanAgentOptions {
  /** Output folder (default `dist/agents/<slug>`, relative to the workspace root). Replaced as a whole. */
  outDir?: string;
  /** Options for the target's adapter (e.g. the Worker bundle size budget). */
  adapterOptions?: AdapterOptions;
  /** Replaces file-system calls of the writer (tests inject failures). */
  outputFs?: Partial<OutputFs>;
  /** The bundler port (default: esbuild, one per call); a long-lived caller may share one across compiles. */
  bundler?: Bundler;
  /** The source stamp for plan.json (default: git asked in the root definition's folder, source-stamp.ts). */
  source?: SourceStamp;
  /** How the stamp is read when `source` is not given (default `readSourceStampAsync`; a session shares one reader). */
  readSourceStamp?: SourceStampReader;
}

export interface PlanAgentResult {
  plan?: CompilePlan;
  /** The resolved tree the plan was made from (present whenever resolution ran). */
  resolved?: ResolvedNode;
  diagnostics: Diagnostic[];
  /** file → text of every definition read, for printing diagnostics with their source lines. */
  sources: Map<string, string>;
  /** I/O or option problem (CLI exit code 2); no diagnostics are meaningful then. */
  ioError?: string;
}

export interface CompileAgentResult {
  plan?: CompilePlan;
  target?: CompileTarget;
  files?: EmittedFile[];
  /** Where the output was written, workspace-relative, posix. */
  outDir?: string;
  diagnostics: Diagnostic[];
  sources: Map<string, string>;
  ioError?: string;
  /** The adapter's one-line note for the compile summary, when it has one (e.g. the bundle size). */
  summary?: string;
}

function checkBound(name: string, value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Number.isInteger(value) && value >= 1
    ? undefined
    : `${name} must be a whole number of at least 1, not ${String(value)}`;
}

/** A value with no canonical JSON form reached a digest: a located diagnostic (exit 1), not an internal error. */
function unencodable(file: string, error: CanonicalJsonError): Diagnostic {
  return {
    code: 'agent_definition_invalid',
    rule: 'canonical-json',
    severity: 'error',
    path: error.pointer,
    file,
    line: 1,
    column: 1,
    message: error.message,
  };
}

/** What planning (or compiling) an application manifest is answered with: the commands that take one. */
function notAnAgent(file: string): string {
  return `${file} is an application manifest, not an AgentDefinition: an application is planned and executed, not compiled; use \`agentdef application plan ${file}\``;
}

const EMPTY_INDEX: PinLookup = { definitionsOf: () => [], unreadableNamed: () => [] };

export async function planAgent(options: PlanAgentOptions): Promise<PlanAgentResult> {
  const sources = new Map<string, string>();
  if (options.target !== undefined && !isTargetOption(options.target)) {
    return { diagnostics: [], sources, ioError: unknownTargetProblem(String(options.target)) };
  }
  try {
    if (!isAbsolute(options.workspaceRoot))
      return {
        diagnostics: [],
        sources,
        ioError: `workspaceRoot must be an absolute path, not "${options.workspaceRoot}"`,
      };
    const optionProblem = checkBound('maxDepth', options.maxDepth) ?? checkBound('maxNodes', options.maxNodes);
    if (optionProblem) return { diagnostics: [], sources, ioError: optionProblem };

    const absolute = resolvePath(options.workspaceRoot, options.file);
    const file = workspacePath(options.workspaceRoot, absolute);
    if (isApplicationManifest(basename(absolute))) return { diagnostics: [], sources, ioError: notAnAgent(file) };
    // With kept validations (the executors), this plan's reads look each workspace root up once.
    const readRoots = options.validatedDefinitions ? workspaceRoots() : undefined;
    const loaded: KeptDefinition = options.validatedDefinitions
      ? loadDefinitionKept(absolute, file, options.ruleOptions, options.validatedDefinitions, readRoots)
      : options.ruleOptions
        ? loadDefinition(absolute, file, options.ruleOptions)
        : loadDefinition(absolute, file);
    if (loaded.ioError !== undefined) return { diagnostics: [], sources, ioError: loaded.ioError };
    if (!loaded.definition && isApplicationManifest(basename(absolute), loaded.document?.value))
      return { diagnostics: [], sources, ioError: notAnAgent(file) };
    const loadedText = loaded.text ?? loaded.document?.text;
    if (loadedText !== undefined) sources.set(file, loadedText);
    if (!loaded.definition || !loaded.document) return { diagnostics: sortDiagnostics(loaded.diagnostics), sources };

    const registry =
      options.registry ??
      new FolderRegistry({
        workspaceRoot: options.workspaceRoot,
        ...(options.registryRoot !== undefined ? { registryRoot: options.registryRoot } : {}),
      });
    const resolved = await resolveComposition(
      {
        definition: loaded.definition,
        document: loaded.document,
        ...(loaded.digest !== undefined ? { digest: loaded.digest } : {}),
      },
      {
        index:
          options.index ??
          ((loaded.definition.composition.nodes?.length ?? 0) > 0
            ? lazyWorkspaceIndex(options.workspaceRoot)
            : EMPTY_INDEX),
        registry,
        workspaceRoot: options.workspaceRoot,
        maxDepth: options.maxDepth ?? WORKSPACE_DEFAULTS.maxDepth,
        maxNodes: options.maxNodes ?? WORKSPACE_DEFAULTS.maxNodes,
        ...(options.ruleOptions ? { ruleOptions: options.ruleOptions } : {}),
        ...(options.definitionCache ? { definitionCache: options.definitionCache } : {}),
        ...(options.validatedDefinitions ? { validatedDefinitions: options.validatedDefinitions } : {}),
        ...(readRoots ? { readRoots } : {}),
      },
    );
    for (const [name, text] of resolved.sources) sources.set(name, text);
    const diagnostics = sortDiagnostics(uniqueDiagnostics([...loaded.diagnostics, ...resolved.diagnostics]));
    if (hasErrors(diagnostics)) return { resolved: resolved.root, diagnostics, sources };

    const runtime = chooseRuntime(resolved.root);
    if (!runtime.choice)
      return {
        resolved: resolved.root,
        diagnostics: sortDiagnostics([...diagnostics, ...runtime.diagnostics]),
        sources,
      };
    const requested = options.target ?? 'auto';
    if (requested !== 'auto') {
      const mismatch = checkTarget(resolved.root, requested);
      if (mismatch.length > 0)
        return { resolved: resolved.root, diagnostics: sortDiagnostics([...diagnostics, ...mismatch]), sources };
    }
    return {
      plan: buildPlan(resolved.root, runtime.choice, requested === 'auto' ? runtime.choice.target : requested),
      resolved: resolved.root,
      diagnostics,
      sources,
    };
  } catch (error) {
    if (error instanceof CanonicalJsonError)
      return {
        diagnostics: [
          unencodable(workspacePath(options.workspaceRoot, resolvePath(options.workspaceRoot, options.file)), error),
        ],
        sources,
      };
    return { diagnostics: [], sources, ioError: `internal error while planning: ${(error as Error).message}` };
  }
}

export interface EmitInputs {
  /** Absolute workspace root: tool modules named in tools.json are bundled from here. Never written into outputs. */
  workspaceRoot: string;
  /** tools.json and mcp.json, already loaded and checked. */
  workspace: WorkspaceConfig;
  /** Options for the target's adapter (e.g. the Worker bundle size budget). */
  adapterOptions?: AdapterOptions;
  /** The bundler port (default: esbuild, one per call); a long-lived caller may share one across compiles. */
  bundler?: Bundler;
  /**
   * The plan `plan.json` holds when it is known only later (compile stamps the commit while the
   * adapter bundles); awaited once the adapter is done. Default: the plan emitted.
   */
  planFile?: Promise<CompilePlan>;
}

export type EmitAgentResult =
  | { files: EmittedFile[]; summary?: string; diagnostics: Diagnostic[] }
  | { files?: undefined; summary?: undefined; diagnostics: Diagnostic[] };

const byPath = (a: EmittedFile, b: EmittedFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The emit stage, in memory: the plan's target must be one the tree allows (fail closed even when
 * the plan was made elsewhere), the target's adapter turns the plan into files, and the pipeline
 * adds `plan.json` and sorts the files. Writes nothing; never throws.
 */
export async function emitAgent(
  planned: { plan: CompilePlan; resolved: ResolvedNode },
  inputs: EmitInputs,
): Promise<EmitAgentResult> {
  const { plan, resolved } = planned;
  const mismatch = checkTarget(resolved, plan.target);
  if (mismatch.length > 0) return { diagnostics: sortDiagnostics(mismatch) };
  const missing = missingToolModules(resolved, inputs.workspace, inputs.workspaceRoot);
  if (missing.length > 0) return { diagnostics: sortDiagnostics(missing) };
  try {
    const bundler = inputs.bundler ?? createEsbuildBundler({ workspaceRoot: inputs.workspaceRoot });
    const adapter = await targetFor(plan.target).adapter();
    const emitted = await adapter.emit(plan, resolved, {
      workspace: inputs.workspace,
      bundler,
      options: inputs.adapterOptions ?? {},
    });
    if (emitted.diagnostics) return { diagnostics: sortDiagnostics(uniqueDiagnostics(emitted.diagnostics)) };
    const planFile = inputs.planFile ? await inputs.planFile : plan;
    const files = [{ path: PLAN_FILE, contents: serializePlan(planFile) }, ...emitted.files].sort(byPath);
    return { files, diagnostics: [], ...(emitted.summary !== undefined ? { summary: emitted.summary } : {}) };
  } catch (error) {
    return {
      diagnostics: [
        locateFinding(resolved.document, {
          rule: 'emit',
          path: '',
          message: `internal error while emitting for ${plan.target}: ${(error as Error).message}`,
          suggestion: 'this is a bug in agentdef: please report it with the definition',
        }),
      ],
    };
  }
}

/** The whole pipeline: plan, read the workspace's tools.json and mcp.json, emit, then one guarded atomic write. */
export async function compileAgent(options: CompileAgentOptions): Promise<CompileAgentResult> {
  const planned = await planAgent(options);
  const { resolved, diagnostics, sources } = planned;
  if (planned.ioError !== undefined) return { diagnostics, sources, ioError: planned.ioError };
  if (!planned.plan || !resolved) return { diagnostics, sources };
  const definitionPath = resolvePath(options.workspaceRoot, options.file);
  const unstamped = planned.plan;
  // git runs while the workspace is read and the adapter bundles (adapters never read the stamp);
  // plan.json, which holds it, is made last.
  const stamped = (
    options.source !== undefined
      ? Promise.resolve(options.source)
      : (options.readSourceStamp ?? readSourceStampAsync)(dirname(definitionPath), definitionPath)
  ).then((source) => stampPlan(unstamped, resolved, source));
  stamped.catch(() => undefined); // awaited below, whatever comes first

  try {
    const workspace = loadWorkspaceConfig(options.workspaceRoot);
    for (const [file, document] of workspace.config.documents) sources.set(file, document.text);
    if (hasErrors(workspace.diagnostics))
      return { plan: await stamped, diagnostics: sortDiagnostics([...diagnostics, ...workspace.diagnostics]), sources };
    const emitted = await emitAgent(
      { plan: unstamped, resolved },
      {
        workspaceRoot: options.workspaceRoot,
        workspace: workspace.config,
        ...(options.adapterOptions ? { adapterOptions: options.adapterOptions } : {}),
        ...(options.bundler ? { bundler: options.bundler } : {}),
        planFile: stamped,
      },
    );
    const plan = await stamped;
    if (!emitted.files)
      return {
        plan,
        diagnostics: sortDiagnostics(uniqueDiagnostics([...diagnostics, ...emitted.diagnostics])),
        sources,
      };

    const destination = resolvePath(options.workspaceRoot, options.outDir ?? defaultOutputDir(plan.root.slug));
    const outDir = workspacePath(options.workspaceRoot, destination);
    const written = await writeOutputAtomic(destination, emitted.files, {
      workspaceRoot: options.workspaceRoot,
      displayName: outDir,
      ...(options.outputFs ? { fs: options.outputFs } : {}),
    });
    if (!written.ok) return { plan, target: plan.target, diagnostics, sources, ioError: written.error };
    return {
      plan,
      target: plan.target,
      files: emitted.files,
      outDir,
      diagnostics,
      sources,
      ...(emitted.summary !== undefined ? { summary: emitted.summary } : {}),
    };
  } catch (error) {
    return {
      plan: await stamped.catch(() => unstamped),
      diagnostics,
      sources,
      ioError: `internal error while compiling: ${(error as Error).message}`,
    };
  }
}

/**
 * Everything one host process needs around the portable runtime, for the node it serves and the
 * nodes that run inside it (its non-quarantined descendants):
 * 1. the pins' endpoints settled from the environment, and for a local-host-required agent the
 *    check that nothing it reaches is off this machine (its fetch is guarded too);
 * 2. every secret of the subtree read from the secret source (a missing one stops the start);
 * 3. checkpoint folders read and digested, native executables found, Ollama reachable with its
 *    models, the process guard armed with the host's own launches (native tools, stdio MCP
 *    servers, quarantined children), stdio MCP servers started and their tools checked;
 * 4. `RunDeps` per node: secrets, tools (bundled, native, MCP), the receipt sink, and a child
 *    runner: in this process for ordinary children, a fresh process for quarantined ones.
 * A receipt signer `keyref:<name>` resolves through `receiptKeys` (the local key store) first: the
 * node then signs with that key and its receipts' `kid` is the key's RFC 7638 thumbprint; the
 * receipt key secret (keychain / environment) stays the fallback, with the signer ref as kid.
 * Anything started is stopped again when a later step fails, and by `close()`.
 */
import type { ToolHandler } from '../../runtime/agent-loop';
import type { ChildRunner } from '../../runtime/composition';
import type { Receipt, ReceiptSink } from '../../runtime/receipts';
import { deliverReceipt } from '../../runtime/receipts';
import type { RunDeps } from '../../runtime/run-agent';
import { runAgent } from '../../runtime/run-agent';
import type { RuntimeConfig } from '../../runtime/runtime-config';
import { childCommand, processChildRunner, type ProcessChildRunnerOptions } from './child-runner';
import { CHILD_LAUNCHER_ENV, childJobFile } from '../../host-contract/container-contract';
import { HostStartError } from './host-error';
import type { HostNodeSpec, HostProgram } from '../../host-contract/node-host-spec';
import { agentKey, hostedNodes, mcpServersOf, secretsOf, subtreeNodes } from '../../host-contract/node-host-spec';
import { checkLocalOnly, loopbackOnlyFetch } from './loopback-fetch';
import { armNetworkGuard } from './network-guard';
import { egressAllowList } from '../../runtime/egress';
import { mcpServerEnv, type DeclaredMcpTool, type McpStdioTools, type StartMcpOptions } from './mcp-stdio-tools';
import { endpointProblem, withEndpointOverrides, withModelProxy } from './model-endpoints';
import { REPLAY_PLACEHOLDER_KEY, modelProxyOf } from '../model-replay/proxy-routes';
import { findExecutable, nativeSearchPath, nativeToolEnv, nativeToolHandlers } from './native-tools';
import { armSpawnGuard, type AllowedLaunch } from './spawn-guard';
import { checkOllama } from './ollama-check';
import type { HostEvent } from './run-events';
import type { KeyFailure, LoadedKey } from './key-store';
import type { SecretSource } from './secret-source';
import type { RunTelemetry } from '../../runtime/telemetry/run-telemetry';
import { howToProvideSecret } from './secret-source';
import type { LoadedCheckpoint } from './weights';
import { checkpointFolder, loadCheckpoint, weightsRoot } from './weights';

export interface ProcessHostOptions {
  program: HostProgram;
  /** The node this process serves. */
  nodeId: string;
  env: NodeJS.ProcessEnv;
  secrets: SecretSource;
  /** How a missing secret can be provided (one phrase). */
  secretHint?: (name: string) => string;
  /** Local hosts: loads a `keyref:<name>` receipt signer's key (key-store.ts `loadPrivateKey`). */
  receiptKeys?: (ref: string) => Promise<LoadedKey | KeyFailure>;
  /** This process's entry file, started again for quarantined children. */
  entryFile: string;
  /** Working directory of stdio MCP servers. */
  cwd: string;
  sink: ReceiptSink;
  log: (event: HostEvent) => void;
  /** Local hosts: starts stdio MCP servers (absent in container entrypoints). */
  startMcp?: (options: StartMcpOptions) => Promise<McpStdioTools>;
  /** Container hosts read the checkpoint folders of their tuned pins. */
  readCheckpoints: boolean;
  /** Local hosts check Ollama before serving. */
  checkOllama: boolean;
  killGraceMs?: number;
  /** The runs' OpenTelemetry signals (telemetry-export.ts), and the collector's origin the network guard lets through. */
  telemetry?: { runs: RunTelemetry; collectorOrigin?: string };
  /** `host:port` of the host's own connections (its task store's database), for the guard's `hostSocket` sockets only. */
  hostEndpoints?: readonly string[];
}

export interface ProcessHost {
  /** Configs of the subtree, endpoints settled. */
  configs: Record<string, RuntimeConfig>;
  depsFor(nodeId: string): RunDeps;
  checkpoints: LoadedCheckpoint[];
  /** Tools of this process's nodes that have no implementation here (calls fail with `tool_unavailable`). */
  unimplemented: { agent: string; toolId: string; kind: string }[];
  /** Pids of the MCP servers and child processes running now. */
  pids(): number[];
  /** Resolves when background work (receipt delivery) handed over so far has settled. */
  settled(): Promise<void>;
  /** Stops MCP servers and child processes. */
  close(): Promise<void>;
}

function missingSecretsError(
  missing: string[],
  needs: Map<string, string>,
  hint: (name: string) => string,
  keyHints: Map<string, string>,
): HostStartError {
  const first = missing[0]!;
  const list = missing.length === 1 ? `secret ${first} is` : `secrets ${missing.join(', ')} are`;
  // A receipt key a keyref signer names: the key store's own message first (it says how to create the key).
  const keyHint = keyHints.get(first);
  return new HostStartError(
    `${list} not set (${needs.get(first) ?? 'needed by the agent'}): ${keyHint ? `${keyHint}; or ${hint(first)}` : hint(first)}`,
  );
}

/** A config whose receipts carry `kid` as the signature's key id (run-agent signs with `signerRef`). */
function withReceiptKid(config: RuntimeConfig, kid: string): RuntimeConfig {
  return { ...config, receipts: { ...config.receipts, signerRef: kid } };
}

/** Why each secret is needed, for the missing-secret message. */
function secretNeeds(program: HostProgram, nodes: readonly HostNodeSpec[]): Map<string, string> {
  const needs = new Map<string, string>();
  for (const node of nodes) {
    const agent = agentKey(node);
    if (node.config.receipts.keyBinding)
      needs.set(node.config.receipts.keyBinding, `${agent} signs its receipts with it`);
    for (const pin of node.config.models)
      if (pin.secretBinding && !needs.has(pin.secretBinding))
        needs.set(pin.secretBinding, `${agent} calls ${pin.providerId} model ${pin.model} with it`);
  }
  for (const server of mcpServersOf(nodes)) {
    for (const [variable, ref] of Object.entries(program.mcpServers[server]?.env ?? {})) {
      if (ref.from === 'secret' && !needs.has(ref.name))
        needs.set(ref.name, `MCP server ${server} reads it as ${variable}`);
    }
  }
  return needs;
}

/** Secrets the nodes need only as a model pin's API key (not a receipt key, not an MCP server's variable). */
function modelKeyOnlySecrets(program: HostProgram, nodes: readonly HostNodeSpec[]): Set<string> {
  const keys = new Set<string>();
  for (const node of nodes) for (const pin of node.config.models) if (pin.secretBinding) keys.add(pin.secretBinding);
  for (const node of nodes) if (node.config.receipts.keyBinding) keys.delete(node.config.receipts.keyBinding);
  for (const server of mcpServersOf(nodes))
    for (const ref of Object.values(program.mcpServers[server]?.env ?? {}))
      if (ref.from === 'secret') keys.delete(ref.name);
  return keys;
}

export async function startProcessHost(options: ProcessHostOptions): Promise<ProcessHost> {
  const { program, env } = options;
  const root = program.nodes[options.nodeId];
  if (!root)
    throw new HostStartError(
      `this entry has no node ${options.nodeId}: set AGENTDEF_NODE to one of ${Object.keys(program.nodes).join(', ')}`,
    );
  const subtree = subtreeNodes(program, options.nodeId);
  const hosted = hostedNodes(program, options.nodeId);

  const configs: Record<string, RuntimeConfig> = {};
  for (const node of subtree) {
    configs[node.nodeId] = withEndpointOverrides(node.config, env);
    // Every URL read as validation reads it; the refusal names the field and where it was set.
    const problem = endpointProblem(configs[node.nodeId]!, env);
    if (problem) throw new HostStartError(`${agentKey(node)} cannot start: ${problem}`);
    // Checked on the pins' own endpoints, before a record/replay server (on loopback) stands in for them.
    if (program.localOnly) checkLocalOnly(configs[node.nodeId]!, agentKey(node));
    configs[node.nodeId] = withModelProxy(configs[node.nodeId]!, env);
  }
  // The process-wide network guard (installed first by the compiled entry) gets the allow-list of
  // the agents this process runs, endpoints settled, before anything of the host connects.
  const allow = new Set<string>();
  for (const node of hosted) for (const origin of egressAllowList(configs[node.nodeId]!)) allow.add(origin);
  // The collector the host's operator configured is the host's own egress, not the agent's.
  if (options.telemetry?.collectorOrigin) allow.add(options.telemetry.collectorOrigin);
  armNetworkGuard([...allow].sort(), {
    onBlocked: (host) => options.log({ event: 'egress.blocked', runId: '', host }),
    ...(options.hostEndpoints ? { hostEndpoints: options.hostEndpoints } : {}),
  });

  // Receipt signers named `keyref:<name>`: the key store first. A node whose key it has needs no
  // receipt key secret; for one whose key it lacks, its message says how to create the key.
  const receiptKeys = new Map<string, LoadedKey>();
  const keyHints = new Map<string, string>();
  if (options.receiptKeys) {
    for (const node of subtree) {
      const { mode, signerRef, keyBinding } = node.config.receipts;
      if (mode !== 'signed' || !signerRef?.startsWith('keyref:')) continue;
      const key = await options.receiptKeys(signerRef);
      if (key.ok) {
        receiptKeys.set(node.nodeId, key);
        configs[node.nodeId] = withReceiptKid(configs[node.nodeId]!, key.kid);
      } else if (keyBinding && !keyHints.has(keyBinding)) keyHints.set(keyBinding, key.message);
    }
  }
  const coveredByKeyStore = (name: string) =>
    subtree.every((node) => node.config.receipts.keyBinding !== name || receiptKeys.has(node.nodeId)) &&
    subtree.some((node) => node.config.receipts.keyBinding === name) &&
    !subtree.some((node) => node.config.models.some((pin) => pin.secretBinding === name)) &&
    !mcpServersOf(subtree).some((server) =>
      Object.values(program.mcpServers[server]?.env ?? {}).some((ref) => ref.from === 'secret' && ref.name === name),
    );

  // Secrets: every one the subtree needs, so a quarantined child never starts without its own.
  const secretNames = secretsOf(program, subtree);
  const secrets: Record<string, string> = {};
  const missing: string[] = [];
  // Replaying models: a key only a model pin uses is not read; a placeholder reaches the replay server, which forwards nothing.
  const replayedKeys = modelProxyOf(env)?.mode === 'replay' ? modelKeyOnlySecrets(program, subtree) : new Set<string>();
  for (const name of secretNames) {
    if (replayedKeys.has(name)) {
      secrets[name] = REPLAY_PLACEHOLDER_KEY;
      continue;
    }
    const value = await options.secrets.get(name);
    if (value !== undefined) secrets[name] = value;
    else if (!coveredByKeyStore(name)) missing.push(name);
  }
  if (missing.length > 0)
    throw missingSecretsError(
      missing,
      secretNeeds(program, subtree),
      options.secretHint ?? ((name) => howToProvideSecret(name)),
      keyHints,
    );

  // Checkpoints of the nodes in this process are read. Those of quarantined descendants must at
  // least exist when their processes start from this one (not when HB3 starts their own jobs).
  const launcherWords = (env[CHILD_LAUNCHER_ENV] ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const checkpoints: LoadedCheckpoint[] = [];
  if (options.readCheckpoints) {
    const rootDir = weightsRoot(env);
    for (const node of hosted) {
      for (const checkpoint of node.checkpoints) {
        const loaded = await loadCheckpoint(rootDir, checkpoint, agentKey(node));
        checkpoints.push(loaded);
        options.log({
          event: 'weights.loaded',
          runId: '',
          checkpointId: loaded.checkpointId,
          files: loaded.files,
          bytes: loaded.bytes,
          digest: loaded.digest,
        });
      }
    }
    if (launcherWords.length === 0) {
      for (const node of subtree.filter((n) => !hosted.includes(n)))
        for (const checkpoint of node.checkpoints) checkpointFolder(rootDir, checkpoint, agentKey(node));
    }
  }

  const dirs = nativeSearchPath(env);
  for (const node of subtree) {
    for (const tool of node.native) {
      if (!findExecutable(tool.binary, dirs)) nativeToolHandlers([tool], env, () => agentKey(node)); // throws the start error
    }
  }
  const tools: Record<string, ToolHandler> = { ...program.tools };
  for (const node of hosted)
    Object.assign(
      tools,
      nativeToolHandlers(node.native, env, () => agentKey(node)),
    );

  if (options.checkOllama) await checkOllama(Object.values(configs));

  const declared: DeclaredMcpTool[] = [];
  for (const node of hosted) {
    for (const tool of node.config.tools) {
      if (tool.kind !== 'mcp-stdio' || !tool.mcpServer) continue;
      declared.push({
        toolId: tool.id,
        server: tool.mcpServer,
        name: tool.name,
        agent: agentKey(node),
        ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}),
      });
    }
  }
  const resolveMcpEnv: StartMcpOptions['resolveEnv'] = (_server, _variable, ref) =>
    ref.from === 'secret' ? secrets[ref.name] : env[ref.name];

  const childEnv: NodeJS.ProcessEnv = {};
  const allSecretNames = new Set(secretsOf(program, Object.values(program.nodes)));
  for (const [key, value] of Object.entries(env))
    if (!allSecretNames.has(key) && !key.startsWith('AGENTDEF_SECRET_')) childEnv[key] = value;
  const childStart: Pick<ProcessChildRunnerOptions, 'nodes' | 'entryFile' | 'childLauncher'> = {
    nodes: program.nodes,
    entryFile: options.entryFile,
    ...(launcherWords.length > 0
      ? {
          childLauncher: {
            command: launcherWords[0]!,
            args: launcherWords.slice(1),
            jobFile: (id: string) => childJobFile(program.rootId, id),
          },
        }
      : {}),
  };

  // The process guard (installed first by the compiled entry, the keychain readers done) gets the
  // host's own launches: from now on nothing else may start, whatever tool code asks.
  const launches: AllowedLaunch[] = [];
  const nativeEnv = nativeToolEnv(env);
  for (const node of hosted) {
    for (const tool of node.native) {
      const path = findExecutable(tool.binary, dirs);
      if (path) launches.push({ command: path, args: [], env: nativeEnv });
    }
  }
  for (const node of subtree.filter((n) => !hosted.includes(n))) {
    const { command, args } = childCommand(childStart, node.nodeId);
    launches.push({ command, args, env: childEnv });
  }
  for (const name of new Set(declared.map((tool) => tool.server))) {
    const server = program.mcpServers[name];
    if (!server) continue;
    let serverEnv: Record<string, string>;
    try {
      serverEnv = mcpServerEnv(name, server, resolveMcpEnv);
    } catch {
      continue; // starting it fails with its own message
    }
    launches.push({ command: server.command, args: server.args, env: serverEnv, cwd: options.cwd });
  }
  armSpawnGuard(launches, {
    onBlocked: (executable) => options.log({ event: 'spawn.blocked', runId: '', executable }),
  });
  let mcp: McpStdioTools | undefined;
  if (declared.length > 0) {
    if (!options.startMcp)
      throw new HostStartError(
        `${agentKey(root)} uses stdio MCP servers, which only the local launcher runs: compile it for the local host`,
      );
    mcp = await options.startMcp({
      servers: program.mcpServers,
      tools: declared,
      cwd: options.cwd,
      resolveEnv: resolveMcpEnv,
      log: (event, fields) => options.log({ event, runId: '', ...fields }),
    });
    Object.assign(tools, mcp.handlers);
  }

  const unimplemented: ProcessHost['unimplemented'] = [];
  for (const node of hosted) {
    for (const tool of node.config.tools) {
      if (!tools[tool.id] && !(tool.kind === 'mcp-http' && tool.url))
        unimplemented.push({ agent: agentKey(node), toolId: tool.id, kind: tool.kind });
    }
  }

  // Background work (receipt delivery) and child processes, so shutdown can wait for and stop them.
  const background = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>) => {
    const tracked = promise.catch(() => undefined).finally(() => background.delete(tracked));
    background.add(tracked);
  };
  /** Each running child by pid: when it exits, and how to kill it (through its handle: never a pid that may be another process's by then). */
  const children = new Map<number, { exited: Promise<void>; kill: () => void }>();
  const logRuntime = (event: { event: string; runId: string }) => options.log(event);
  const deliver = (receipt: Receipt) =>
    deliverReceipt(receipt, options.sink, {
      waitUntil: track,
      onError: () => options.log({ event: 'receipt.delivery_failed', runId: receipt.runId }),
    });

  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((n) => secrets[n] !== undefined).map((n) => [n, secrets[n]!]));

  const isolatedRunner = processChildRunner({
    ...childStart,
    env: childEnv,
    secretsFor: (id) => pick(secretsOf(program, subtreeNodes(program, id))),
    receiptSignerFor: (id) => {
      const key = receiptKeys.get(id);
      return key ? { signingKey: key.privateJwk, kid: key.kid } : undefined;
    },
    deliver,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    onSpawn: (pid, exited, kill) => {
      children.set(pid, { exited, kill });
      void exited.then(() => children.delete(pid));
    },
  });
  const fetchFn = program.localOnly
    ? loopbackOnlyFetch(undefined, (host) => options.log({ event: 'egress.blocked_off_machine', runId: '', host }))
    : undefined;

  const depsCache = new Map<string, RunDeps>();
  const depsFor = (nodeId: string): RunDeps => {
    const cached = depsCache.get(nodeId);
    if (cached) return cached;
    const config = configs[nodeId];
    if (!config) throw new HostStartError(`no node ${nodeId}`);
    const inProcess: ChildRunner = async (child, input, context) => {
      const childConfig = child.nodeId ? configs[child.nodeId] : undefined;
      if (!child.nodeId || !childConfig) throw new Error(`no config for child ${child.slug}@${child.version}`);
      return runAgent(childConfig, input, depsFor(child.nodeId), {
        runId: context.runId,
        signal: context.signal,
        composedIn: { card: context.parent.slug, cardVersion: context.parent.version },
      });
    };
    const deps: RunDeps = {
      secrets,
      tools,
      receipts: {
        sink: options.sink,
        ...(receiptKeys.has(nodeId) ? { signingKey: receiptKeys.get(nodeId)!.privateJwk } : {}),
      },
      waitUntil: track,
      log: logRuntime,
      ...(options.telemetry ? { telemetry: options.telemetry.runs } : {}),
      ...(fetchFn ? { fetch: fetchFn } : {}),
      ...(config.composition.kind === 'dag'
        ? { runChild: config.composition.quarantine ? isolatedRunner : inProcess }
        : {}),
    };
    depsCache.set(nodeId, deps);
    return deps;
  };

  return {
    configs,
    depsFor,
    checkpoints,
    unimplemented,
    pids: () => [...(mcp?.pids() ?? []), ...children.keys()],
    settled: async () => {
      while (background.size > 0) await Promise.all([...background]);
    },
    async close() {
      for (const child of children.values()) {
        try {
          child.kill();
        } catch {
          // already gone
        }
      }
      await Promise.all([...children.values()].map((child) => child.exited));
      await mcp?.close();
    },
  };
}

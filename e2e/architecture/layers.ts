/**
 * The target architecture of this repository as data (docs: DESIGN.md, "Which way the imports
 * run"): which folder is which layer, which layers each layer may import, which packages it must
 * not load, and that one target's folder never imports another's. Read by import-directions.test.ts.
 * Shells sit on top and nothing imports them: the CLI (plugin/cli/) and the Nx shell (executors,
 * generators, the plugin's entry point), which never imports the CLI; both reach the operations
 * (plugin/operations/: dev, publish, promote, the application verbs), which import neither shell.
 * Neither shells nor operations reach a target's internals: the target table is their way in.
 * The portable runtime and the definition layer import only themselves, the secret-shape
 * detector and the redactor of known secrets (plugin/runtime/secret-shapes.ts, redact.ts and
 * text-skeleton.ts: a leaf layer both share) and the runtime's URL reading
 * (plugin/runtime/endpoint-url.ts and the built-ins it captures: a leaf layer, so validation reads
 * a URL as the runtime does); plugin/runtime/portability.test.ts checks the runtime the same way.
 * The registry's file names
 * (plugin/registry/registry-layout.ts) are a layer of their own that imports nothing, so graph
 * inference can name the index without loading the registry's reads and writes. What makes a
 * folder agentdef's output (plugin/compiler/output-guard.ts, its marker and guard) and putting back
 * an output a writer killed mid-swap left aside (plugin/compiler/output-leftovers.ts) are a leaf
 * layer too, so the target table's output reader restores a folder as the writer would.
 * The eval runner's pure parts (plugin/eval/: cases, assertions, scores, reports, eval receipts)
 * are a layer under the operations; its folder and file names (plugin/eval/eval-output.ts) are a
 * leaf, so graph inference names the eval target's inputs and outputs without loading the runner.
 */
import type { Architecture } from './import-graph';

export type Layer =
  | 'cli'
  | 'nx-shell'
  | 'operations'
  | 'application'
  | 'trust'
  | 'deploy'
  | 'graph'
  | 'reputation'
  | 'eval'
  | 'eval-layout'
  | 'target-table'
  | 'target-contract'
  | 'targets'
  | 'compiler'
  | 'output-folder'
  | 'registry'
  | 'registry-layout'
  | 'host-contract'
  | 'hosts'
  | 'sqlite'
  | 'postgres'
  | 'secret-shapes'
  | 'runtime'
  | 'runtime-url'
  | 'definition';

/** The folders the architecture covers. */
export const TOP_FOLDERS = ['plugin', 'executors', 'generators'] as const;

export const ARCHITECTURE: Architecture<Layer> = {
  layers: [
    { layer: 'cli', paths: ['plugin/cli/**'] },
    { layer: 'nx-shell', paths: ['executors/**', 'generators/**', 'plugin/index.ts'] },
    { layer: 'operations', paths: ['plugin/operations/**'] },
    { layer: 'application', paths: ['plugin/application/**'] },
    { layer: 'trust', paths: ['plugin/trust/**'] },
    { layer: 'deploy', paths: ['plugin/deploy/**'] },
    { layer: 'graph', paths: ['plugin/graph/**'] },
    // Reputation scored from signed receipts (run, eval, lifecycle): pure, under the operations.
    { layer: 'reputation', paths: ['plugin/reputation/**'] },
    // Where `agentdef eval` reads and writes (folder and file names): a leaf, so graph inference can
    // name the eval target's inputs and outputs without loading the runner.
    { layer: 'eval-layout', paths: ['plugin/eval/eval-output.ts'] },
    { layer: 'eval', paths: ['plugin/eval/**'] },
    // The table and each target's descriptor: light (every part of a target loads lazily), so
    // the CLI's help, the graph and the compiler can name targets; a target's contract file is a
    // leaf the hosts read; everything else in a target's folder is its internals.
    { layer: 'target-table', paths: ['plugin/targets/*', 'plugin/targets/*/target.ts'] },
    { layer: 'target-contract', paths: ['plugin/targets/*/contract.ts'] },
    { layer: 'targets', paths: ['plugin/targets/**'] },
    { layer: 'output-folder', paths: ['plugin/compiler/output-guard.ts', 'plugin/compiler/output-leftovers.ts'] },
    { layer: 'compiler', paths: ['plugin/compiler/**'] },
    { layer: 'registry-layout', paths: ['plugin/registry/registry-layout.ts'] },
    { layer: 'registry', paths: ['plugin/registry/**'] },
    { layer: 'host-contract', paths: ['plugin/host-contract/**'] },
    { layer: 'hosts', paths: ['plugin/hosts/**'] },
    { layer: 'sqlite', paths: ['plugin/sqlite/**'] },
    // The PostgreSQL stores' database (pool, transactions, migrations) and how a store option is read.
    { layer: 'postgres', paths: ['plugin/postgres/**'] },
    // The one detector of secret-shaped text, and the redactor of known secret values (with the
    // text skeleton it reads): leaves inside the runtime that the definition layer shares (its
    // secret scanner and its diagnostics) with the runtime's card scrubber and run redaction.
    {
      layer: 'secret-shapes',
      paths: ['plugin/runtime/secret-shapes.ts', 'plugin/runtime/redact.ts', 'plugin/runtime/text-skeleton.ts'],
    },
    // How a URL-valued field is read (WHATWG URL, built-ins captured before tool code runs):
    // validation, the emitters and the runtime share it, so what one accepts the others accept.
    { layer: 'runtime-url', paths: ['plugin/runtime/endpoint-url.ts', 'plugin/runtime/captured-intrinsics.ts'] },
    { layer: 'runtime', paths: ['plugin/runtime/**'] },
    { layer: 'definition', paths: ['plugin/definition/**', 'plugin/schema/**'] },
  ],

  // biome-ignore format: aligned table, one row per layer
  imports: {
    cli:               { cli: 'yes', reputation: 'yes', eval: 'yes', 'eval-layout': 'yes', operations: 'yes', application: 'yes', trust: 'yes', deploy: 'yes', graph: 'yes', 'target-table': 'yes', 'target-contract': 'yes', compiler: 'yes', registry: 'yes', 'registry-layout': 'yes', 'host-contract': 'yes', hosts: 'yes', sqlite: 'yes', postgres: 'yes', runtime: 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    'nx-shell':        { 'nx-shell': 'yes', operations: 'yes', application: 'yes', trust: 'yes', deploy: 'yes', graph: 'yes', 'target-table': 'yes', 'target-contract': 'yes', compiler: 'yes', registry: 'yes', 'registry-layout': 'yes', 'host-contract': 'yes', hosts: 'yes', sqlite: 'yes', postgres: 'yes', runtime: 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    operations:        { operations: 'yes', reputation: 'yes', eval: 'yes', 'eval-layout': 'yes', 'output-folder': 'yes', application: 'yes', trust: 'yes', deploy: 'yes', graph: 'yes', 'target-table': 'yes', 'target-contract': 'yes', compiler: 'yes', registry: 'yes', 'registry-layout': 'yes', 'host-contract': 'yes', hosts: 'yes', sqlite: 'yes', postgres: 'yes', runtime: 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    application:       { application: 'yes', compiler: 'yes', definition: 'yes', runtime: 'yes', sqlite: 'yes', postgres: 'yes', 'secret-shapes': 'yes' },
    reputation:        { reputation: 'yes', eval: 'yes', trust: 'yes', definition: 'yes', runtime: 'yes', 'secret-shapes': 'yes' },
    eval:              { eval: 'yes', 'eval-layout': 'yes', trust: 'yes', application: 'yes', definition: 'yes', runtime: 'yes', 'secret-shapes': 'yes' },
    'eval-layout':     {},
    trust:             { trust: 'yes', compiler: 'yes', 'target-table': 'yes', registry: 'yes', 'registry-layout': 'yes', definition: 'yes', runtime: 'yes', 'secret-shapes': 'yes' },
    deploy:            { deploy: 'yes', 'target-table': 'yes', 'host-contract': 'yes', hosts: 'yes' },
    graph:             { graph: 'yes', 'eval-layout': 'yes', 'target-table': 'yes', 'registry-layout': 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    'target-table':    { 'target-table': 'yes', 'target-contract': 'yes', targets: 'lazy', compiler: 'type-only', 'output-folder': 'yes', deploy: 'type-only', hosts: 'type-only', 'host-contract': 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    'target-contract': {},
    targets:           { targets: 'yes', 'target-table': 'yes', 'target-contract': 'yes', compiler: 'yes', deploy: 'yes', hosts: 'yes', 'host-contract': 'yes', runtime: 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    compiler:          { compiler: 'yes', 'output-folder': 'yes', 'target-table': 'yes', registry: 'yes', 'registry-layout': 'yes', definition: 'yes', 'host-contract': 'yes', runtime: 'yes', 'secret-shapes': 'yes' },
    registry:          { registry: 'yes', 'registry-layout': 'yes', definition: 'yes', 'secret-shapes': 'yes' },
    'registry-layout': {},
    'output-folder':   { 'output-folder': 'yes' },
    'host-contract':   { 'host-contract': 'yes', 'target-contract': 'yes', 'target-table': 'type-only', runtime: 'type-only' },
    hosts:             { hosts: 'yes', 'target-contract': 'yes', 'host-contract': 'yes', runtime: 'yes', sqlite: 'yes', postgres: 'yes', 'secret-shapes': 'yes', 'runtime-url': 'yes' },
    sqlite:            { sqlite: 'yes' },
    postgres:          { postgres: 'yes' },
    runtime:           { runtime: 'yes', 'secret-shapes': 'yes', 'runtime-url': 'yes' },
    'secret-shapes':   { 'secret-shapes': 'yes' },
    definition:        { definition: 'yes', 'secret-shapes': 'yes', 'runtime-url': 'yes' },
    'runtime-url':     { 'runtime-url': 'yes' },
  },

  // biome-ignore format: aligned table, one row per layer
  packages: {
    application:       { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no', libsql: 'no', pg: 'no' },
    trust:             { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no' },
    deploy:            { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no' },
    graph:             { esbuild: 'no', 'ts-morph': 'no', typescript: 'no', '@nx/devkit': 'lazy' },
    reputation:        { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no' },
    eval:              { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no' },
    'eval-layout':     { '*': 'no', 'node:*': 'yes' },
    compiler:          { nx: 'no', '@nx/*': 'no', esbuild: 'lazy', 'ts-morph': 'lazy', typescript: 'lazy' },
    'target-table':    { '*': 'no', 'node:*': 'yes' },
    // A target's internals load only when a command needs that target (through the table).
    // kubernetes-models is the Kubernetes target's test oracle, never its emitter's.
    targets:           { nx: 'no', '@nx/*': 'no', 'ts-morph': 'lazy', typescript: 'lazy', 'kubernetes-models': 'no' },
    registry:          { nx: 'no', '@nx/*': 'no', esbuild: 'no', 'ts-morph': 'no', typescript: 'no', libsql: 'no' },
    'registry-layout': { '*': 'no' },
    'output-folder':   { 'node:*': 'yes', '*': 'no' },
    'host-contract':   { 'node:*': 'no', nx: 'no', '@nx/*': 'no' },
    hosts:             { nx: 'no', '@nx/*': 'no', libsql: 'no', pg: 'no' },
    sqlite:            { 'node:*': 'yes', libsql: 'lazy', '*': 'no' },
    postgres:          { 'node:*': 'yes', pg: 'lazy', '*': 'no' },
    'secret-shapes':   { '*': 'no' },
    runtime:           { '*': 'no' },
    'runtime-url':     { '*': 'no' },
    definition:        { nx: 'no', '@nx/*': 'no' },
  },

  siblings: [{ rule: 'no-sibling-target', folder: 'plugin/targets' }],
};

/**
 * The files of the leaf layers the definition layer may import (the secret-shape detector, the
 * URL reading): they sit in plugin/runtime/ but are not the runtime, so a check that the Nx entry
 * or `agentdef validate` loads no runtime module lets exactly these through.
 */
export const DEFINITION_LEAVES: readonly string[] = ARCHITECTURE.layers
  .filter(({ layer }) => layer !== 'definition' && ARCHITECTURE.imports.definition[layer] === 'yes')
  .flatMap(({ paths }) => paths);

#!/usr/bin/env node
// The `agentdef` command. From a built package it runs the compiled CLI; from a source checkout
// it compiles the TypeScript sources on the fly with @swc-node/register.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const packageRoot = join(__dirname, '..');
const compiled = join(packageRoot, 'plugin', 'cli', 'main.js');
let entry = compiled;
if (!existsSync(compiled)) {
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(packageRoot, 'tsconfig.json');
  require('@swc-node/register');
  entry = join(packageRoot, 'plugin', 'cli', 'main.ts');
}
require(entry)
  .runCli(process.argv.slice(2), {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
  .then((code) => {
    process.exitCode = code;
  });

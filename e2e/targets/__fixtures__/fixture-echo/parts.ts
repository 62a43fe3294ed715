// @ts-nocheck
/** Fixture: the fourth target's emitter, server and deploy (see target.ts). */
import { createServer } from 'node:http';
import { basename } from 'node:path';

export const echoAdapter = {
  target: 'fixture-echo',
  hosts: ['worker'],
  emit: async (plan) => ({
    files: [{ path: 'echo.json', contents: `${JSON.stringify({ target: plan.target, agent: `${plan.root.slug}@${plan.root.version}`, nodes: plan.nodes.length })}\n` }],
    summary: 'fixture-echo: one file',
  }),
};

export const echoNeeds = () => ({ secretNames: [], localOnly: false });

export const serveEcho = (request) => async (port, restart) => {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ servedBy: 'fixture-echo', path: req.url, output: basename(request.outDir) }));
  });
  await new Promise((listening) => server.listen(port ?? 0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${server.address().port}`;
  if (!restart) request.stdout(`fixture-echo serves ${url}/\n`);
  let ended = () => {};
  const done = new Promise((resolve) => {
    ended = resolve;
  });
  return { url, ended: done, stop: () => new Promise((closed) => server.close(() => (ended(0), closed()))) };
};

export const deployEcho = async (options) => {
  options.stdout(`fixture-echo deploy of ${basename(options.outDir)}${options.dryRun ? ' (dry run)' : ''}${options.registry ? ` to ${options.registry}` : ''}\n`);
  return 0;
};

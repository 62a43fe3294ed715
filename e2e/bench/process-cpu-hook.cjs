// Loaded with `node --require` (through NODE_OPTIONS) by the graph benchmark in Nx and in every
// plugin worker Nx starts: on exit, appends this process's CPU time (user + system, ms) as one
// line to the file AGENTDEF_BENCH_CPU_LOG names. Nothing else; a process without the variable is
// left alone.
'use strict';
const { appendFileSync } = require('node:fs');

const log = process.env.AGENTDEF_BENCH_CPU_LOG;
if (log) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(log, `${((user + system) / 1000).toFixed(1)}\n`);
  });
}

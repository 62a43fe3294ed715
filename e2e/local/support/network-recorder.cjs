// Preloaded into a host process (NODE_OPTIONS=--require) by the local-only test: records the
// destination of every outgoing TCP connection the process opens, one "host:port" per line, in
// the file named by AGENTDEF_TEST_NETLOG. Test-only.
'use strict';
const net = require('node:net');
const fs = require('node:fs');
const file = process.env.AGENTDEF_TEST_NETLOG;
if (file) {
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    try {
      const first = args[0];
      const options = Array.isArray(first) ? first[0] : first;
      let where;
      if (options && typeof options === 'object')
        where = options.path ? `unix:${options.path}` : `${options.host ?? 'localhost'}:${options.port}`;
      else if (typeof first === 'number') where = `${typeof args[1] === 'string' ? args[1] : 'localhost'}:${first}`;
      else if (typeof first === 'string') where = `unix:${first}`;
      if (where) fs.appendFileSync(file, `${where}\n`);
    } catch {
      // never break the host
    }
    return original.apply(this, args);
  };
}

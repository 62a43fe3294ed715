/**
 * The first import of a compiled Node host's entry: installs the process guard (spawn-guard.ts:
 * only the host's own executables may start), the process-wide network guard (network-guard.ts),
 * the listen guard (listen-guard.ts: only the host's own server accepts connections) and the debug
 * guard (debug-guard.ts: no inspector, no signal to another process) before any other module, a
 * tool module above all, is evaluated. Nothing may connect, and nothing but the keychain readers
 * may start, until the host arms them.
 */
import { syncBuiltinESMExports } from 'node:module';
import { installDebugGuard } from './debug-guard';
import { installListenGuard } from './listen-guard';
import { installNetworkGuard } from './network-guard';
import { installSpawnGuard } from './spawn-guard';

// `process.binding` as it was: the network guard then refuses the raw bindings to everyone else.
const binding = (process as unknown as { binding: (name: string) => unknown }).binding.bind(process);
// First: it takes the raw spawn bindings, which the network guard then refuses to everyone else.
installSpawnGuard(binding);
installNetworkGuard();
installListenGuard(binding);
installDebugGuard(binding);
// ES module namespaces of the built-ins (`import { open } from 'node:inspector'`) see the replacements.
syncBuiltinESMExports();

/**
 * The first import of a compiled Node host's entry: installs the process guard (spawn-guard.ts:
 * only the host's own executables may start) and the process-wide network guard
 * (network-guard.ts) before any other module, a tool module above all, is evaluated. Nothing may
 * connect, and nothing but the keychain readers may start, until the host arms them.
 */
import { installNetworkGuard } from './network-guard';
import { installSpawnGuard } from './spawn-guard';

// First: it takes the raw spawn bindings, which the network guard then refuses to everyone else.
installSpawnGuard();
installNetworkGuard();

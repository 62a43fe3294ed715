/** The table of `agentdef keys …` (command-spec.ts). */
import type { CommandGroupSpec } from './command-spec';
import { USAGE_OR_IO, FORMAT } from './shared-options';

const KEY_REF = {
  name: '<keyref:name>',
  description: 'the key, as keyref:<name>: the name 1 to 64 of a-z 0-9 . _ - starting with a letter or digit',
} as const;

const KEYS_EXIT = [
  'done',
  'refused: the key already exists, is missing, or its file is unsafe',
  `${USAGE_OR_IO} (a key ref that is not keyref:<name>)`,
] as const;

export const KEYS = {
  name: 'keys',
  summary: 'Ed25519 signing keys: generate one for a keyref:<name>, list them, export a public JWK and its kid',
  description:
    'Manages the Ed25519 keys agentdef signs with (cards, credentials, receipts, lifecycle transitions), named keyref:<name>: in the OS keychain (unless AGENTDEF_KEYCHAIN=off) or the keys folder ($AGENTDEF_KEYS_DIR, else $XDG_CONFIG_HOME/agentdef/keys, files mode 0600). No command ever prints a private key.',
  subcommands: {
    generate: {
      name: 'keys generate',
      arguments: [KEY_REF],
      summary: 'create a key; print its public JWK and kid',
      description:
        'Creates a new Ed25519 key for the ref and prints its public JWK and kid (the RFC 7638 thumbprint). A key is never overwritten: a ref that already has one is refused.',
      options: {
        store: {
          type: 'string',
          values: ['folder', 'keychain'],
          default: 'folder',
          description: 'where the private key is kept: the keys folder (mode 0600) or the OS keychain',
        },
        format: FORMAT,
      },
      exitCodes: KEYS_EXIT,
    },
    list: {
      name: 'keys list',
      arguments: [],
      summary: 'list the keys: ref, kid and where the private key is',
      description:
        'Lists every key of the keychain and the keys folder: its ref, its kid and where its private key is.',
      options: { format: FORMAT },
      exitCodes: KEYS_EXIT,
    },
    'export-public': {
      name: 'keys export-public',
      arguments: [KEY_REF],
      summary: 'print the public JWK and kid of a key',
      description: 'Prints the public JWK of the key with its kid: what a verifier passes as --key.',
      options: { format: FORMAT },
      exitCodes: KEYS_EXIT,
    },
  },
} as const satisfies CommandGroupSpec;

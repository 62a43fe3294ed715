/**
 * Control fields: property names that would let data smuggle behaviour or authority into an
 * application — hidden code, packages, callbacks, commands, transports, providers, endpoints,
 * headers, environment maps, credentials, secrets, tokens, paths, approvals, raw MCP objects and
 * caller-supplied adapters. The manifest envelope, the built-in component schemas and every pack
 * configuration schema refuse a property whose name `controlFieldKind` recognises.
 *
 * This is STRUCTURAL DEFENSE IN DEPTH, not a semantic guarantee: it recognises an explicit list of
 * known high-risk words and their common spellings, never every possible synonym, and it says
 * nothing about what an adapter does with the data it is given. The embedding host reviewing each
 * adapter stays the semantic authority.
 *
 * How a name is matched (all case-insensitive, after NFKC, with combining marks and invisible
 * format characters removed):
 * - `word` stems must equal one word of the name, after splitting camelCase, PascalCase, acronyms,
 *   snake_case, kebab-case, dots and digits, with a plural `s`/`es`/`ies` dropped (`cmd`, `env`, `fn`);
 * - `affix` stems may also begin or end a word (`baseurl`, `filepath`, `prehook`);
 *   the name with its separators removed counts as one more word (`u_r_l`, `c-m-d`);
 * - `anywhere` stems are found in the name with every separator removed, and in the same name with
 *   common digit-for-letter swaps undone (`api_key`, `x-api-key`, `my_pass_word`, `passw0rd`).
 *
 * The answer is by name alone. A caller whose own closed schema declares a property of a matching
 * name (the manifest's `source.uri` or `adapterPolicyDigest`, say) exempts that one position itself.
 */

export type ControlFieldKind =
  | 'hidden code'
  | 'package'
  | 'callback'
  | 'command'
  | 'transport'
  | 'provider'
  | 'endpoint'
  | 'header'
  | 'environment map'
  | 'credential'
  | 'secret'
  | 'token'
  | 'path'
  | 'approval'
  | 'raw MCP object'
  | 'caller-supplied adapter';

export type StemMatch = 'word' | 'affix' | 'anywhere';

export interface ControlFieldStem {
  /** Lower-case ASCII letters. */
  stem: string;
  kind: ControlFieldKind;
  match: StemMatch;
}

// biome-ignore format: one row per kind
const TABLE: ReadonlyArray<readonly [ControlFieldKind, StemMatch, readonly string[]]> = [
  ['secret', 'anywhere', ['secret', 'password', 'passwd', 'passphrase', 'passcode']],
  ['secret', 'word', ['pwd', 'otp', 'totp', 'hotp', 'mfa']],
  ['token', 'anywhere', ['token', 'bearer', 'jwt', 'cookie', 'apikey', 'accesskey', 'authkey', 'sessionkey', 'refreshkey']],
  ['credential', 'anywhere', ['credential', 'privatekey', 'secretkey', 'signingkey', 'masterkey', 'encryptionkey', 'clientsecret', 'authorization', 'authentication', 'oauth', 'certificate', 'keystore', 'keychain', 'keyfile', 'kubeconfig', 'serviceaccount', 'username']],
  ['credential', 'word', ['cred', 'auth', 'authn', 'authz', 'cert', 'pem', 'pkcs', 'ssh', 'tls', 'ssl', 'login']],
  ['command', 'anywhere', ['command', 'executable', 'subprocess', 'powershell']],
  ['command', 'affix', ['cmd', 'exec', 'shell', 'bash', 'spawn', 'argv']],
  ['command', 'word', ['sh', 'zsh', 'cli', 'sudo', 'cron', 'script']],
  ['hidden code', 'anywhere', ['javascript', 'typescript', 'bytecode', 'sourcecode', 'inlinecode', 'wasm', 'webassembly', 'lambda']],
  ['hidden code', 'word', ['code', 'eval', 'fn', 'func', 'function', 'js', 'py', 'python', 'deno', 'snippet', 'macro', 'closure']],
  ['package', 'anywhere', ['dependenc']],
  ['package', 'affix', ['package', 'pkg', 'module', 'npm', 'pnpm', 'plugin']],
  ['package', 'word', ['require', 'import', 'library', 'lib', 'install', 'registry', 'pip', 'yarn']],
  ['callback', 'anywhere', ['callback', 'webhook', 'listener']],
  ['callback', 'affix', ['hook', 'handler']],
  ['callback', 'word', ['cb']],
  ['transport', 'anywhere', ['transport', 'socket', 'proxy', 'stdio']],
  ['transport', 'word', ['http', 'https', 'ws', 'wss', 'tcp', 'udp', 'grpc', 'ipc', 'sse', 'smtp', 'ftp', 'sftp', 'tunnel']],
  ['provider', 'affix', ['provider', 'vendor']],
  ['provider', 'word', ['openai', 'anthropic', 'bedrock', 'azure', 'gemini', 'ollama', 'llm']],
  ['endpoint', 'anywhere', ['endpoint', 'redirect']],
  ['endpoint', 'affix', ['url', 'uri', 'host', 'href', 'server', 'domain']],
  ['endpoint', 'word', ['urn', 'origin', 'link', 'src', 'addr', 'ip', 'dns']],
  ['header', 'anywhere', ['useragent']],
  ['header', 'affix', ['header']],
  ['header', 'word', ['referer', 'referrer']],
  ['environment map', 'anywhere', ['environ', 'envvar', 'dotenv']],
  ['environment map', 'word', ['env']],
  ['path', 'anywhere', ['filepath', 'filename', 'dirname', 'pathname', 'workdir', 'workingdir', 'basedir', 'rootdir', 'outdir', 'directory', 'folder', 'mountpoint']],
  ['path', 'affix', ['path']],
  ['path', 'word', ['dir', 'file', 'cwd', 'mount', 'fs', 'glob']],
  ['approval', 'anywhere', ['allowlist']],
  ['approval', 'affix', ['approv', 'consent', 'authorize', 'authorise', 'permission', 'operator']],
  ['approval', 'word', ['grant']],
  ['raw MCP object', 'anywhere', ['jsonrpc', 'mcpserver', 'toolcall']],
  ['raw MCP object', 'affix', ['mcp', 'rpc']],
  ['caller-supplied adapter', 'anywhere', ['adapter', 'connector', 'resolver', 'middleware', 'interceptor']],
  ['caller-supplied adapter', 'word', ['driver']],
];

/** Every recognised stem, for the docs: what it is, and how much of a name it must be. */
export const CONTROL_FIELD_STEMS: readonly ControlFieldStem[] = Object.freeze(
  TABLE.flatMap(([kind, match, stems]) =>
    stems.filter((stem) => /^[a-z]+$/.test(stem)).map((stem) => Object.freeze({ stem, kind, match })),
  ),
);

/** The kinds, in the order the table lists them. */
export const CONTROL_FIELD_KINDS: readonly ControlFieldKind[] = Object.freeze([
  ...new Set(TABLE.map(([kind]) => kind)),
]);

const STEMS_BY_MATCH: Readonly<Record<StemMatch, readonly ControlFieldStem[]>> = {
  anywhere: CONTROL_FIELD_STEMS.filter((entry) => entry.match === 'anywhere'),
  affix: CONTROL_FIELD_STEMS.filter((entry) => entry.match === 'affix'),
  word: CONTROL_FIELD_STEMS.filter((entry) => entry.match === 'word'),
};

/** Digit-for-letter swaps undone before the `anywhere` search (`passw0rd`, `s3cret`, `t0k3n`). */
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
};

/** Cyrillic and Greek letters drawn like Latin ones (`tоken` with a Cyrillic `о`, `ΤΟΚΕΝ` in Greek capitals). */
// biome-ignore format: one row per script and case
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

/** NFKC, no combining marks, no invisible format characters (zero-width joiners, soft hyphens…). */
function normalise(name: string): string {
  return name
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .normalize('NFC')
    .replace(/[^\p{ASCII}]/gu, (letter) => CONFUSABLES[letter] ?? letter);
}

/** The words of a name: `XApiKey` → x, api, key; `OAUTH2_token` → oauth, 2, token. */
export function splitWords(name: string): string[] {
  return normalise(name)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** `headers` → header, `dependencies` → dependency, `aliases` → alias; short words stay. */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function matchWord(word: string): ControlFieldKind | undefined {
  for (const form of new Set([word, singular(word)])) {
    for (const entry of STEMS_BY_MATCH.word) if (form === entry.stem) return entry.kind;
    for (const entry of STEMS_BY_MATCH.affix)
      if (form.startsWith(entry.stem) || form.endsWith(entry.stem)) return entry.kind;
  }
  return undefined;
}

function matchAnywhere(squashed: string): ControlFieldKind | undefined {
  const forms = new Set([
    squashed,
    squashed.replace(/[0-9]/g, (d) => LEET[d] ?? d),
    squashed.replace(/1/g, 'l').replace(/[0-9]/g, (d) => LEET[d] ?? d),
  ]);
  for (const form of forms)
    for (const entry of STEMS_BY_MATCH.anywhere) if (form.includes(entry.stem)) return entry.kind;
  return undefined;
}

/**
 * The kind of control field `name` is, or `undefined` when it is none of them. Never throws;
 * `''` and names without letters are not control fields.
 */
export function controlFieldKind(name: string): ControlFieldKind | undefined {
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const words = splitWords(name);
  const squashed = words.join('');
  const anywhere = matchAnywhere(squashed);
  if (anywhere !== undefined) return anywhere;
  // The name with its separators removed is one more word: `u_r_l` and `c-m-d` are still `url` and `cmd`.
  for (const word of words.length > 1 ? [...words, squashed] : words) {
    const kind = matchWord(word);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

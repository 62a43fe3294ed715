/**
 * Attacks on control-field recognition: every kind the seed names and every high-risk word with
 * its common spellings (camelCase, PascalCase, snake_case, kebab-case, SCREAMING_CASE, plurals,
 * prefixes and suffixes), the disguises a hostile author would try (zero-width characters,
 * combining marks, full-width and look-alike letters, digits for letters, split words), and the
 * everyday names that must stay usable. Random strings never make it throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTROL_FIELD_KINDS,
  CONTROL_FIELD_STEMS,
  type ControlFieldKind,
  controlFieldKind,
  splitWords,
} from './control-fields';

/** Each kind the seed names, by a plain example. */
const BY_KIND: ReadonlyArray<readonly [string, ControlFieldKind]> = [
  ['code', 'hidden code'],
  ['package', 'package'],
  ['callback', 'callback'],
  ['command', 'command'],
  ['transport', 'transport'],
  ['provider', 'provider'],
  ['endpoint', 'endpoint'],
  ['headers', 'header'],
  ['env', 'environment map'],
  ['credentials', 'credential'],
  ['secret', 'secret'],
  ['token', 'token'],
  ['path', 'path'],
  ['approval', 'approval'],
  ['mcp', 'raw MCP object'],
  ['adapter', 'caller-supplied adapter'],
];

/** The high-risk names and aliases the brief lists, plus the spellings people really use. */
const HIGH_RISK = [
  // command
  'command',
  'commands',
  'cmd',
  'exec',
  'execute',
  'executable',
  'shell',
  'shellCommand',
  'script',
  'scripts',
  'spawn',
  'argv',
  'bash',
  'preExec',
  'commandLine',
  'run_cmd',
  'startCmd',
  // endpoint
  'endpoint',
  'endpoints',
  'url',
  'urls',
  'uri',
  'baseUrl',
  'base_url',
  'BASE_URL',
  'apiUrl',
  'serverUrl',
  'webhook',
  'webhookUrl',
  'host',
  'hostname',
  'hosts',
  'redirectUri',
  'href',
  'server',
  'origin',
  'ip',
  'addr',
  // credential, secret, token
  'credential',
  'credentials',
  'creds',
  'apiKey',
  'api_key',
  'x-api-key',
  'X-API-KEY',
  'ApiKey',
  'apikey',
  'apiKeys',
  'accessKey',
  'privateKey',
  'secretKey',
  'clientSecret',
  'authToken',
  'auth_token',
  'accessToken',
  'refreshToken',
  'bearer',
  'bearerToken',
  'Authorization',
  'auth',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'tokens',
  'jwt',
  'cookie',
  'cookies',
  'oauth',
  'oauth2Token',
  'sshKey',
  'tlsCert',
  'certificate',
  'kubeconfig',
  'serviceAccount',
  'username',
  'login',
  // environment
  'env',
  'envs',
  'environment',
  'environmentVariables',
  'envVars',
  'ENV_VARS',
  'dotenv',
  'processEnv',
  // transport
  'transport',
  'transports',
  'socket',
  'websocket',
  'proxy',
  'httpProxy',
  'stdio',
  'grpc',
  'tcp',
  // package, hidden code
  'package',
  'packages',
  'pkg',
  'module',
  'modules',
  'require',
  'import',
  'imports',
  'npm',
  'npmPackage',
  'pip',
  'plugin',
  'plugins',
  'dependencies',
  'devDependencies',
  'library',
  'lib',
  'code',
  'sourceCode',
  'inlineCode',
  'eval',
  'fn',
  'func',
  'function',
  'functions',
  'lambda',
  'javascript',
  'js',
  'python',
  'wasm',
  'snippet',
  // path
  'path',
  'paths',
  'filePath',
  'file_path',
  'basePath',
  'fileName',
  'dir',
  'directory',
  'workDir',
  'workingDirectory',
  'cwd',
  'folder',
  'file',
  'files',
  'mount',
  // callback, header, approval, raw MCP, adapter, provider
  'callback',
  'callbacks',
  'callbackUrl',
  'hook',
  'hooks',
  'onSuccessHook',
  'handler',
  'handlers',
  'errorHandler',
  'listener',
  'header',
  'headers',
  'extraHeaders',
  'userAgent',
  'approval',
  'approvals',
  'approve',
  'approved',
  'approver',
  'consent',
  'authorize',
  'permission',
  'permissions',
  'operator',
  'grant',
  'mcp',
  'mcpServer',
  'mcpServers',
  'jsonrpc',
  'jsonRpc',
  'rpc',
  'toolCall',
  'adapter',
  'adapters',
  'customAdapter',
  'connector',
  'resolver',
  'ownerResolver',
  'middleware',
  'driver',
  'provider',
  'providers',
  'modelProvider',
  'llm',
  'openai',
];

/** Disguises of `token`, `secret`, `password`, `apiKey` and `command`. */
const DISGUISED = [
  'to\u200bken', // zero-width space
  'se\u00adcret', // soft hyphen
  'pass\u200dword', // zero-width joiner
  'tóken', // combining mark after NFD
  'to\u0301ken', // combining acute
  'ＴＯＫＥＮ', // full-width
  'ｐａｓｓｗｏｒｄ',
  'tоken', // Cyrillic о
  'ΤΟΚΕΝ', // Greek capitals
  'раssword', // Cyrillic р and а
  'passw0rd',
  's3cret',
  't0k3n',
  'p4ssw0rd',
  'my_pass_word',
  'to_ken',
  'SE-CRET',
  'api.key',
  'api key',
  'APIKEY',
  'xApiKey',
  'myapitoken',
  'userpassword',
  'command\u0000',
  'TOKEN',
  'Secret_Token_2',
  'u_r_l',
  'c-m-d',
  'E.N.V',
  'h_o_s_t_name',
];

/** Names real configuration uses, and the manifest's own member names that are not control fields. */
const ORDINARY = [
  'name',
  'title',
  'description',
  'label',
  'text',
  'prompt',
  'template',
  'greeting',
  'language',
  'locale',
  'tone',
  'style',
  'format',
  'temperature',
  'topP',
  'seed',
  'limit',
  'maxSteps',
  'maxAttempts',
  'timeoutMs',
  'retries',
  'count',
  'threshold',
  'enabled',
  'mode',
  'kind',
  'type',
  'value',
  'values',
  'items',
  'options',
  'tags',
  'labels',
  'id',
  'revision',
  'schemaVersion',
  'source',
  'sha256',
  'invocation',
  'catalogDigest',
  'nodes',
  'edges',
  'entrypoints',
  'outputs',
  'bounds',
  'config',
  'component',
  'from',
  'to',
  'port',
  'ports',
  'node',
  'idempotencyKey',
  'expectedPlanDigest',
  'key',
  'author',
  'client',
  'clientName',
  'original',
  'direction',
  'transcript',
  'description2',
  'summary',
  'role',
  'examples',
];

describe('controlFieldKind', () => {
  it.each(BY_KIND)('names the kind of %s', (name, kind) => {
    expect(controlFieldKind(name)).toBe(kind);
  });

  it.each(HIGH_RISK)('recognises the high-risk name %s', (name) => {
    expect(controlFieldKind(name)).toBeDefined();
  });

  it.each(DISGUISED.map((name) => [JSON.stringify(name), name]))('sees through the disguise %s', (_, name) => {
    expect(controlFieldKind(name)).toBeDefined();
  });

  it.each(ORDINARY)('leaves the ordinary name %s alone', (name) => {
    expect(controlFieldKind(name)).toBeUndefined();
  });

  it('recognises every stem of its own table, alone, capitalised, pluralised, prefixed and suffixed', () => {
    for (const { stem, kind } of CONTROL_FIELD_STEMS) {
      const capital = `${stem[0]?.toUpperCase()}${stem.slice(1)}`;
      const plural = stem.endsWith('s') ? [] : [`${stem}s`];
      for (const name of [
        stem,
        stem.toUpperCase(),
        capital,
        ...plural,
        `my${capital}`,
        `${stem}Value`,
        `my_${stem}_value`,
        `x-${stem}-y`,
      ]) {
        expect(controlFieldKind(name), `${name} (stem ${stem}, ${kind})`).toBeDefined();
      }
    }
  });

  it('answers each of the seed\u2019s kinds for some name', () => {
    const seen = new Set(CONTROL_FIELD_STEMS.map((stem) => controlFieldKind(stem.stem)));
    for (const kind of CONTROL_FIELD_KINDS) expect(seen, kind).toContain(kind);
  });

  it('splits camelCase, acronyms, separators and digits into words', () => {
    expect(splitWords('XApiKey')).toEqual(['x', 'api', 'key']);
    expect(splitWords('OAUTH2_token')).toEqual(['oauth', '2', 'token']);
    expect(splitWords('HTTPSProxyURL')).toEqual(['https', 'proxy', 'url']);
    expect(splitWords('base-url.path')).toEqual(['base', 'url', 'path']);
  });

  it('is not a control field when empty, and never throws on any string', () => {
    expect(controlFieldKind('')).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (name) => {
        const kind = controlFieldKind(name);
        expect(kind === undefined || (CONTROL_FIELD_KINDS as readonly string[]).includes(kind)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is unmoved by case, separators and surrounding words (property)', () => {
    const risky = fc.constantFrom(
      'token',
      'secret',
      'password',
      'command',
      'endpoint',
      'credential',
      'environment',
      'transport',
      'callback',
      'webhook',
    );
    const word = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(
        risky,
        word,
        word,
        fc.constantFrom('', '_', '-', '.', ' '),
        fc.boolean(),
        (stem, before, after, separator, upper) => {
          const name = [before, stem, after].join(separator);
          expect(controlFieldKind(upper ? name.toUpperCase() : name), name).toBeDefined();
        },
      ),
      { numRuns: 500 },
    );
  });
});

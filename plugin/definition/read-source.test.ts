import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cpuTimeOf } from '../../e2e/support/cpu-time';
import { decodeSource, lineIndex, MAX_DEFINITION_BYTES, readDefinitionSource } from './read-source';

// Pass-through spies, so a test can tell whether a file was opened or read.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    openSync: vi.fn(actual.openSync),
    readSync: vi.fn(actual.readSync),
    readFileSync: vi.fn(actual.readFileSync),
  };
});

const FILE = 'examples/x/agent.json';
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('lineIndex', () => {
  it('maps offsets to 1-based line:column across \\n, \\r\\n and \\r', () => {
    const at = lineIndex('ab\ncd\r\nef\rgh');
    expect(at(0)).toEqual({ line: 1, column: 1 });
    expect(at(2)).toEqual({ line: 1, column: 3 });
    expect(at(3)).toEqual({ line: 2, column: 1 });
    expect(at(7)).toEqual({ line: 3, column: 1 });
    expect(at(10)).toEqual({ line: 4, column: 1 });
    expect(at(12)).toEqual({ line: 4, column: 3 });
  });

  it('clamps offsets outside the text', () => {
    const at = lineIndex('a\nb');
    expect(at(-5)).toEqual({ line: 1, column: 1 });
    expect(at(99)).toEqual({ line: 2, column: 2 });
  });
});

describe('decodeSource', () => {
  it('decodes UTF-8', () => {
    expect(decodeSource(bytes('{"name": "é😀"}'), FILE)).toEqual({ text: '{"name": "é😀"}', diagnostics: [] });
  });

  it('strips a UTF-8 byte order mark', () => {
    expect(decodeSource(bytes([0xef, 0xbb, 0xbf], '{}'), FILE)).toEqual({ text: '{}', diagnostics: [] });
  });

  it('locates the first invalid byte by line and column', () => {
    const { text, diagnostics } = decodeSource(bytes('{\n  "a": 1,\n  "b', [0xff], '": 2\n}'), FILE);
    expect(text).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        code: 'agent_definition_invalid',
        rule: 'encoding',
        severity: 'error',
        path: '',
        file: FILE,
        line: 3,
        column: 5,
        message: 'the file is not valid UTF-8: byte 0xFF does not start a valid UTF-8 character',
        suggestion: 'save the file as UTF-8',
      },
    ]);
  });

  it.each([
    ['after CRLF lines', bytes('a\r\nb\r\nxy', [0xfe]), 3, 3],
    ['after a two-byte character', bytes('é', [0xc3, 0x28]), 1, 2],
    ['after an astral character (two UTF-16 units)', bytes('😀', [0x80]), 1, 3],
    ['a truncated sequence at the end', bytes('ab', [0xe2, 0x82]), 1, 3],
    ['an overlong encoding', bytes('a', [0xc0, 0xaf]), 1, 2],
    ['an encoded surrogate', bytes('a', [0xed, 0xa0, 0x80]), 1, 2],
    ['a code point above U+10FFFF', bytes('a', [0xf4, 0x90, 0x80, 0x80]), 1, 2],
    ['a BOM before the bad byte', bytes([0xef, 0xbb, 0xbf], 'a', [0xff]), 1, 2],
  ])('reports %s', (_name, input, line, column) => {
    expect(decodeSource(input, FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'encoding', line, column }),
    ]);
  });

  it('recognises UTF-16', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]);
    expect(decodeSource(utf16, FILE).diagnostics).toEqual([
      expect.objectContaining({
        rule: 'encoding',
        line: 1,
        column: 1,
        message: 'the file is UTF-16 encoded; an AgentDefinition must be UTF-8',
      }),
    ]);
  });

  it.each([
    ['an empty file', bytes('')],
    ['a whitespace-only file', bytes(' \n\t\r\n  ')],
    ['a file holding only a BOM', bytes([0xef, 0xbb, 0xbf], '\n')],
  ])('refuses %s', (_name, input) => {
    expect(decodeSource(input, FILE)).toEqual({
      diagnostics: [
        {
          code: 'agent_definition_invalid',
          rule: 'empty-file',
          severity: 'error',
          path: '',
          file: FILE,
          line: 1,
          column: 1,
          message: 'the file is empty; an AgentDefinition is a JSON or YAML object',
        },
      ],
    });
  });
});

describe('readDefinitionSource', () => {
  let dir: string;
  const write = (name: string, content: string | Uint8Array): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdef-read-source-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    vi.mocked(fs.openSync).mockClear();
    vi.mocked(fs.readSync).mockClear();
    vi.mocked(fs.readFileSync).mockClear();
  });

  it('reads and decodes a file', () => {
    const file = write('ok.json', '\ufeff{"name": "demo"}\n');
    expect(readDefinitionSource(file, FILE)).toEqual({ text: '{"name": "demo"}\n', diagnostics: [] });
    expect(fs.openSync).toHaveBeenCalledTimes(1);
  });

  it('refuses a 50 MB file quickly, without opening it', () => {
    const file = path.join(dir, 'huge.json');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 50 * 1024 * 1024); // sparse: no 50 MB written
    const { value: result, cpuMs } = cpuTimeOf(() => readDefinitionSource(file, FILE));
    expect(cpuMs).toBeLessThan(500);
    expect(result).toEqual({
      diagnostics: [
        {
          code: 'agent_definition_invalid',
          rule: 'file-size',
          severity: 'error',
          path: '',
          file: FILE,
          line: 1,
          column: 1,
          message:
            'the file is 50.0 MiB (52,428,800 bytes); an AgentDefinition may be at most 4.0 MiB (4,194,304 bytes)',
          suggestion: 'split large prompts or data out of the definition',
        },
      ],
    });
    expect(fs.openSync).not.toHaveBeenCalled();
    expect(fs.readSync).not.toHaveBeenCalled();
    expect(fs.readFileSync).not.toHaveBeenCalled();
  });

  it('accepts a file of exactly the limit and refuses one byte more', () => {
    expect(MAX_DEFINITION_BYTES).toBe(4 * 1024 * 1024);
    expect(readDefinitionSource(write('ten.json', '{"a": 12}\n'), FILE, 10).text).toBe('{"a": 12}\n');
    expect(readDefinitionSource(write('eleven.json', '{"a": 123}\n'), FILE, 10).diagnostics).toEqual([
      expect.objectContaining({
        rule: 'file-size',
        message: 'the file is 11 bytes; an AgentDefinition may be at most 10 bytes',
      }),
    ]);
  });

  it('reports a missing file as an I/O error, not a diagnostic', () => {
    expect(readDefinitionSource(path.join(dir, 'missing.json'), FILE)).toEqual({
      diagnostics: [],
      ioError: `cannot read ${FILE}: no such file`,
      missing: true,
    });
    expect(readDefinitionSource(path.join(dir, 'ok.json', 'below'), FILE).ioError).toBe(
      `cannot read ${FILE}: no such file`,
    );
  });

  it('reports a directory as an I/O error', () => {
    expect(readDefinitionSource(dir, FILE)).toEqual({
      diagnostics: [],
      ioError: `cannot read ${FILE}: it is a directory`,
    });
  });

  it('never throws, even for a path Node rejects', () => {
    const result = readDefinitionSource('bad\0path', FILE);
    expect(result.diagnostics).toEqual([]);
    expect(result.ioError).toMatch(new RegExp(`^cannot read ${FILE}: [^\\n]+$`));
  });

  it('reports an empty file and non-UTF-8 bytes as diagnostics', () => {
    expect(readDefinitionSource(write('empty.yaml', ''), FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'empty-file' }),
    ]);
    expect(readDefinitionSource(write('blank.yaml', '  \n\n'), FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'empty-file' }),
    ]);
    const latin1 = write('latin1.yaml', bytes('name: demo\nmodel: x\nnote: caf', [0xe9], '\n'));
    expect(readDefinitionSource(latin1, FILE).diagnostics).toEqual([
      expect.objectContaining({ rule: 'encoding', line: 3, column: 10 }),
    ]);
  });
});

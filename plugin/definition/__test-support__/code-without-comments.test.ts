import { describe, expect, it } from 'vitest';
import { codeWithoutComments } from './code-without-comments';

describe('codeWithoutComments', () => {
  it('drops line, block and JSDoc comments and keeps code, strings, templates and regexes as written', () => {
    const text = [
      '/** The limit: limits.cpuMs. */',
      'export const a = d.limits.wallClockMs; // limits.cpuMs',
      "const url = 'https://example.com/*not a comment*/';",
      'const t = `${base}//still code ${x /* gone */}`;',
      "const r = /\\/\\/ kept/; const p = '/toolInventory/*/version';",
      '/* block: limits.cpuMs */ const b = 1;',
      '',
    ].join('\n');
    const code = codeWithoutComments('x.ts', text);
    expect(code).not.toContain('limits.cpuMs');
    expect(code).not.toContain('gone');
    expect(code).toContain('export const a = d.limits.wallClockMs;');
    expect(code).toContain("'https://example.com/*not a comment*/'");
    expect(code).toContain('`${base}//still code ${x }`');
    expect(code).toContain("const r = /\\/\\/ kept/; const p = '/toolInventory/*/version';");
    expect(code).toContain(' const b = 1;');
  });
});

/**
 * A parsed definition file: its plain value (no prototypes, so `__proto__` keys are data) and a
 * way to find where any JSON Pointer sits in the original text.
 */
export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units. */
  column: number;
}

export interface SourceDocument {
  /** The file name as the caller gave it. */
  file: string;
  format: 'json' | 'yaml';
  /** The original text (UTF-8 decoded, BOM removed). */
  text: string;
  /** The parsed value. Objects are created with a null prototype. */
  value: unknown;
  /**
   * Where the value (or, with `at: 'key'`, the property name) at `pointer` starts. A pointer that
   * does not exist resolves to its nearest existing ancestor.
   */
  locate(pointer: string, at?: 'key' | 'value'): SourcePosition;
}

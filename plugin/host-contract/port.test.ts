/** The port checks `agentdef run --port` and the `run` executor share. */
import { describe, expect, it } from 'vitest';
import { checkPort, isPort, parsePort } from './port';

describe('ports', () => {
  it('accepts whole numbers from 0 to 65535', () => {
    for (const port of [0, 1, 8080, 65535]) expect(isPort(port)).toBe(true);
    for (const value of [-1, 65536, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '80', null, undefined])
      expect(isPort(value)).toBe(false);
  });

  it('parses --port text, naming the flag and the text when it is no port', () => {
    expect(parsePort(undefined)).toBeUndefined();
    expect(parsePort('0')).toBe(0);
    expect(parsePort('00080')).toBe(80);
    expect(parsePort('65535')).toBe(65535);
    for (const text of ['65536', '70000', '123456', '-1', '8.5', 'http', '', ' 80', '0x50']) {
      expect(parsePort(text)).toBe(`--port must be a number from 0 to 65535, not "${text}"`);
    }
  });

  it('checks an option value, naming the option and the value when it is no port', () => {
    expect(checkPort(undefined)).toBeUndefined();
    expect(checkPort(4000)).toBeUndefined();
    expect(checkPort(70000)).toBe('port must be a number from 0 to 65535, not 70000');
    expect(checkPort('80')).toBe('port must be a number from 0 to 65535, not 80');
    expect(checkPort(1.5, 'listenPort')).toBe('listenPort must be a number from 0 to 65535, not 1.5');
  });
});

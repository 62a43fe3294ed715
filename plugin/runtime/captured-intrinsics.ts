/**
 * The built-ins egress verdicts are made with (URL parsing and its getters, `Set.prototype.has`,
 * `Request`, `Headers`), captured when this module is evaluated. The hosts' guards import it
 * before any tool module is evaluated (it is a dependency of their first import), so a tool that
 * later replaces `URL`, redefines `URL.prototype.origin` or patches `Set.prototype.has` cannot
 * change a verdict: the guards read URLs and allow-lists only through these.
 */

type Uncurried<T, A extends unknown[], R> = (self: T, ...args: A) => R;

/** `fn` as a plain function of its `this`, bound now (later changes to `Function.prototype.call` do not reach it). */
function uncurry<T, A extends unknown[], R>(fn: (this: T, ...args: A) => R): Uncurried<T, A, R> {
  return Function.prototype.bind.call(Function.prototype.call, fn) as Uncurried<T, A, R>;
}

const NativeURL = URL;
const getter = (name: 'href' | 'origin' | 'protocol' | 'host' | 'hostname' | 'port' | 'username' | 'password') => {
  const descriptor = Object.getOwnPropertyDescriptor(NativeURL.prototype, name);
  if (!descriptor?.get) throw new TypeError(`URL.prototype.${name} has no getter on this platform`);
  return uncurry(descriptor.get as (this: URL) => string);
};

/** URL operations that later patches of `URL` cannot reach. */
export const nativeUrl = Object.freeze({
  parse: (text: string, base?: string | URL): URL =>
    base === undefined ? new NativeURL(text) : new NativeURL(text, base),
  href: getter('href'),
  origin: getter('origin'),
  protocol: getter('protocol'),
  host: getter('host'),
  hostname: getter('hostname'),
  port: getter('port'),
  username: getter('username'),
  password: getter('password'),
});

/** `Set.prototype.has` as it was. */
export const setHas = uncurry(Set.prototype.has) as (set: ReadonlySet<unknown>, value: unknown) => boolean;

/** `Request` and `Headers` as they were. */
export const NativeRequest = Request;
export const NativeHeaders = Headers;

/** `Set.prototype.add` as it was. */
export const setAdd = uncurry(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;

/** `String.prototype.indexOf` and `String.prototype.slice` as they were. */
export const stringIndexOf = uncurry(String.prototype.indexOf) as (
  text: string,
  search: string,
  position?: number,
) => number;
export const stringSlice = uncurry(String.prototype.slice) as (text: string, start?: number, end?: number) => string;

/** Where a run's secrets come from (binding name → value: `env` on Workers, the keychain on local hosts), and reading one. */
export type SecretSource =
  | Record<string, string | undefined>
  | ((bindingName: string) => string | undefined | Promise<string | undefined>);

/** The secret named `name`, or undefined when it is not set (an empty string is not set). */
export async function readSecret(source: SecretSource | undefined, name: string): Promise<string | undefined> {
  if (!source) return undefined;
  const value = typeof source === 'function' ? await source(name) : source[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The conventional name of a model provider's secret binding: the binding the generator
 * scaffolds for a remote pin and the one the compiled runtime looks for first.
 */

/** `openai` → `OPENAI_API_KEY`, `azure-openai` → `AZURE_OPENAI_API_KEY`, `custom:acme` → `ACME_API_KEY`. */
export function providerKeyName(providerId: string): string {
  return `${providerId
    .replace(/^custom:/, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}_API_KEY`;
}

/**
 * Property tests are reproducible: every fast-check property of the suite runs with one fixed
 * seed, so a CI run explores exactly what a developer's run explores, and a counterexample found
 * once is found again. `FC_SEED=<n>` picks another seed; `FC_SEED=random` lets fast-check choose
 * (and print) one, for exploring. A counterexample found that way becomes a regression case.
 */
import * as fc from 'fast-check';

const DEFAULT_SEED = 20_261_130;
const chosen = process.env['FC_SEED'];
if (chosen !== 'random') {
  const seed = chosen === undefined || chosen === '' ? DEFAULT_SEED : Number(chosen);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not "${chosen}"`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}

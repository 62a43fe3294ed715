/** The two outputs the interruption tests' writer process alternates between. */
export const OUTPUT_A = [
  { path: 'plan.json', contents: '"A"' },
  { path: 'src/a.ts', contents: 'a'.repeat(2000) },
];
export const OUTPUT_B = [
  { path: 'plan.json', contents: '"B"' },
  { path: 'worker.js', contents: 'b'.repeat(3000) },
  { path: 'src/deep/b.ts', contents: 'b' },
];

/** Two outputs whose plan.json names a target, so the output reader (outputTarget) reads them as compile outputs. */
export const PLANNED_A = [
  { path: 'plan.json', contents: '{"target":"hb3","output":"A"}' },
  { path: 'job/a.js', contents: 'a'.repeat(2000) },
];
export const PLANNED_B = [
  { path: 'plan.json', contents: '{"target":"hb3","output":"B"}' },
  { path: 'job/b.js', contents: 'b'.repeat(3000) },
  { path: 'job/deep/b.json', contents: '{}' },
];

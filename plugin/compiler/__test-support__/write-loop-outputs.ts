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

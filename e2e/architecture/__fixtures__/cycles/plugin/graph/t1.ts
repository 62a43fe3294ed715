// t1 ⇄ t2, one way only through an erased type: no cycle at run time
import type { T2 } from './t2';
export type T1 = { next?: T2 };
export const one = 1;

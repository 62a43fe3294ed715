import { one } from './t1';
export type T2 = { value: number };
export const two = one + 1;

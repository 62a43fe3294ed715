// imports into the cycle, but nothing imports it back: not part of it
import { a } from './a';
export const c = a;

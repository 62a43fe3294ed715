import { later } from './l1';
export const l2 = later;

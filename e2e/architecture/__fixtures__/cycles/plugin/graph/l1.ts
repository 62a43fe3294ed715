// l1 ⇄ l2, one way only through import(): loaded late, no cycle in the load order
export const later = () => import('./l2.js');

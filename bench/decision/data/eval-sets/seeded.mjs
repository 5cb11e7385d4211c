/** FNV-1a of a string: a stable pseudo-random choice that does not depend on list order. */
export function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function pick(list, key) {
  return list[hash(key) % list.length];
}

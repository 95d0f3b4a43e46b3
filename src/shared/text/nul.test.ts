import { describe, expect, it } from 'vitest';
import { stripNul, stripNulDeep } from './nul';

describe('stripNulDeep', () => {
  it('removes NUL from every string and key, however deep, and leaves the rest alone', () => {
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 100_000; i++) {
      const next: unknown[] = [];
      cursor.push(next);
      cursor = next;
    }
    cursor.push('bottom\u0000');
    const value = {
      'ti\u0000tle': 'a\u0000b',
      list: ['x\u0000', 1, null, { n: '\u0000' }],
      deep,
      same: 'ok',
    };
    const clean = stripNulDeep(value) as Record<string, unknown>;
    expect(clean.title).toBe('ab');
    expect('ti\u0000tle' in clean).toBe(false);
    expect(clean.list).toEqual(['x', 1, null, { n: '' }]);
    expect(clean.same).toBe('ok');
    let bottom: unknown = clean.deep;
    while (Array.isArray(bottom) && Array.isArray(bottom[0])) bottom = bottom[0];
    expect(bottom).toEqual(['bottom']);
    expect(stripNul('plain')).toBe('plain');
  });
});

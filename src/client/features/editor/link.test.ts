import { describe, expect, it } from 'vitest';
import { normalizeLinkInput } from './link';

describe('link whitelist', () => {
  it('accepts the whitelisted schemes and relative links', () => {
    for (const href of [
      'http://a.test',
      'HTTPS://a.test/x?y#z',
      'ftp://files.test',
      'ftps://files.test',
      'mailto:me@a.test',
      'tel:+123',
      'callto:someone',
      'sms:+123',
      'cid:part1',
      'xmpp:me@a.test',
      '/relative/path',
      '#anchor',
      '?q=1',
      'docs/page',
      '//cdn.test/x',
    ]) {
      expect(normalizeLinkInput(href), href).not.toBeNull();
    }
  });

  it('rejects every other scheme, including disguised javascript:', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' java\tscript:alert(1)',
      '\u0000javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'javascript&colon;alert(1)',
    ]) {
      expect(normalizeLinkInput(href), href).toBeNull();
    }
  });

  it('normalizes prompt input: default protocol for bare hosts, null for rejected or empty input', () => {
    expect(normalizeLinkInput('example.com')).toBe('http://example.com');
    expect(normalizeLinkInput('  https://example.com/a  ')).toBe('https://example.com/a');
    expect(normalizeLinkInput('/docs')).toBe('/docs');
    expect(normalizeLinkInput('mailto:a@b.test')).toBe('mailto:a@b.test');
    expect(normalizeLinkInput('javascript:alert(1)')).toBeNull();
    expect(normalizeLinkInput('   ')).toBeNull();
  });
});

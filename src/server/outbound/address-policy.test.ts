import { describe, expect, it } from 'vitest';
import {
  AllowEntryError,
  classifyAddress,
  outboundPolicy,
  parseAllowEntry,
  parseAllowList,
  refusalOf,
} from './address-policy';

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'internal'],
    ['172.16.0.1', 'internal'],
    ['192.168.1.1', 'internal'],
    ['100.64.0.1', 'internal'],
    ['fc00::1', 'internal'],
    ['0.0.0.0', 'internal'],
    ['::', 'internal'],
    ['64:ff9b::a00:1', 'internal'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:169.254.9.9', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
  ] as const)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('the allow list', () => {
  it('parses addresses, ranges, host names and URLs, with or without a port', () => {
    expect(
      parseAllowList('127.0.0.1, 10.0.0.0/8,[::1]:11434, ollama.lan:11434 ,http://localhost:1234/v1'),
    ).toEqual([
      expect.objectContaining({ kind: 'range', port: undefined }),
      expect.objectContaining({ kind: 'range', port: undefined }),
      expect.objectContaining({ kind: 'range', port: 11434 }),
      { kind: 'host', host: 'ollama.lan', port: 11434 },
      { kind: 'host', host: 'localhost', port: 1234 },
    ]);
    for (const bad of ['10.0.0.0/99', 'ollama.lan:99999', 'a b', '[zz]:1', 'host:1:2'])
      expect(() => parseAllowEntry(bad), bad).toThrow(AllowEntryError);
  });

  it('opens loopback and private addresses only where an entry matches, port included', () => {
    const none = outboundPolicy();
    expect(refusalOf(none, 'api.example.com', '8.8.8.8', 443)).toBeUndefined();
    expect(refusalOf(none, 'localhost', '127.0.0.1', 11434)).toMatch(/loopback/);
    expect(refusalOf(none, 'nas', '192.168.1.5', 80)).toMatch(/internal/);

    const some = outboundPolicy(parseAllowList('127.0.0.1:11434,10.0.0.0/8,ollama.lan'));
    expect(refusalOf(some, '127.0.0.1', '127.0.0.1', 11434)).toBeUndefined();
    expect(refusalOf(some, '127.0.0.1', '127.0.0.1', 22)).toMatch(/not in OUTBOUND_ALLOWED_HOSTS/);
    expect(refusalOf(some, 'gpu', '10.9.8.7', 8000)).toBeUndefined();
    expect(refusalOf(some, 'gpu', '::ffff:10.9.8.7', 8000)).toBeUndefined();
    expect(refusalOf(some, 'OLLAMA.lan', '192.168.1.9', 11434)).toBeUndefined();
    expect(refusalOf(some, 'other.lan', '192.168.1.9', 11434)).toMatch(/not in OUTBOUND_ALLOWED_HOSTS/);
  });

  it('never opens link-local or metadata addresses, whatever the entries say', () => {
    const everything = outboundPolicy(
      parseAllowList('0.0.0.0/0,::/0,169.254.0.0/16,metadata.google.internal'),
    );
    expect(refusalOf(everything, '10.0.0.1', '10.0.0.1', 80)).toBeUndefined();
    for (const address of ['169.254.169.254', '169.254.10.10', 'fe80::1', 'fd00:ec2::254', '100.100.100.200'])
      expect(refusalOf(everything, 'metadata.google.internal', address, 80), address).toMatch(
        /never allowed/,
      );
  });
});

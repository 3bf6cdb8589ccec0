import { createHash } from 'node:crypto';
import { AUDIT_TEXT_KEPT_CHARS, AUDIT_TEXT_MAX_CHARS, auditText } from './audit-text';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('auditText', () => {
  it('keeps every name the API can hold whole', () => {
    const longest = `prn::/scope:${'s'.repeat(255)}/reader-group:${'g'.repeat(250)}`;
    expect(longest.length).toBeLessThanOrEqual(AUDIT_TEXT_MAX_CHARS);
    expect(auditText(longest)).toBe(longest);
    expect(auditText('prn::/')).toBe('prn::/');
    expect(auditText('')).toBe('');
  });

  it('keeps a text of exactly the maximum whole, and shortens one character more', () => {
    const most = 'x'.repeat(AUDIT_TEXT_MAX_CHARS);
    expect(auditText(most)).toBe(most);
    const over = `${most}y`;
    expect(auditText(over)).toBe(`${'x'.repeat(AUDIT_TEXT_KEPT_CHARS)}…${sha256(over)}`);
  });

  it('shortens a long text to its start, an ellipsis and the digest of the whole', () => {
    const name = `prn::/scope:${'a1b2'.repeat(1000)}`;
    const stored = auditText(name);
    expect(stored).toBe(`${name.slice(0, AUDIT_TEXT_KEPT_CHARS)}…${sha256(name)}`);
    expect(stored).toHaveLength(AUDIT_TEXT_MAX_CHARS);
    // Texts that differ only past the kept start stay apart.
    expect(auditText(`${name}z`)).not.toBe(stored);
  });

  it('changes nothing when given a shortened text', () => {
    const stored = auditText('q'.repeat(15_000));
    expect(auditText(stored)).toBe(stored);
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    // Each emoji is two UTF-16 units and four UTF-8 bytes: the worst case for the index.
    const emoji = '\u{1F600}';
    const whole = emoji.repeat(AUDIT_TEXT_MAX_CHARS);
    expect(auditText(whole)).toBe(whole);
    const long = emoji.repeat(4000);
    const stored = auditText(long);
    expect(stored).toBe(`${emoji.repeat(AUDIT_TEXT_KEPT_CHARS)}…${sha256(long)}`);
    expect([...stored]).toHaveLength(AUDIT_TEXT_MAX_CHARS);
    // What PostgreSQL's B-tree index takes: 2,704 bytes per entry, the other columns included.
    expect(utf8Bytes(whole)).toBeLessThanOrEqual(2600);
    expect(utf8Bytes(stored)).toBeLessThanOrEqual(2600);
  });

  it('stores a NUL as U+FFFD, and digests the text as it was sent', () => {
    expect(auditText('prn::/scope:a\0b')).toBe('prn::/scope:a\uFFFDb');
    const long = `\0${'n'.repeat(1000)}`;
    expect(auditText(long)).toBe(`\uFFFD${'n'.repeat(AUDIT_TEXT_KEPT_CHARS - 1)}…${sha256(long)}`);
  });
});

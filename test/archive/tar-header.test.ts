import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encodeCanonicalHeader, formatPaxRecord, splitUstarPath } from '../../src/archive/tar-header.js';
import { COMPAT, compatDigest } from './compat-digests.js';

test("a USTAR header matches zot's bytes field by field", (t) => {
  const reference = readFileSync(path.join(COMPAT, 'code-reviewer.tar'));
  const agentMd = readFileSync(path.join(COMPAT, 'agents/code-reviewer/AGENT.md'));
  t.deepEqual(encodeCanonicalHeader('AGENT.md', 'file', 0o644, agentMd.length), reference.subarray(0, 512));
});

test('long paths use the USTAR prefix split and unsplittable or non-ASCII paths use PAX, as in edge-cases.tar', (t) => {
  const reference = readFileSync(path.join(COMPAT, 'edge-cases.tar'));
  const names = compatDigest('agents/edge-cases').entries;
  // Walk the reference and compare each header run with ours.
  let offset = 0;
  for (const name of names) {
    const isDirectory = name.endsWith('/');
    const file = path.join(COMPAT, 'agents/edge-cases', name);
    const size = isDirectory ? 0 : readFileSync(file).length;
    const mode = name === 'scripts/run.sh' || isDirectory ? 0o755 : 0o644;
    const ours = encodeCanonicalHeader(name, isDirectory ? 'directory' : 'file', mode, size);
    t.deepEqual(ours, reference.subarray(offset, offset + ours.length), name);
    offset += ours.length + Math.ceil(size / 512) * 512;
  }
  t.is(offset + 1024, reference.length);
});

test("the USTAR split follows Go's rule", (t) => {
  t.is(splitUstarPath('short'), undefined);
  const dir = `${'a'.repeat(60)}/${'b'.repeat(60)}/`;
  t.deepEqual(splitUstarPath(dir), { prefix: 'a'.repeat(60), suffix: `${'b'.repeat(60)}/` });
  t.is(splitUstarPath('n'.repeat(124)), undefined, 'no slash to split at');
  t.is(splitUstarPath(`${'p'.repeat(156)}/x`), undefined, 'prefix longer than 155');
  t.is(splitUstarPath(`a/${'n'.repeat(101)}`), undefined, 'name part longer than 100');
  t.is(splitUstarPath(`${'é'.repeat(60)}/${'b'.repeat(60)}`), undefined, 'non-ASCII never splits');
});

test('a PAX record counts its own length digits', (t) => {
  t.is(formatPaxRecord('path', 'café.md'), '17 path=café.md\n');
  // " path=" + value + "\n" is 97 bytes for 90 x's: 2 digits make 99. One more x needs 3 digits: 101.
  t.is(formatPaxRecord('path', 'x'.repeat(90)), `99 path=${'x'.repeat(90)}\n`);
  t.is(formatPaxRecord('path', 'x'.repeat(91)), `101 path=${'x'.repeat(91)}\n`);
});

test('a PAX directory header is named "<dir>/PaxHeaders.0" like Go\'s path.Split of a trailing-slash name', (t) => {
  const header = encodeCanonicalHeader('data/dossier-é/', 'directory', 0o755, 0);
  t.is(header.length, 512 * 3);
  t.is(header.toString('latin1', 0, 100).replace(/\0+$/, ''), 'data/dossier-/PaxHeaders.0');
  t.is(String.fromCharCode(header[156]!), 'x');
  t.is(header.toString('latin1', 1024, 1124).replace(/\0+$/, ''), 'data/dossier-/');
  t.is(String.fromCharCode(header[1024 + 156]!), '5');
});

test('every header checksum is six octal digits, NUL, space', (t) => {
  const header = encodeCanonicalHeader('a', 'file', 0o644, 1);
  t.regex(header.toString('latin1', 148, 156), /^[0-7]{6}\0 $/);
});

// Reading what an ELF file loads (its loader, needed libraries, RUNPATH and RPATH)
// from its program headers and dynamic section. Real files: the system's true, and
// programs built here with the real cc. Expected values by hand.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readElfLoads } from '../../src/policy/elf-loads.js';
import { tempDir } from '../fixtures/temp.js';

test("the system's true asks for the x86-64 loader and libc, with no search path of its own", (t) => {
  const loads = readElfLoads(realpathSync('/usr/bin/true'));
  t.is(loads?.interpreter, '/lib64/ld-linux-x86-64.so.2');
  t.deepEqual(loads?.needed, ['libc.so.6']);
  t.deepEqual(loads?.searchPaths, []);
});

test('a program built with a RUNPATH reports each entry as written, $ORIGIN and empty entries included', (t) => {
  const root = tempDir(t, 'zb-elf-');
  const main = path.join(root, 'main.c');
  writeFileSync(main, 'int main(void) { return 0; }\n');
  const program = path.join(root, 'main');
  execFileSync('cc', ['-o', program, main, '-Wl,--enable-new-dtags', '-Wl,-rpath,lib::$ORIGIN/../lib:/opt/x/lib']);
  const loads = readElfLoads(program);
  t.deepEqual(loads?.searchPaths, ['lib', '', '$ORIGIN/../lib', '/opt/x/lib']);
  t.true(loads?.needed.includes('libc.so.6'));
});

test('a file that is not ELF is undefined; an ELF file cut inside its headers throws', (t) => {
  const root = tempDir(t, 'zb-elf-');
  const script = path.join(root, 'script');
  writeFileSync(script, '#!/bin/sh\n');
  t.is(readElfLoads(script), undefined);
  const cut = path.join(root, 'cut');
  writeFileSync(cut, readFileSync(realpathSync('/usr/bin/true')).subarray(0, 80));
  t.throws(() => readElfLoads(cut));
});

test('a dynamic section past the bound of what is read throws: its further entries are not known to be harmless', (t) => {
  const root = tempDir(t, 'zb-elf-');
  const bytes = Buffer.from(readFileSync(realpathSync('/usr/bin/true')));
  // The program headers of this 64-bit little-endian file: find PT_DYNAMIC (2) and declare 100,000 entries.
  const table = Number(bytes.readBigUInt64LE(0x20));
  const entrySize = bytes.readUInt16LE(0x36);
  const count = bytes.readUInt16LE(0x38);
  const dynamic = [...Array(count).keys()].map((index) => table + index * entrySize).find((at) => bytes.readUInt32LE(at) === 2);
  if (dynamic === undefined) return t.fail('/usr/bin/true has no dynamic section');
  bytes.writeBigUInt64LE(16n * 100_000n, dynamic + 32);
  const file = path.join(root, 'long-dynamic');
  writeFileSync(file, bytes);
  t.throws(() => readElfLoads(file), { message: /dynamic section of 100000 entries/ });
});

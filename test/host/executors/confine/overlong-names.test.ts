// Words no file can be named (overlong-names.ts): a program a hook runs holding a literal longer than NAME_MAX (Yarn's
// .pnp.cjs holds a base64 wasm) names nothing, and refuses no writer; a long path whose components all fit, and any
// other failure to look a word up, still refuse (closed world). Real files; outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hasOverlongComponent, NAME_MAX } from '../../../../src/host/executors/confine/overlong-names.js';
import { currentControlLocations, refuseProtectedWrite } from '../../../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../../../fixtures/temp.js';

/** A workspace whose pre-commit hook runs `node tools/check.js`, a program holding `literal` as a string. */
function hookProgram(t: Parameters<typeof tempDir>[0], literal: string, files: Readonly<Record<string, string>> = {}): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-overlong-')), 'ws');
  const all = { '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.js\n', 'tools/check.js': `const data = "${literal}";\nrequire("./rules.js");\n`, 'tools/rules.js': '', ...files };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content, { mode: 0o755 });
  }
  return ws;
}

/** What the gate and the write tool are given: the protected locations, or why zotbox cannot know them. */
const controlsOf = (ws: string) => currentControlLocations([ws], [], { home: '/nonexistent-home', noSystem: true, environment: { PATH: process.env['PATH'] ?? '' } });

/** The protected paths (relative), or why zotbox cannot know them (then every writer is refused). */
function controls(ws: string): { paths: string[] } | { unavailable: string } {
  const found = controlsOf(ws);
  return 'unavailable' in found ? found : { paths: found.locations.map((location) => path.relative(ws, location.path)) };
}

test('a component is overlong past NAME_MAX bytes of UTF-8, not characters', (t) => {
  t.is(NAME_MAX, 255);
  t.false(hasOverlongComponent(`/ws/${'a'.repeat(255)}/x`));
  t.true(hasOverlongComponent(`/ws/${'a'.repeat(256)}/x`));
  t.false(hasOverlongComponent(`/ws/${'é'.repeat(127)}`)); // 254 bytes
  t.true(hasOverlongComponent(`/ws/${'é'.repeat(128)}`)); // 256 bytes
  t.false(hasOverlongComponent(Array.from({ length: 400 }, () => 'abcdefghij').join('/'))); // long, every component fits
});

test('a 300-byte literal in a program a hook runs names nothing: an unrelated write is accepted, the program stays protected', (t) => {
  const ws = hookProgram(t, 'A'.repeat(300));
  const found = controls(ws);
  if (!('paths' in found)) return t.fail(`every writer refused: ${found.unavailable.slice(0, 200)}`);
  t.true(found.paths.includes('tools/check.js'));
  t.true(found.paths.includes('tools/rules.js'));
  t.false(found.paths.some((p) => p.includes('AAAA')));
  t.notThrows(() => refuseProtectedWrite(path.join(ws, 'src/other.js'), [ws], controlsOf(ws)));
  t.throws(() => refuseProtectedWrite(path.join(ws, 'tools/rules.js'), [ws], controlsOf(ws)), { code: 'ZB_POLICY_PATH_PROTECTED' });
});

test('a literal longer than PATH_MAX with an overlong component (a base64 wasm, slashes and all) names nothing', (t) => {
  const wasm = `${'QUJD/'.repeat(900)}${'QUJD'.repeat(100)}`; // 4900 bytes; its last component is 400 bytes
  t.deepEqual(Object.keys(controls(hookProgram(t, wasm))), ['paths']);
});

test('a literal of many short components longer than PATH_MAX still refuses every writer: such a deep path may exist', (t) => {
  const deep = Array.from({ length: 400 }, () => 'abcdefghij').join('/'); // 4399 bytes, components of 10
  const found = controls(hookProgram(t, deep));
  t.true('unavailable' in found && found.unavailable.includes('ENAMETOOLONG'));
});

test('a name of exactly NAME_MAX bytes that exists is looked up as any other: protected', (t) => {
  const name = 'B'.repeat(255);
  const found = controls(hookProgram(t, name, { [name]: 'echo run\n' }));
  t.true('paths' in found && found.paths.includes(name));
});

test('an overlong word the kernel refuses for another reason (a link loop on the way: ELOOP) still refuses every writer', (t) => {
  const ws = hookProgram(t, `loop/${'A'.repeat(300)}`);
  symlinkSync('loop', path.join(ws, 'loop'));
  const found = controls(ws);
  t.true('unavailable' in found && found.unavailable.includes('ELOOP'));
});

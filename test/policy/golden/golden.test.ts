// The bash gate against its hand-written golden corpus (issue 10 item 7): every
// case decided in a fresh world, all of them, then every mismatch listed at once
// (expected vs actual code and the gate's reason), grouped by program.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { buildGateWorld, worldContext, worldScopes, type GateWorld } from '../../fixtures/golden-world.js';
import { tempDir } from '../../fixtures/temp.js';
import { ALLOWLISTS, caseSettings, expandCommand, GOLDEN_CORPUS } from './corpus.js';
import type { GoldenCase } from './golden-case.js';

interface Mismatch {
  readonly program: string;
  readonly command: string;
  readonly settings: string;
  readonly expected: string;
  readonly actual: string;
  readonly reason: string;
}

function contextsFor(world: GateWorld): (c: GoldenCase) => ShellContext {
  const built = new Map<string, ShellContext>();
  return (c) => {
    const { scopes, allow, confined } = caseSettings(c);
    const key = `${scopes}|${allow}|${confined}`;
    let context = built.get(key);
    if (context === undefined) {
      context = worldContext(world, worldScopes(world, scopes), ALLOWLISTS[allow], confined);
      built.set(key, context);
    }
    return context;
  };
}

function describeSettings(c: GoldenCase): string {
  const { scopes, allow, confined } = caseSettings(c);
  const parts = [scopes === 'workspace' ? '' : `write: ${scopes}`, allow === 'all' ? '' : `allow: ${allow}`, confined ? '' : 'unconfined'];
  return parts.filter((p) => p !== '').join(', ');
}

function formatMismatches(mismatches: readonly Mismatch[]): string {
  const byProgram = new Map<string, Mismatch[]>();
  for (const m of mismatches) byProgram.set(m.program, [...(byProgram.get(m.program) ?? []), m]);
  const lines: string[] = [];
  for (const [program, list] of byProgram) {
    lines.push(`${program} (${list.length}):`);
    for (const m of list) lines.push(`  ${m.command}${m.settings === '' ? '' : `  [${m.settings}]`}\n    expected ${m.expected}, got ${m.actual}${m.reason === '' ? '' : `: ${m.reason}`}`);
  }
  return lines.join('\n');
}

test('every command of the golden corpus gets the decision the principles give', (t) => {
  const world = buildGateWorld(realpathSync(tempDir(t, 'zb-golden-')));
  const contextOf = contextsFor(world);
  const mismatches: Mismatch[] = [];
  let total = 0;
  for (const group of GOLDEN_CORPUS) {
    for (const c of group.cases) {
      total++;
      const decision = decideShellCommand(expandCommand(c.command, world), contextOf(c));
      const actual = decision.allow ? 'allow' : decision.code;
      if (actual !== c.expected) {
        mismatches.push({ program: group.program, command: c.command, settings: describeSettings(c), expected: c.expected, actual, reason: decision.allow ? '' : decision.reason });
      }
    }
  }
  t.log(`golden corpus: ${total} cases, ${total - mismatches.length} pass, ${mismatches.length} mismatch`);
  t.is(mismatches.length, 0, `${mismatches.length} of ${total} cases decided otherwise than the corpus says:\n${formatMismatches(mismatches)}`);
});

test('the corpus is well formed: every denial says why, no case is written twice', (t) => {
  const seen = new Set<string>();
  for (const group of GOLDEN_CORPUS) {
    for (const c of group.cases) {
      const key = `${c.command}|${describeSettings(c)}`;
      t.false(seen.has(key), `written twice: ${key}`);
      seen.add(key);
      if (c.expected !== 'allow') t.true((c.why ?? '').length > 0, `a denial without a why: ${c.command}`);
    }
  }
});

test('the world holds what the corpus assumes of it', (t) => {
  const world = buildGateWorld(realpathSync(tempDir(t, 'zb-golden-world-')));
  t.is(realpathSync(path.join(world.ws, 'toS')), world.secret);
  t.is(realpathSync(path.join(world.ws, 'linkdir', 'toS')), world.secret);
  t.is(readlinkSync(path.join(world.ws, 'linkdir', 'toS')), '../../secret/key.txt');
  t.true(lstatSync(path.join(world.ws, 'cmpdir', 'toS')).isFile());
  t.is(statSync(path.join(world.ws, 'hl.txt')).nlink, 2);
  t.is(statSync(path.join(world.ws, 'hl.txt')).ino, statSync(path.join(world.outside, 'linked.txt')).ino);
  t.true(statSync(path.join(world.ws, '.git')).isDirectory());
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: world.ws, env: { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_OPTIONAL_LOCKS: '0' } }).toString();
  t.is(git('status', '--porcelain', '--untracked-files=no'), ' M app.txt\n'); // the uncommitted edit
  t.is(git('branch', '--format=%(refname:short)'), 'main\nsomebranch\n');
  t.true(statSync(path.join(world.ws, 'emptydir')).isDirectory());
  t.true(statSync(path.join(world.ro, 'emptydir')).isDirectory());
  // The scopes: W read+write, R read only; the secret and the outside directory in neither.
  const scopes = worldScopes(world, 'workspace');
  t.deepEqual(
    scopes.read.map((s) => s.root),
    [world.ws, world.ro],
  );
  t.deepEqual(
    scopes.write.map((s) => s.root),
    [world.ws],
  );
  t.deepEqual(
    worldScopes(world, 'changelog').write.map((s) => s.root),
    [path.join(world.ws, 'CHANGELOG.md')],
  );
});

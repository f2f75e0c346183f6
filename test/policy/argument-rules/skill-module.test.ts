// python -m NAME of a skill's own module (issue 25, skill-module.ts): allowed only
// from the skill's folder at /zotbox/skills/<name>, when NAME resolves there as
// python resolves it from its working directory; everything else stays denied,
// saying what to write instead. Decisions written by hand.
import test, { type ExecutionContext } from 'ava';
import type { ImageIndex } from '../../../src/policy/image-paths.js';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { gateWorld } from '../../fixtures/gate-world.js';

const ENTRIES: readonly (readonly [string, 'file' | 'directory'])[] = [
  ['', 'directory'],
  ['skills', 'directory'],
  ['skills/sc', 'directory'],
  ['skills/sc/SKILL.md', 'file'],
  ['skills/sc/scripts', 'directory'],
  ['skills/sc/scripts/__init__.py', 'file'],
  ['skills/sc/scripts/run_eval.py', 'file'],
  ['skills/sc/scripts/tool', 'directory'],
  ['skills/sc/scripts/tool/__init__.py', 'file'],
  ['skills/sc/scripts/tool/__main__.py', 'file'],
  ['skills/sc/scripts/lib', 'directory'],
  ['skills/sc/scripts/lib/__init__.py', 'file'],
  ['skills/sc/scripts/lib.py', 'file'],
  ['skills/sc/loose', 'directory'],
  ['skills/sc/loose/x.py', 'file'],
  ['skills/sc/top.py', 'file'],
  ['skills/sc/json', 'directory'],
  ['skills/sc/json/__init__.py', 'file'],
  ['skills/sc/json/x.py', 'file'],
  ['skills/sc/timeit.py', 'file'],
  ['skills/sc/_private.py', 'file'],
  ['assets', 'directory'],
  ['assets/a.py', 'file'],
];

function contextWith(t: ExecutionContext, inCommands: boolean): { context: ShellContext; expand: (s: string) => string } {
  const world = gateWorld(t);
  const index = new Map(ENTRIES);
  const image: ImageIndex = inCommands ? { kindOf: (e) => index.get(e), inCommands } : { kindOf: (e) => index.get(e), inCommands, notInCommands: 'confinement is off for this run' };
  const scopes = { ...world.context.scopes, context: { ...world.context.scopes.context, image } };
  return { context: { ...world.context, scopes }, expand: world.expand };
}

const ALLOWED = [
  'cd /zotbox/skills/sc && python3 -m scripts.run_eval --model x -v',
  'cd /zotbox/skills/sc && python3 -B -m scripts.run_eval',
  'cd /zotbox/skills/sc && python3 -m scripts.tool a',
  'cd /zotbox/skills/sc && python3 -m top',
  'cd /zotbox/skills/sc && python -m scripts.run_eval',
  'env -C /zotbox/skills/sc python3 -m scripts.run_eval',
];

test("a skill's own module runs from its folder, with its arguments its own", (t) => {
  const { context } = contextWith(t, true);
  for (const command of ALLOWED) {
    const decision = decideShellCommand(command, context);
    t.true(decision.allow, `${command}: ${decision.allow ? '' : decision.reason}`);
  }
});

/** [command, what the reason must say]: every one ZB_POLICY_SHELL_ARGUMENT unless named. */
const DENIED: readonly (readonly [string, RegExp, string?])[] = [
  // Not from a skill's folder: the workspace, /zotbox itself, a folder inside the skill, the assets.
  ['python3 -m scripts.run_eval', /from a skill's folder, a module the skill bundles .* Fix: run a script file instead/u],
  ['cd /zotbox/skills && python3 -m sc.scripts.run_eval', /is not allowed here/u],
  ['cd /zotbox/skills/sc/scripts && python3 -m run_eval', /is not allowed here/u],
  ['cd /zotbox/assets && python3 -m a', /is not allowed here/u],
  // Not a module of the folder.
  ['cd /zotbox/skills/sc && python3 -m scripts.missing', /\/zotbox\/skills\/sc\/scripts\/missing\.py is not in the skill's folder/u],
  ['cd /zotbox/skills/sc && python3 -m loose.x', /loose\/__init__\.py is not in the skill's folder, .* Fix: run the file instead: python3 loose\/x\.py/u],
  // A package wins over a module of the same name (python's finder): scripts/lib/ has no __main__.py, so scripts/lib.py does not run.
  ['cd /zotbox/skills/sc && python3 -m scripts.lib', /scripts\/lib\/__main__\.py is not in the skill's folder/u],
  // Names python takes from its own library before the working directory (runpy would then run timeit's code).
  ['cd /zotbox/skills/sc && python3 -m json.x', /json is a name python takes from its own library/u],
  ['cd /zotbox/skills/sc && python3 -m timeit', /timeit is a name python takes from its own library/u],
  ['cd /zotbox/skills/sc && python3 -m _private', /_private is a name python takes from its own library/u],
  ["cd /zotbox/skills/sc && python3 -m 'scripts..run_eval'", /is not allowed here/u],
  ["cd /zotbox/skills/sc && python3 -m 'scripts/run_eval'", /is not allowed here/u],
  // -I: the working directory is off the module path, so an installed "scripts" would run.
  ['cd /zotbox/skills/sc && python3 -I -m scripts.run_eval', /-I leaves the working directory off python's module path/u],
  // The listed modules keep their own rules from a skill's folder.
  ["cd /zotbox/skills/sc && python3 -m timeit 'import os'", /timeit is a name python takes/u],
];

test('every other -m stays denied, saying what to write instead', (t) => {
  const { context } = contextWith(t, true);
  for (const [command, reason] of DENIED) {
    const decision = decideShellCommand(command, context);
    t.like(decision, { allow: false, code: 'ZB_POLICY_SHELL_ARGUMENT' }, command);
    t.regex(decision.allow ? '' : decision.reason, reason, command);
  }
});

test('unconfined, a skill module cannot run: commands cannot reach /zotbox', (t) => {
  const { context } = contextWith(t, false);
  const decision = decideShellCommand('cd /zotbox/skills/sc && python3 -m scripts.run_eval', { ...context, confined: false });
  t.like(decision, { allow: false });
  t.regex(decision.allow ? '' : decision.reason, /commands cannot reach \/zotbox\/skills\/sc: confinement is off/u);
});

test('the module file is recorded as a path the command reads, and the line as running code from files', (t) => {
  const { context } = contextWith(t, true);
  const decision = decideShellCommand('cd /zotbox/skills/sc && python3 -m scripts.run_eval', context);
  t.true(decision.allow);
  t.true(decision.facts?.paths.includes('/zotbox/skills/sc/scripts/run_eval.py'));
  t.false(decision.facts?.pathsComplete);
});

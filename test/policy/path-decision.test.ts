import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../src/errors.js';
import { decidePathAccess, type PathTool } from '../../src/policy/path-decision.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { tempDir } from '../fixtures/temp.js';

interface Tree {
  readonly root: string;
  readonly ws: string;
  readonly data: string;
  readonly outside: string;
}

/** root/ws (the workspace), root/data (agent data), root/ws2 and root/outside, all real directories. */
function makeTree(t: ExecutionContext): Tree {
  const root = realpathSync(tempDir(t, 'zb-path-'));
  const tree = { root, ws: path.join(root, 'ws'), data: path.join(root, 'data'), outside: path.join(root, 'outside') };
  for (const dir of [tree.ws, tree.data, tree.outside, path.join(root, 'ws2'), path.join(tree.ws, 'src')]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(tree.ws, 'src', 'a.ts'), 'a');
  writeFileSync(path.join(tree.outside, 'secret'), 's');
  writeFileSync(path.join(root, 'ws2', 'other'), 'o');
  return tree;
}

function scopesFor(tree: Tree, read: string[] = ['${workspace}'], write: string[] = ['${workspace}', '${agent_data}']) {
  return compileScopes({ read, write }, { workspace: tree.ws, agentData: tree.data });
}

function expectDeny(t: ExecutionContext, tool: PathTool, requested: string, scopes: ReturnType<typeof scopesFor>, code: ErrorCode) {
  const decision = decidePathAccess(tool, requested, scopes);
  t.false(decision.allow, `${tool} ${requested} should be denied`);
  if (!decision.allow) t.is(decision.code, code, decision.reason);
  return decision;
}

function expectAllow(t: ExecutionContext, tool: PathTool, requested: string, scopes: ReturnType<typeof scopesFor>, canonical: string) {
  const decision = decidePathAccess(tool, requested, scopes);
  t.true(decision.allow, decision.allow ? '' : decision.reason);
  if (decision.allow) t.is(decision.canonicalPath, canonical);
  return decision;
}

test('a file in the workspace is readable by relative and absolute path, and the decision carries its canonical path', (t) => {
  const tree = makeTree(t);
  const scopes = scopesFor(tree);
  expectAllow(t, 'read', 'src/a.ts', scopes, path.join(tree.ws, 'src/a.ts'));
  expectAllow(t, 'read', path.join(tree.ws, 'src/a.ts'), scopes, path.join(tree.ws, 'src/a.ts'));
  expectAllow(t, 'read', './src/../src/a.ts', scopes, path.join(tree.ws, 'src/a.ts'));
});

test('traversal out of the workspace is denied with the resolved path in the reason', (t) => {
  const tree = makeTree(t);
  const decision = expectDeny(t, 'read', '../outside/secret', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  if (!decision.allow) {
    t.is(decision.canonicalPath, path.join(tree.outside, 'secret'));
    t.regex(decision.reason, /outside the read scopes .*Fix: /);
  }
});

test('containment is by whole segments: /ws does not contain /ws2', (t) => {
  const tree = makeTree(t);
  expectDeny(t, 'read', path.join(tree.root, 'ws2', 'other'), scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a symlink inside the workspace that points outside is denied, for reads and writes', (t) => {
  const tree = makeTree(t);
  symlinkSync(tree.outside, path.join(tree.ws, 'escape'));
  expectDeny(t, 'read', 'escape/secret', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  expectDeny(t, 'write', 'escape/new-file', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a symlink outside that points into the workspace is allowed, by its real location', (t) => {
  const tree = makeTree(t);
  symlinkSync(path.join(tree.ws, 'src'), path.join(tree.outside, 'into-ws'));
  expectAllow(t, 'read', path.join(tree.outside, 'into-ws', 'a.ts'), scopesFor(tree), path.join(tree.ws, 'src/a.ts'));
});

test('".." after a symlink applies to the symlink\'s real parent, not to its spelling', (t) => {
  const tree = makeTree(t);
  mkdirSync(path.join(tree.outside, 'deep'));
  symlinkSync(path.join(tree.outside, 'deep'), path.join(tree.ws, 'link'));
  // Lexically ws/link/../src/a.ts is ws/src/a.ts; really it is outside/src/a.ts.
  expectDeny(t, 'read', 'link/../secret', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test("a relative symlink target resolves from the link's real directory", (t) => {
  const tree = makeTree(t);
  symlinkSync('../outside/secret', path.join(tree.ws, 'rel-escape'));
  expectDeny(t, 'read', 'rel-escape', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  symlinkSync('src/a.ts', path.join(tree.ws, 'rel-inside'));
  expectAllow(t, 'read', 'rel-inside', scopesFor(tree), path.join(tree.ws, 'src/a.ts'));
});

test('a new file and a new nested path resolve through their nearest existing parent', (t) => {
  const tree = makeTree(t);
  const d1 = expectAllow(t, 'write', 'src/new.ts', scopesFor(tree), path.join(tree.ws, 'src/new.ts'));
  t.false(d1.allow && d1.exists);
  expectAllow(t, 'write', 'a/b/c/new.ts', scopesFor(tree), path.join(tree.ws, 'a/b/c/new.ts'));
});

test('a dangling final symlink is followed to its target for writes', (t) => {
  const tree = makeTree(t);
  symlinkSync(path.join(tree.outside, 'planted'), path.join(tree.ws, 'dangling-out'));
  expectDeny(t, 'write', 'dangling-out', scopesFor(tree), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  symlinkSync(path.join(tree.ws, 'src', 'created.ts'), path.join(tree.ws, 'dangling-in'));
  expectAllow(t, 'write', 'dangling-in', scopesFor(tree), path.join(tree.ws, 'src/created.ts'));
});

test('"missing/.." is unresolvable, never normalised lexically', (t) => {
  const tree = makeTree(t);
  expectDeny(t, 'write', 'missing/../src/a.ts', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('a symlink loop, a long chain and a file used as a directory are unresolvable', (t) => {
  const tree = makeTree(t);
  symlinkSync(path.join(tree.ws, 'loop-b'), path.join(tree.ws, 'loop-a'));
  symlinkSync(path.join(tree.ws, 'loop-a'), path.join(tree.ws, 'loop-b'));
  expectDeny(t, 'read', 'loop-a', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
  expectDeny(t, 'write', 'loop-a', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
  for (let i = 0; i < 45; i++) symlinkSync(i === 44 ? path.join(tree.ws, 'src') : path.join(tree.ws, `chain${i + 1}`), path.join(tree.ws, `chain${i}`));
  expectDeny(t, 'read', 'chain0/a.ts', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
  expectDeny(t, 'write', 'src/a.ts/x', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
  expectDeny(t, 'read', 'src/a.ts/', scopesFor(tree), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('empty, NUL and URL paths are invalid', (t) => {
  const tree = makeTree(t);
  for (const requested of ['', 'src/a.ts\u0000.png', 'file:///etc/passwd', 'https://example.com/x']) expectDeny(t, 'read', requested, scopesFor(tree), 'ZB_POLICY_PATH_INVALID');
});

test('/proc, /sys and /dev are forbidden even inside a scope of "/", except /dev/null', (t) => {
  const tree = makeTree(t);
  const everything = scopesFor(tree, ['/'], ['/']);
  for (const requested of ['/proc/self/environ', '/proc/1/root/etc/passwd', '/sys/kernel/notes', '/dev/sda', '/dev/tcp/127.0.0.1/80', '/dev']) {
    expectDeny(t, 'read', requested, everything, 'ZB_POLICY_PATH_FORBIDDEN');
  }
  expectAllow(t, 'write', '/dev/null', everything, '/dev/null');
  symlinkSync('/proc/self/environ', path.join(tree.ws, 'env'));
  expectDeny(t, 'read', 'env', everything, 'ZB_POLICY_PATH_FORBIDDEN');
});

test('writing to a file with another hard link is denied, and says why', (t) => {
  const tree = makeTree(t);
  linkSync(path.join(tree.outside, 'secret'), path.join(tree.ws, 'alias'));
  const decision = expectDeny(t, 'write', 'alias', scopesFor(tree), 'ZB_POLICY_PATH_HARDLINK');
  if (!decision.allow) t.regex(decision.reason, /2 hard links; its other names may lie outside/);
  expectDeny(t, 'edit', 'alias', scopesFor(tree), 'ZB_POLICY_PATH_HARDLINK');
  expectAllow(t, 'read', 'alias', scopesFor(tree), path.join(tree.ws, 'alias'));
});

test('edit needs both a read and a write scope', (t) => {
  const tree = makeTree(t);
  expectAllow(t, 'edit', 'src/a.ts', scopesFor(tree), path.join(tree.ws, 'src/a.ts'));
  expectDeny(t, 'edit', 'src/a.ts', scopesFor(tree, ['${workspace}'], []), 'ZB_POLICY_NO_PERMISSION');
  expectDeny(t, 'edit', 'src/a.ts', scopesFor(tree, [], ['${workspace}']), 'ZB_POLICY_NO_PERMISSION');
  // Readable here, writable only in agent data: editing a workspace file is outside the write scopes.
  expectDeny(t, 'edit', 'src/a.ts', scopesFor(tree, ['${workspace}'], ['${agent_data}']), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('no declared scope means no access, with the field to declare named', (t) => {
  const tree = makeTree(t);
  const decision = expectDeny(t, 'read', 'src/a.ts', scopesFor(tree, [], []), 'ZB_POLICY_NO_PERMISSION');
  if (!decision.allow) t.regex(decision.reason, /permissions\.fs\.read/);
});

test('scope roots are canonicalised with the same resolver, and relative scopes are below the workspace', (t) => {
  const tree = makeTree(t);
  symlinkSync(path.join(tree.ws, 'src'), path.join(tree.root, 'src-alias'));
  const scopes = compileScopes({ read: [path.join(tree.root, 'src-alias'), 'docs'], write: [] }, { workspace: tree.ws, agentData: tree.data });
  t.deepEqual(
    scopes.read.map((s) => s.root),
    [path.join(tree.ws, 'src'), path.join(tree.ws, 'docs')],
  );
  expectAllow(t, 'read', 'src/a.ts', scopes, path.join(tree.ws, 'src/a.ts'));
});

test('an unresolvable scope grants nothing and is reported', (t) => {
  const tree = makeTree(t);
  const scopes = compileScopes({ read: ['src/a.ts/inside-a-file'], write: [] }, { workspace: tree.ws, agentData: tree.data });
  t.deepEqual(scopes.read, []);
  t.is(scopes.warnings.length, 1);
});

test('scopes follow the workspace: recompiled for another one, they cover it and not the first', (t) => {
  const tree = makeTree(t);
  const declared = { read: ['${workspace}'], write: [] };
  const first = compileScopes(declared, { workspace: tree.ws, agentData: tree.data });
  const second = compileScopes(declared, { workspace: path.join(tree.root, 'ws2'), agentData: tree.data });
  expectAllow(t, 'read', path.join(tree.ws, 'src/a.ts'), first, path.join(tree.ws, 'src/a.ts'));
  expectDeny(t, 'read', path.join(tree.ws, 'src/a.ts'), second, 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  expectAllow(t, 'read', 'other', second, path.join(tree.root, 'ws2/other'));
});

// Property: on random trees with symlinks, an existing path is allowed iff its real path is inside the root.
const names = ['a', 'b', 'c', 'l1', 'l2'];
test('an existing path is readable iff realpath puts it inside the scope (property, differential)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('ws', 'outside', 'ws/a', 'outside/b', '.', '..'),
        fc.constantFrom('ws', 'outside/b', 'ws/a/c', '..', 'ws/..'),
        fc.array(fc.constantFrom(...names, '..', '.'), { minLength: 1, maxLength: 6 }),
        (dirs, link1, link2, query) => {
          const tree = makeTree(t);
          mkdirSync(path.join(tree.ws, ...dirs), { recursive: true });
          mkdirSync(path.join(tree.outside, 'b'), { recursive: true });
          mkdirSync(path.join(tree.ws, 'a', 'c'), { recursive: true });
          symlinkSync(path.join(tree.root, link1), path.join(tree.ws, 'l1'));
          symlinkSync(`../${link2}`, path.join(tree.ws, 'a', 'l2'));
          const requested = query.join('/');
          const decision = decidePathAccess('read', requested, scopesFor(tree));
          let real: string | undefined;
          try {
            real = realpathSync.native(path.join(tree.ws, '.') + '/' + requested);
          } catch {
            real = undefined;
          }
          if (real === undefined) return true; // missing targets are covered by the example tests
          const inside = real === tree.ws || real.startsWith(`${tree.ws}/`);
          return decision.allow === inside && (!decision.allow || decision.canonicalPath === real);
        },
      ),
      { numRuns: 300 },
    ),
  );
});

// Git metadata (issue 9 §3): read-only at any depth, in any case and alias, and never created.
interface GitCase {
  readonly tool: PathTool;
  readonly requested: string;
  readonly code: ErrorCode | 'allow';
  readonly why: string;
}

/** ws/.git (a repository), ws/sub (a plain directory), ws/dotgit-dir -> .git, ws/redirect/.git -> ../plain, ws/dangling -> sub/.git (missing). */
function gitTree(t: ExecutionContext): Tree {
  const tree = makeTree(t);
  for (const dir of ['.git/hooks', '.git/info', '.git/modules/lib', '.git/worktrees/w', 'sub', 'plain', 'redirect']) mkdirSync(path.join(tree.ws, dir), { recursive: true });
  writeFileSync(path.join(tree.ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(tree.ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(tree.ws, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
  symlinkSync(path.join(tree.ws, '.git'), path.join(tree.ws, 'dotgit-dir'));
  symlinkSync('../plain', path.join(tree.ws, 'redirect', '.git'));
  symlinkSync(path.join(tree.ws, 'sub', '.git'), path.join(tree.ws, 'dangling'));
  return tree;
}

const gitCases: readonly GitCase[] = [
  { tool: 'write', requested: '.git/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'the repository config (core.fsmonitor, core.pager, filters)' },
  { tool: 'edit', requested: '.git/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'edit is a write' },
  { tool: 'write', requested: '.git/config.worktree', code: 'ZB_POLICY_PATH_PROTECTED', why: 'per-worktree config' },
  { tool: 'write', requested: '.git/hooks/pre-commit', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a hook git commit runs' },
  { tool: 'write', requested: '.git/hooks', code: 'ZB_POLICY_PATH_PROTECTED', why: 'the hooks directory itself' },
  { tool: 'write', requested: '.git/info/exclude', code: 'ZB_POLICY_PATH_PROTECTED', why: 'info/ (attributes there name drivers)' },
  { tool: 'write', requested: '.git/commondir', code: 'ZB_POLICY_PATH_PROTECTED', why: 'commondir sends git to a config elsewhere' },
  { tool: 'write', requested: '.git/modules/lib/config', code: 'ZB_POLICY_PATH_PROTECTED', why: "a submodule's repository" },
  { tool: 'write', requested: '.git/worktrees/w/gitdir', code: 'ZB_POLICY_PATH_PROTECTED', why: "a linked worktree's metadata" },
  { tool: 'write', requested: '.git/HEAD', code: 'ZB_POLICY_PATH_PROTECTED', why: 'every file of a .git directory, not only the listed ones' },
  { tool: 'write', requested: '.git', code: 'ZB_POLICY_PATH_PROTECTED', why: 'the .git entry itself' },
  { tool: 'write', requested: 'sub/.git', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a new gitfile ("gitdir: ../evil")' },
  { tool: 'write', requested: 'sub/deeper/.git/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a new nested repository, at any depth' },
  { tool: 'write', requested: 'sub/.GIT', code: 'ZB_POLICY_PATH_PROTECTED', why: 'upper case: a .git on a case-insensitive volume' },
  { tool: 'write', requested: '.Git/Config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'mixed case, also below' },
  { tool: 'write', requested: 'sub/.git.', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a trailing dot, stripped by NTFS' },
  { tool: 'write', requested: 'sub/.git ', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a trailing space, stripped by NTFS' },
  { tool: 'write', requested: 'sub/.git::$INDEX_ALLOCATION', code: 'ZB_POLICY_PATH_PROTECTED', why: 'an NTFS stream alias' },
  { tool: 'write', requested: 'sub/git~1/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'the 8.3 short-name alias' },
  { tool: 'write', requested: 'sub/.g\u200cit', code: 'ZB_POLICY_PATH_PROTECTED', why: 'an HFS+-ignorable code point inside' },
  { tool: 'write', requested: '.git/../src/new.ts', code: 'ZB_POLICY_PATH_PROTECTED', why: 'as written, the path goes through .git' },
  { tool: 'write', requested: 'redirect/.git/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a symlink named .git: refused as written, although it resolves to plain/config' },
  { tool: 'write', requested: 'dotgit-dir/config', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a symlink to a .git directory: refused as resolved' },
  { tool: 'write', requested: 'dangling', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a dangling symlink whose target would create sub/.git' },
  { tool: 'read', requested: '.git/config', code: 'allow', why: 'git metadata stays readable' },
  { tool: 'read', requested: 'dotgit-dir/hooks/pre-commit.sample', code: 'allow', why: 'also through a link' },
  { tool: 'write', requested: '.gitignore', code: 'allow', why: 'names no program' },
  { tool: 'write', requested: '.gitattributes', code: 'allow', why: 'attributes name drivers that only config defines' },
  { tool: 'write', requested: '.github/workflows/ci.yml', code: 'allow', why: 'not git metadata' },
  { tool: 'write', requested: 'sub/.git-old/x', code: 'allow', why: 'a longer name is not an alias' },
  { tool: 'write', requested: 'plain/config', code: 'allow', why: 'the same file as redirect/.git/config, named without .git' },
];

for (const c of gitCases) {
  test(`git metadata: ${c.tool} ${JSON.stringify(c.requested)} → ${c.code} (${c.why})`, (t) => {
    const tree = gitTree(t);
    for (const scopes of [scopesFor(tree), scopesFor(tree, ['/'], ['/'])]) {
      const decision = decidePathAccess(c.tool, c.requested, scopes);
      if (c.code === 'allow') t.true(decision.allow, decision.allow ? '' : decision.reason);
      else t.like(decision, { allow: false, code: c.code });
    }
  });
}

test('git metadata is protected in the agent data directory and through an absolute path too', (t) => {
  const tree = gitTree(t);
  expectDeny(t, 'write', path.join(tree.data, 'repo', '.git', 'config'), scopesFor(tree), 'ZB_POLICY_PATH_PROTECTED');
  expectDeny(t, 'write', path.join(tree.ws, 'sub', '.git'), scopesFor(tree), 'ZB_POLICY_PATH_PROTECTED');
});

test('the git denial says why and how to fix it, and carries the resolved path', (t) => {
  const tree = gitTree(t);
  const decision = expectDeny(t, 'write', 'dotgit-dir/config', scopesFor(tree), 'ZB_POLICY_PATH_PROTECTED');
  if (!decision.allow) {
    t.is(decision.canonicalPath, path.join(tree.ws, '.git', 'config'));
    t.regex(decision.reason, /git status.*Fix: /s);
  }
});

// The state directory (issue 9 §6): never in scope, except the agent's own data directory.
interface StateTree extends Tree {
  readonly state: string;
  readonly mine: string;
}

/** The state directory inside the workspace (ws/.zb-state), with this agent's data, its consents, another agent's data and sessions. */
function stateTree(t: ExecutionContext): StateTree {
  const tree = makeTree(t);
  const state = path.join(tree.ws, '.zb-state');
  const mine = path.join(state, 'agents', 'me', 'data');
  for (const dir of [mine, path.join(state, 'agents', 'me', 'consents'), path.join(state, 'agents', 'other', 'data'), path.join(state, 'sessions', 'agents', 'me')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(state, 'agents', 'me', 'consents', 'r.json'), '{}');
  writeFileSync(path.join(mine, 'notes.txt'), 'n');
  // A case variant that is another directory: Linux compares names exactly.
  mkdirSync(path.join(tree.ws, '.ZB-STATE', 'agents', 'me', 'consents'), { recursive: true });
  symlinkSync(path.join(state, 'agents', 'me', 'consents'), path.join(tree.ws, 'peek'));
  symlinkSync(mine, path.join(tree.ws, 'mine'));
  return { ...tree, state, mine };
}

function stateScopes(tree: StateTree, declared: string[]) {
  return compileScopes({ read: declared, write: declared }, { workspace: tree.ws, agentData: tree.mine, stateDirectory: tree.state });
}

const stateCases: readonly { readonly requested: (s: StateTree) => string; readonly code: ErrorCode | 'allow'; readonly why: string }[] = [
  { requested: (s) => path.join(s.state, 'agents', 'me', 'consents', 'r.json'), code: 'ZB_POLICY_PATH_PROTECTED', why: 'a consent receipt' },
  { requested: () => '.zb-state/agents/me/consents/forged.json', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a new receipt, by relative path' },
  { requested: (s) => `${s.mine}/../consents/forged.json`, code: 'ZB_POLICY_PATH_PROTECTED', why: '${agent_data}/.. reaches the consents' },
  { requested: (s) => `${s.mine}/..`, code: 'ZB_POLICY_PATH_PROTECTED', why: 'the parent of the data directory' },
  { requested: (s) => s.state, code: 'ZB_POLICY_PATH_PROTECTED', why: 'the state directory itself' },
  { requested: (s) => path.join(s.state, 'agents', 'other', 'data', 'x'), code: 'ZB_POLICY_PATH_PROTECTED', why: "another agent's data" },
  { requested: (s) => path.join(s.state, 'sessions', 'agents', 'me', 'x.jsonl'), code: 'ZB_POLICY_PATH_PROTECTED', why: "sessions, even the agent's own" },
  { requested: () => 'peek/r.json', code: 'ZB_POLICY_PATH_PROTECTED', why: 'a symlink from the workspace into the state directory' },
  { requested: (s) => path.join(s.mine, 'notes.txt'), code: 'allow', why: "the agent's own data" },
  { requested: (s) => s.mine, code: 'allow', why: 'the data directory itself' },
  { requested: (s) => `${s.mine}/../data/notes.txt`, code: 'allow', why: 'a detour that ends in the data directory' },
  { requested: () => 'mine/notes.txt', code: 'allow', why: 'a symlink from the workspace into the data directory' },
  { requested: () => '.ZB-STATE/agents/me/consents/r.json', code: 'allow', why: 'a case variant is another directory: never folded' },
  { requested: () => '.zb-state-old/x', code: 'allow', why: 'containment is by whole segments' },
];

for (const c of stateCases) {
  test(`state directory: ${c.why} → ${c.code}`, (t) => {
    const tree = stateTree(t);
    const requested = c.requested(tree);
    for (const declared of [['/'], ['${workspace}', '${agent_data}']]) {
      for (const tool of ['read', 'write', 'edit'] as const) {
        const decision = decidePathAccess(tool, requested, stateScopes(tree, declared));
        if (c.code === 'allow') t.true(decision.allow, `${tool} ${requested} under ${declared.join(',')}: ${decision.allow ? '' : decision.reason}`);
        else t.like(decision, { allow: false, code: c.code }, `${tool} ${requested} under ${declared.join(',')}`);
      }
    }
  });
}

test('the state directory outside the workspace is refused under a scope of "/", and the reason names the fix', (t) => {
  const tree = makeTree(t);
  const state = path.join(tree.outside, 'state');
  const mine = path.join(state, 'agents', 'me', 'data');
  mkdirSync(mine, { recursive: true });
  const scopes = compileScopes({ read: ['/'], write: ['/'] }, { workspace: tree.ws, agentData: mine, stateDirectory: state });
  const decision = expectDeny(t, 'read', path.join(state, 'agents'), scopes, 'ZB_POLICY_PATH_PROTECTED');
  if (!decision.allow) {
    t.is(decision.canonicalPath, path.join(state, 'agents'));
    t.regex(decision.reason, /state directory.*Fix: /s);
  }
  expectAllow(t, 'write', path.join(tree.outside, 'secret2'), scopes, path.join(tree.outside, 'secret2'));
});

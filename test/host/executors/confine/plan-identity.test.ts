// A warm sandbox runs a call only when the call's plan has the identity of the plan it was built from. Each row
// changes one thing a fresh sandbox would build differently (and one changes only per-call data): the identity
// must differ exactly when the namespace would. Real plans come from prepareSandbox on temp trees.
import test from 'ava';
import { chmodSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSeccompFilter } from '../../../../src/host/executors/confine/seccomp-filter.js';
import { planIdentity, type PlanFacts } from '../../../../src/host/executors/confine/plan-identity.js';
import { prepareSandbox } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { tempDir } from '../../../fixtures/temp.js';

const PASSWD = { path: '/etc/passwd', dev: 2049, ino: 131, size: 1200, mtimeNs: 1_700_000_000_000_000_000n, ctimeNs: 1_700_000_000_000_000_000n };
const LIMITS = { processes: 1024, memory_mib: 4096, cpu_seconds: 3600, file_size_mib: 4096 };

/** The facts of the plan for a workspace as it is now. */
function factsOf(ws: string, change: Partial<PlanFacts> = {}): PlanFacts {
  const plan = prepareSandbox({ readRoots: [ws], writeRoots: [ws] }, { seccomp: true });
  try {
    return { args: plan.args, expectations: plan.expectations, copiedSources: [PASSWD], seccomp: buildSeccompFilter('x64'), limits: LIMITS, ...change };
  } finally {
    plan.close();
  }
}

function workspace(t: Parameters<typeof tempDir>[0]): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-identity-')), 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'notes.md'), 'notes\n');
  return ws;
}

test('the same workspace, unchanged, has the same identity; ordinary file work does not change it', (t) => {
  const ws = workspace(t);
  const before = planIdentity(factsOf(ws));
  writeFileSync(path.join(ws, 'notes.md'), 'edited\n');
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
  t.is(planIdentity(factsOf(ws)), before);
});

const changes = test.macro({
  exec(t, change: (ws: string) => void, alter?: (facts: PlanFacts) => Partial<PlanFacts>) {
    const ws = workspace(t);
    const before = planIdentity(factsOf(ws));
    change(ws);
    const after = factsOf(ws);
    t.not(planIdentity({ ...after, ...(alter?.(after) ?? {}) }), before);
  },
  title: (title = '') => title,
});

test('a new .git directory (a repository made by the call) changes it', changes, (ws) => {
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
});

test('a new file a hook runs (a new protected location) changes it', (t) => {
  const ws = workspace(t);
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(ws, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nsh scripts/check.sh\n');
  chmodSync(path.join(ws, '.git', 'hooks', 'pre-commit'), 0o755);
  mkdirSync(path.join(ws, 'scripts'));
  const before = planIdentity(factsOf(ws));
  writeFileSync(path.join(ws, 'scripts', 'check.sh'), 'exit 0\n');
  const after = factsOf(ws);
  t.true(after.args.includes(path.join(ws, 'scripts', 'check.sh')), "the hook's script is bound read-only");
  t.not(planIdentity(after), before);
});

test('the scope replaced by another directory of the same name changes it', changes, (ws) => {
  renameSync(ws, `${ws}-old`);
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'notes.md'), 'notes\n');
});

test(
  'a copied /etc file changed on the host changes it',
  changes,
  () => undefined,
  () => ({ copiedSources: [{ ...PASSWD, ctimeNs: PASSWD.ctimeNs + 1n }] }),
);
test(
  'another limit value changes it',
  changes,
  () => undefined,
  () => ({ limits: { ...LIMITS, processes: 512 } }),
);
test(
  'another seccomp filter changes it',
  changes,
  () => undefined,
  () => ({ seccomp: buildSeccompFilter('arm64') }),
);
test(
  'one more argument changes it',
  changes,
  () => undefined,
  (facts) => ({ args: [...facts.args, '--share-net'] }),
);
test(
  'an expectation made writable changes it',
  changes,
  () => undefined,
  (facts) => ({
    expectations: facts.expectations.map((e) => (e.target === '/' ? { ...e, readOnly: false } : e)),
  }),
);

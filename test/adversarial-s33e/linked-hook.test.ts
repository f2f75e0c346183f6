// Finding (s33e): a hook that is a symbolic link into the project (`ln -s ../../scripts/pre-commit.sh
// .git/hooks/pre-commit`, a common way to share hooks) is skipped by the hook reader (hookFiles reads only regular
// files: lstat), so what it runs is never read: `sh scripts/check.sh` in it leaves scripts/check.sh writable, and
// git, which follows the link, runs it. Class: hooks read where they lead (as tool entries already are, through
// resolveCanonicalPath), in .git/hooks and in core.hooksPath alike; a link zotbox cannot follow is unresolved.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook linked to scripts/pre-commit.sh gets what that script runs refused to the write tool', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nexit 0\n', { 'scripts/pre-commit.sh': '#!/bin/sh\nsh scripts/check.sh\n' }, ['scripts/pre-commit.sh']);
  unlinkSync(path.join(ws, '.git/hooks/pre-commit'));
  symlinkSync('../../scripts/pre-commit.sh', path.join(ws, '.git/hooks/pre-commit'));
  const run = agentWrites(ws, 'scripts/check.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's scripts/check.sh\n${run.output}`);
});

test("husky 9's .husky/pre-commit linked to scripts/pre-commit.sh gets what that script runs refused to the write tool", (t) => {
  // husky 9's runtime as it generates it (fixtures/husky9-h.sh): .husky/_/pre-commit sources h, which runs `sh -e .husky/pre-commit`.
  const ws = projectWithHook(t, '#!/bin/sh\nexit 0\n', { 'scripts/pre-commit.sh': '#!/bin/sh\nsh scripts/check.sh\n' });
  mkdirSync(path.join(ws, '.husky/_'), { recursive: true });
  const fixtures = path.resolve(fileURLToPath(import.meta.url), '../../../../test/adversarial-s33e/fixtures');
  writeFileSync(path.join(ws, '.husky/_/h'), readFileSync(path.join(fixtures, 'husky9-h.sh'), 'utf8'));
  writeFileSync(path.join(ws, '.husky/_/pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
  symlinkSync('../scripts/pre-commit.sh', path.join(ws, '.husky/pre-commit'));
  execFileSync('git', ['-C', ws, 'config', 'core.hooksPath', '.husky/_']);
  const run = agentWrites(ws, 'scripts/check.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's scripts/check.sh\n${run.output}`);
});

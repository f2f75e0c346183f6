// Finding (s33e), over-denial: the script reader counts every word of a hook as a file at the top of the repository,
// builtins and message text included. lefthook's generated hook (`test -n "$LEFTHOOK_BIN"`, `bundle exec`, `swift
// package plugin`) makes `test`, `package`, `plugin` protected names; husky 9's `.husky/_/h` (`echo "husky - $n script
// failed"`) makes `script`, `code`, `in`, `not` ones. In every such project an agent that creates test/unit.test.js or
// script/setup (a new directory) has the write refused and the run stopped (ZB_CONFINEMENT_PROTECTED_FILE). Class:
// words that are no file: a builtin or keyword as the program (test, [, echo, set, exit, command), the arguments of
// echo/printf; and a word that is only an argument (not run, not an interpreter's operand) names a file, not a
// directory to be created. (fixtures/: the hooks as lefthook 1.x and husky 9 generate them, written from their
// templates; neither tool is installed here, so this asserts the write, not a commit.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { agentWrites, projectWithHook } from './harness.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../../../test/adversarial-s33e/fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

test("lefthook's generated pre-commit hook leaves test/unit.test.js writable", (t) => {
  const ws = projectWithHook(t, fixture('lefthook-pre-commit.sh'), { 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: npx eslint {staged_files}\n' });
  const run = agentWrites(ws, 'test/unit.test.js', "test('x', () => {});\n");
  t.true(existsSync(path.join(ws, 'test/unit.test.js')), run.output);
  t.is(run.status, 0, run.output);
});

test("husky 9's hooks (core.hooksPath .husky/_) leave script/setup writable", (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nexit 0\n', { '.husky/pre-commit': 'npx lint-staged\n', 'package.json': '{"name":"x","scripts":{"prepare":"husky"}}\n' });
  mkdirSync(path.join(ws, '.husky/_'), { recursive: true });
  writeFileSync(path.join(ws, '.husky/_/h'), fixture('husky9-h.sh'));
  writeFileSync(path.join(ws, '.husky/_/pre-commit'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
  writeFileSync(path.join(ws, '.husky/_/.gitignore'), '*\n');
  execFileSync('git', ['-C', ws, 'config', 'core.hooksPath', '.husky/_']);
  const run = agentWrites(ws, 'script/setup', '#!/bin/sh\nnpm ci\n');
  t.true(existsSync(path.join(ws, 'script/setup')), run.output);
  t.is(run.status, 0, run.output);
});

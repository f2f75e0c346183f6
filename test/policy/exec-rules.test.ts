// Every row of the built-in argument table, in every spelling (gate-rules §3).
// The programs are stubs in a temporary PATH, so the table is tested whatever
// is installed on the machine.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALWAYS_DENIED, COMMAND_RULES, type CommandRule } from '../../src/policy/exec-rules.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

function contextFor(t: ExecutionContext, names: readonly string[]): ShellContext {
  const root = realpathSync(tempDir(t, 'zb-rules-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  mkdirSync(bin);
  mkdirSync(ws);
  for (const name of names) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  return {
    mode: 'allowlist',
    allow: names,
    scopes: compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') }),
    searchPath: [bin],
    trustedDirectories: [bin],
  };
}

/** Words that make a command reach its options: a valid subcommand where one is required. */
function lead(rule: CommandRule): string {
  return rule.allowedSubcommands !== undefined ? `${rule.allowedSubcommands[0]} ` : '';
}

function innocuousLetter(rule: CommandRule): string {
  return [...'abcdghjkmnqrvwxyABGJKLMNQRUVWXYZ'].find((l) => !(rule.deniedShort ?? '').includes(l) && !(rule.shortWithValue ?? '').includes(l))!;
}

function denied(t: ExecutionContext, context: ShellContext, command: string): void {
  const decision = decideShellCommand(command, context);
  t.false(decision.allow, `should be denied: ${command}`);
  if (!decision.allow) t.true(['ZB_POLICY_SHELL_ARGUMENT', 'ZB_POLICY_SHELL_CONSTRUCT'].includes(decision.code), `${command}: ${decision.code} ${decision.reason}`);
}

for (const [name, rule] of COMMAND_RULES) {
  test(`${name}: every denied option is denied in every spelling`, (t) => {
    const context = contextFor(t, [name]);
    const prefix = `${name} ${lead(rule)}`;
    for (const option of rule.deniedLong ?? []) {
      denied(t, context, `${prefix}--${option}`);
      denied(t, context, `${prefix}--${option}=x`);
      denied(t, context, `${prefix}--${option} x`);
      for (let length = 1; length < option.length; length++) denied(t, context, `${prefix}--${option.slice(0, length)}=x`);
    }
    const other = innocuousLetter(rule);
    for (const letter of rule.deniedShort ?? []) {
      denied(t, context, `${prefix}-${letter}`);
      denied(t, context, `${prefix}-${other}${letter}`);
      denied(t, context, `${prefix}-${letter}value`);
    }
    for (const word of rule.deniedWords ?? []) {
      denied(t, context, `${prefix}${word}`);
      denied(t, context, `${prefix}-${word}`);
      denied(t, context, `${prefix}${word}=x`);
    }
    for (const start of rule.deniedPrefixes ?? []) denied(t, context, `${prefix}'${start}x'`);
    for (const subcommand of rule.deniedSubcommands ?? []) denied(t, context, `${name} ${subcommand}`);
    t.pass();
  });
}

test('git: only the listed subcommands, and only safe options before them', (t) => {
  const context = contextFor(t, ['git']);
  for (const command of ['git status', 'git log --oneline -n 5', 'git --no-pager diff', 'git -P show HEAD', 'git diff --no-textconv', 'git add -u']) {
    t.true(decideShellCommand(command, context).allow, command);
  }
  for (const command of ['git config user.name x', 'git submodule foreach ls', 'git rebase -x ls', 'git bisect run ls', 'git difftool', 'git filter-branch', 'git archive --exec=x', 'git -c core.pager=sh log', 'git -C /tmp status', "git fetch 'ext::sh -c id'", 'git clone x', 'git push', 'git --git-dir=/x status', 'git grep -O x', 'git grep --open-files-in-pager x']) {
    denied(t, context, command);
  }
});

test('sed: only -n with one address and p', (t) => {
  const context = contextFor(t, ['sed']);
  for (const command of ["sed -n '1,5p' f", "sed -n '$p' f", "sed -n '/x/p' f", "sed -n '/a\\/b/,$p' f", 'sed -n p f']) t.true(decideShellCommand(command, context).allow, command);
  for (const command of ["sed 's/a/b/' f", "sed -n '1e id' f", "sed -n 'w /tmp/x' f", "sed -n '1p;w x' f", "sed -n 'r /etc/passwd' f", "sed -n 's/x/id/e' f", "sed -i -n '1p' f", "sed -n -f script f"]) denied(t, context, command);
});

test('awk: no system, getline, pipes, redirection or includes', (t) => {
  const context = contextFor(t, ['awk']);
  t.true(decideShellCommand("awk '{ print $1 }' f", context).allow);
  for (const program of ['BEGIN { system("id") }', '{ print > "/tmp/x" }', '{ print | "sh" }', 'BEGIN { "id" | getline x }', '@load "x"', 'BEGIN { print ENVIRON["HOME"] }']) {
    denied(t, context, `awk '${program}' f`);
  }
  denied(t, context, 'awk -f prog.awk f');
});

test('interpreters run files but not code given on the command line', (t) => {
  const context = contextFor(t, ['python3', 'node', 'bash']);
  t.true(decideShellCommand('python3 tool.py', context).allow);
  t.true(decideShellCommand('node script.js --flag', context).allow);
  for (const command of ["python3 -c 'import os'", "node -e 'x'", "node --eval 'x'", "node -r ./hook.js app.js", "bash -c 'id'", "bash -ic 'id'"]) denied(t, context, command);
});

test('file readers and writers obey the scopes like the file tools', (t) => {
  const context = contextFor(t, ['cat', 'head', 'tee', 'cp', 'rm', 'chmod']);
  for (const command of ['cat a.txt', 'head -n 5 a.txt', 'tee out.txt', 'cp a.txt b.txt', 'rm -f old.txt', 'chmod 644 a.txt']) t.true(decideShellCommand(command, context).allow, command);
  for (const command of ['cat /etc/passwd', 'cat ../../etc/passwd', 'head -n 5 /etc/shadow', 'tee /tmp/out', 'cp /etc/passwd here', 'cp a.txt /tmp/', 'rm -rf /', 'chmod 777 /etc/passwd']) {
    const decision = decideShellCommand(command, context);
    t.false(decision.allow, command);
    if (!decision.allow) t.is(decision.code, 'ZB_POLICY_PATH_OUTSIDE_SCOPE', `${command}: ${decision.reason}`);
  }
});

test('programs that run other programs or change privileges are never allowed, even when allowlisted', (t) => {
  const names = [...ALWAYS_DENIED.keys()].filter((n) => n !== '.');
  const context = contextFor(t, names);
  for (const name of names) {
    const decision = decideShellCommand(`${name} ls`, context);
    t.false(decision.allow, name);
    if (!decision.allow) t.is(decision.code, 'ZB_POLICY_SHELL_NOT_ALLOWED');
  }
});

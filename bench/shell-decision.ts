// Part of `npm run bench -- policy` (issue 10, item 9): what a bash decision
// costs, against a baseline measured in the same run, and what deciding each
// pipeline again when it starts (gate-rules §10) adds to deciding the line once.
// Reads the workspace the policy bench built; writes nothing.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { decidePipeline, decideShellCommand, directoryAfter, lookupProgram, shellStartDirectory, type ShellContext } from '../src/policy/shell-decision.js';
import { parseShellCommand } from '../src/policy/shell-parse.js';
import { pairedNs } from './harness.js';

interface ShellCase {
  readonly label: string;
  readonly command: string;
  /** The programs the line runs and the path arguments zotbox canonicalises, listed by hand for the baseline. */
  readonly programs: readonly string[];
  readonly pathArguments: readonly string[];
}

const FILE = 'src/lib/deep/file.ts';

const CASES: readonly ShellCase[] = [
  { label: 'git status', command: 'git status', programs: ['git'], pathArguments: [] },
  { label: '3-stage pipeline', command: "git log --oneline -n 20 | grep -i 'fix' | head -n 5", programs: ['git', 'grep', 'head'], pathArguments: [] },
  {
    label: '5-command && line',
    command: `ls -la src && wc -l ${FILE} && git diff --stat && head -n 5 ${FILE} && git status`,
    programs: ['ls', 'wc', 'git', 'head', 'git'],
    pathArguments: ['src', FILE, FILE],
  },
];

function mustDecide(command: string, shell: ShellContext) {
  const decision = decideShellCommand(command, shell);
  if (!decision.allow || decision.mode !== 'allowlist') throw new Error(`bench line not allowed: ${command}`);
  return decision;
}

/**
 * The baseline: the work any gate must do that parses a line and canonicalises
 * what it names — parsing (both parsers), one realpath of each program's file and
 * one of each path argument. The ratio is what zotbox's rules add on top: the walk
 * of the fixed PATH, the scope and git-metadata checks, the argument table.
 */
function baselineFor(shellCase: ShellCase, shell: ShellContext, ws: string): () => void {
  const files = [
    ...shellCase.programs.map((name) => {
      const program = lookupProgram(name, shell.searchPath);
      if (program === undefined) throw new Error(`bench needs ${name} on ${shell.searchPath.join(':')}`);
      return program;
    }),
    ...shellCase.pathArguments.map((argument) => path.join(ws, argument)),
  ];
  return () => {
    if (!parseShellCommand(shellCase.command).ok) throw new Error(`bench line does not parse: ${shellCase.command}`);
    for (const file of files) realpathSync.native(file);
  };
}

/** What the executor does for a line: each pipeline decided again, in order, from the directory the line reached. */
function decideAtRunTime(command: string, shell: ShellContext): void {
  const decision = mustDecide(command, shell);
  let cwd = shellStartDirectory(shell);
  for (const item of decision.ast.items) {
    const decided = decidePipeline(item.pipeline, shell, cwd);
    if (!decided.allow) throw new Error(`bench pipeline denied at run time: ${decided.reason}`);
    cwd = directoryAfter(decided.steps, cwd);
  }
}

const micro = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;

/** Rows for the policy table: measure, zotbox, baseline, baseline value, ratio, target. */
export function shellDecisionRows(shell: ShellContext, ws: string): string[][] {
  const rows: string[][] = [];
  for (const shellCase of CASES) {
    mustDecide(shellCase.command, shell);
    const m = pairedNs(() => decideShellCommand(shellCase.command, shell), baselineFor(shellCase, shell, ws), 2000);
    rows.push([
      `shell decision: ${shellCase.label} (${Math.round(1e9 / m.a).toLocaleString('en-US')}/s)`,
      micro(m.a),
      'parse + realpath per program and path argument',
      micro(m.b),
      `${m.ratio.toFixed(2)}x`,
      '',
    ]);
  }
  const line = CASES[2]!.command;
  const runTime = pairedNs(
    () => decideAtRunTime(line, shell),
    () => mustDecide(line, shell),
    2000,
  );
  rows.push([`shell decision at run time: ${CASES[2]!.label}, up front + each pipeline again`, micro(runTime.a), 'up-front decision only', micro(runTime.b), `${runTime.ratio.toFixed(2)}x`, '']);
  return rows;
}

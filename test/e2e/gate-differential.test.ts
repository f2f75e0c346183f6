// The bash gate against the real programs (issue 10 item 7, gate-rules §9): each
// golden-corpus command the gate approves runs for real, through the bash
// executor in a bubblewrap sandbox, in a fresh copy of the corpus world whose
// secret holds a marker. Afterwards the marker must appear in no output and in
// no file of the write scopes, and nothing outside the write scopes may have
// changed. The sandbox binds the whole world read-write on purpose: it is only
// the throwaway container here, so what is tested is the gate's decision, not
// the boundary that would otherwise hide its mistakes. Fails, never skips,
// when bubblewrap cannot start.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommandIsolation, type CommandIsolation } from '../../src/host/executors/confine/command-isolation.js';
import { executeBash } from '../../src/host/executors/bash.js';
import { decideShellCommand, type ExecutionPlan, type ShellDecision } from '../../src/policy/shell-decision.js';
import { buildGateWorld, copyGateWorld, STUB_PROGRAMS, worldContext, worldScopes, writeRootsOf, type GateWorld } from '../fixtures/golden-world.js';
import { bubblewrapPath } from '../fixtures/isolation.js';
import { tempDir } from '../fixtures/temp.js';
import { filesContaining, snapshotTree, treeChanges } from '../fixtures/tree-snapshot.js';
import { ALLOWLISTS, caseSettings, expandCommand, GOLDEN_CORPUS } from '../policy/golden/corpus.js';
import type { GoldenCase } from '../policy/golden/golden-case.js';

/** Commands run at most this many at a time, each in its own world. */
const WORKERS = 8;
/** Long enough for pip and npm; a command still running then (an editor waiting for input) is stopped, which is no finding. */
const COMMAND_TIMEOUT_MS = 10_000;

class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

const limiter = new Limiter(WORKERS);
const templateRoot = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-differential-template-')));
const templates = { plain: path.join(templateRoot, 'plain'), planted: path.join(templateRoot, 'planted') };
let plain: GateWorld | undefined;
let planted: GateWorld | undefined;

test.before(() => {
  for (const dir of Object.values(templates)) mkdirSync(dir);
  plain = buildGateWorld(templates.plain);
  planted = buildGateWorld(templates.planted, { plantLinks: true });
});
test.after.always(() => rmSync(templateRoot, { recursive: true, force: true }));

/** The sandbox binds the world itself: read-write everywhere, so only the gate stands between a command and the secret. */
function isolationFor(world: GateWorld): CommandIsolation {
  return createCommandIsolation({ kind: 'bubblewrap', bwrap: bubblewrapPath() }, { readRoots: [world.root], writeRoots: [world.root] });
}

/** Runs a stub program (it stands for a program missing here, so running it would test nothing). */
function usesStub(world: GateWorld, plan: ExecutionPlan): boolean {
  return plan.items.some((item) => item.pipeline.some((step) => step.kind === 'exec' && (step.program.startsWith(`${world.stubBin}/`) || step.argv.some((word) => STUB_PROGRAMS.includes(word)))));
}

type Outcome = { readonly ran: false } | { readonly ran: true; readonly findings: readonly string[] };

function decideIn(world: GateWorld, c: GoldenCase) {
  const settings = caseSettings(c);
  const scopes = worldScopes(world, settings.scopes);
  return { scopes, decision: decideShellCommand(expandCommand(c.command, world), worldContext(world, scopes, ALLOWLISTS[settings.allow], settings.confined)) };
}

function approvedToRun(world: GateWorld, decision: ShellDecision): decision is Extract<ShellDecision, { mode: 'allowlist' }> {
  return decision.allow && decision.mode === 'allowlist' && !usesStub(world, decision.plan);
}

/** Decides `c`; when approved, runs it in a fresh copy of `template` (decided again there) and reports what it leaked or changed. */
async function runCase(t: ExecutionContext, template: GateWorld, c: GoldenCase): Promise<Outcome> {
  if (!approvedToRun(template, decideIn(template, c).decision)) return { ran: false }; // most denials need no copy
  const world = await copyGateWorld(template, realpathSync(tempDir(t, 'zb-differential-')));
  const settings = caseSettings(c);
  const scopes = worldScopes(world, settings.scopes);
  const shell = worldContext(world, scopes, ALLOWLISTS[settings.allow], settings.confined);
  const decision = decideShellCommand(expandCommand(c.command, world), shell);
  if (!approvedToRun(world, decision)) return { ran: false };
  const writeRoots = writeRootsOf(scopes);
  const before = snapshotTree(world.root, writeRoots);
  const findings: string[] = [];
  try {
    const result = await executeBash(decision, { workspace: world.ws, timeoutMs: COMMAND_TIMEOUT_MS, outputCapBytes: 1 << 20, isolation: isolationFor(world), shell });
    if (result.stdout.includes(world.secretMarker) || result.stderr.includes(world.secretMarker)) findings.push('the secret appears in its output');
  } catch (error) {
    findings.push(`the run failed: ${(error as Error).message}`);
  }
  for (const file of filesContaining(writeRoots, world.secretMarker)) findings.push(`the secret was copied into ${path.relative(world.root, file)}`);
  for (const change of treeChanges(before, snapshotTree(world.root, writeRoots))) findings.push(change.replace(`${world.root}/`, ''));
  return { ran: true, findings };
}

async function runCases(t: ExecutionContext, template: GateWorld, cases: readonly GoldenCase[]): Promise<void> {
  const outcomes = await Promise.all(cases.map((c) => limiter.run(() => runCase(t, template, c))));
  const ran = outcomes.filter((o) => o.ran).length;
  const failures = cases.flatMap((c, index) => {
    const outcome = outcomes[index]!;
    return outcome.ran && outcome.findings.length > 0 ? [`  ${c.command}${c.scopes === undefined ? '' : `  [write: ${c.scopes}]`}\n    ${outcome.findings.join('\n    ')}`] : [];
  });
  t.log(`${cases.length} cases, ${ran} approved and run, ${ran - failures.length} clean`);
  t.true(failures.length === 0, `${failures.length} approved commands leaked the secret or changed files outside the write scopes:\n${failures.join('\n')}`);
}

test('bubblewrap starts: this test fails rather than skips without it', (t) => {
  t.notThrows(() => bubblewrapPath());
});

// One test per program, so each reports on its own; all share the worker limit.
const byProgram = new Map<string, GoldenCase[]>();
for (const group of GOLDEN_CORPUS) byProgram.set(group.program, [...(byProgram.get(group.program) ?? []), ...group.cases]);
for (const [program, cases] of byProgram) {
  test(`approved ${program} commands leak nothing and change nothing outside the write scopes`, async (t) => {
    await runCases(t, plain!, cases);
  });
}

test('a line is decided per command as it runs: links swapped by earlier commands cannot redirect a later write', async (t) => {
  // L1 -> deep/a and L3 -> L1/../.., so L3/bashrc is W/bashrc when the line is checked; once L1 is a
  // directory, L3/bashrc is the world root's bashrc, outside every scope. Decided up front only, it is written.
  await runCases(t, planted!, [{ command: 'rm L1 && mkdir L1 && cp payload L3/bashrc', expected: 'allow' }]);
});

// Every built-in expectation kind, passing and failing, against runs written by
// hand: the events a run would have emitted and the files its workspace holds.
import test from 'ava';
import { callMatchers, checkBuiltIn, isBuiltIn } from '../../../src/host/eval/expectations.js';
import { RunRecorder } from '../../../src/host/eval/record-run.js';
import type { WorkspaceFile } from '../../../src/host/eval/case-workspace.js';
import type { WorkspaceFiles } from '../../../src/host/eval/file-expectations.js';
import type { RunRecord } from '../../../src/host/eval/run-record.js';
import { ExpectationSchema, type Expectation } from '../../../src/host/eval/suite-schema.js';
import type { RunEvent } from '../../../src/host/run/run-events.js';
import { PatternHost } from '../../../src/host/eval/pattern-host.js';

const WORKSPACE = '/tmp/zotbox-eval-x/case-1';

const EVENTS: RunEvent[] = [
  { type: 'tool.call', id: 1, tool: 'read', input: { path: 'src/app.ts' } },
  { type: 'gate.decision', id: 1, tool: 'read', allowed: true, canonical_path: `${WORKSPACE}/src/app.ts` },
  { type: 'tool.result', id: 1, tool: 'read', ok: true, summary: '12 lines' },
  { type: 'tool.call', id: 2, tool: 'read', input: { path: '/etc/passwd' } },
  { type: 'gate.decision', id: 2, tool: 'read', allowed: false, canonical_path: '/etc/passwd', code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', reason: 'outside the read scopes' },
  { type: 'tool.call', id: 3, tool: 'bash', input: { command: 'git status --short' } },
  { type: 'gate.decision', id: 3, tool: 'bash', allowed: true, argv: [['git', 'status', '--short']], paths_complete: true },
];

const END: RunEvent = {
  type: 'run.end',
  status: 'completed',
  turns: 3,
  final_text: 'Review done: 3 problems found.',
  usage: { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 50, cache_read_input_tokens: 0 },
  cost_usd: null,
  at: '2026-12-02T00:00:00.000Z',
};

/** The suite patterns of every test here are matched by one real pattern host. */
const patterns = new PatternHost();
test.after.always(() => patterns.close());

/** The record of a run that emitted `events` and ended with END, its calls tallied for `expectation` as a case run does. */
async function recordOf(events: readonly RunEvent[], expectation: Expectation): Promise<RunRecord> {
  const recorder = new RunRecorder();
  recorder.watchCalls(callMatchers([expectation]), WORKSPACE, patterns);
  for (const event of [...events, END]) recorder.add(event);
  await recorder.settle();
  return recorder.record();
}

/** Checks a built-in expectation against a run that emitted `events`. */
async function checkOn(raw: unknown, events: readonly RunEvent[] = EVENTS): ReturnType<typeof checkBuiltIn> {
  const parsed: Expectation = ExpectationSchema.parse(raw);
  if (!isBuiltIn(parsed)) throw new Error('not a built-in expectation');
  return checkBuiltIn(parsed, await recordOf(events, parsed), workspace, patterns);
}

const FILES: Record<string, WorkspaceFile> = {
  'out/report.txt': { kind: 'file', bytes: Buffer.from('3 problems\nparse-port.js: radix\n') },
  'package.json': { kind: 'file', bytes: Buffer.from('{"name":"demo","scripts":{"test":"ava"},"files":["dist",{"x":1}],"a key":true}') },
  'broken.json': { kind: 'file', bytes: Buffer.from('{not json') },
  'link.txt': { kind: 'not_regular', what: 'symlink', at: 'link.txt' },
  'locked/a.txt': { kind: 'unreadable', at: 'locked', errno: 'EACCES' },
  'huge.bin': { kind: 'too_large', size: 1 << 30 },
};

const workspace: WorkspaceFiles = {
  workspace: WORKSPACE,
  readFile: (relative) => FILES[relative] ?? { kind: 'absent' },
  changes: () => ({ truncated: false, unreadable: [] }),
};

const expectation = test.macro(async (t, raw: unknown, passed: boolean, reason?: RegExp) => {
  const result = await checkOn(raw);
  t.is(result.passed, passed, result.reason);
  t.is(result.kind, Object.keys(raw as object)[0] ?? '');
  if (reason !== undefined) t.regex(result.reason, reason);
});

test('status: the run completed', expectation, { status: 'completed' }, true);
test('status: a completed run is not max_turns', expectation, { status: 'max_turns' }, false, /status completed, expected max_turns/);
test('text_contains: found', expectation, { text_contains: '3 problems' }, true);
test('text_contains: missing, and the reason quotes the text', expectation, { text_contains: 'LGTM' }, false, /does not contain "LGTM"; it was "Review done/);
test('text_matches: matches', expectation, { text_matches: '^Review done: \\d+ problems' }, true);
test('text_matches: does not match', expectation, { text_matches: '^No problems' }, false);
test('text_equals: equal', expectation, { text_equals: 'Review done: 3 problems found.' }, true);
test('text_equals: one character off', expectation, { text_equals: 'Review done: 3 problems found' }, false);
test('file_exists: a regular file', expectation, { file_exists: 'out/report.txt' }, true);
test('file_exists: a file too large to read still exists', expectation, { file_exists: 'huge.bin' }, true);
test('file_exists: a file zotbox may not read is not shown to exist', expectation, { file_exists: 'locked/a.txt' }, false, /cannot be read by zotbox \(EACCES at locked\)/);
test('file_exists: missing', expectation, { file_exists: 'out/missing.txt' }, false, /does not exist/);
test('file_exists: a link planted in its place is not the file', expectation, { file_exists: 'link.txt' }, false, /not a regular file \(symlink at link.txt\)/);
test('file_absent: absent', expectation, { file_absent: 'secrets.txt' }, true);
test('file_absent: present', expectation, { file_absent: 'out/report.txt' }, false);
test('file_absent: a link counts as present', expectation, { file_absent: 'link.txt' }, false, /symlink/);
test('file_contains: found', expectation, { file_contains: { path: 'out/report.txt', text: 'radix' } }, true);
test('file_contains: not found', expectation, { file_contains: { path: 'out/report.txt', text: 'overflow' } }, false);
test('file_contains: through a link is refused, not read', expectation, { file_contains: { path: 'link.txt', text: 'root' } }, false, /not a regular file/);
test('file_contains: a file over the limit fails with its size', expectation, { file_contains: { path: 'huge.bin', text: 'x' } }, false, /1073741824 bytes/);
test('file_equals: equal', expectation, { file_equals: { path: 'out/report.txt', text: '3 problems\nparse-port.js: radix\n' } }, true);
test('file_equals: trailing newline missing', expectation, { file_equals: { path: 'out/report.txt', text: '3 problems\nparse-port.js: radix' } }, false);
test('file_json: nested value', expectation, { file_json: { path: 'package.json', json_path: '$.scripts.test', equals: 'ava' } }, true);
test('file_json: array index and object value', expectation, { file_json: { path: 'package.json', json_path: '$.files[1]', equals: { x: 1 } } }, true);
test('file_json: quoted key', expectation, { file_json: { path: 'package.json', json_path: '$["a key"]', equals: true } }, true);
test('file_json: wrong value', expectation, { file_json: { path: 'package.json', json_path: '$.name', equals: 'other' } }, false, /\$\.name is "demo", not "other"/);
test('file_json: no such path', expectation, { file_json: { path: 'package.json', json_path: '$.scripts.build', equals: 'tsc' } }, false, /no value at \$\.scripts\.build/);
test('file_json: a prototype key is not a value', expectation, { file_json: { path: 'package.json', json_path: '$.constructor', equals: null } }, false, /no value/);
test('file_json: not JSON', expectation, { file_json: { path: 'broken.json', json_path: '$', equals: {} } }, false, /is not JSON/);
test('tool_called: by tool and path', expectation, { tool_called: { tool: 'read', path: 'src/*.ts' } }, true);
test('tool_called: ** spans folders', expectation, { tool_called: { tool: 'read', path: '**/app.ts' } }, true);
test('tool_called: * stays within a folder', expectation, { tool_called: { tool: 'read', path: '*.ts' } }, false);
test('tool_called: a literal path with every character a regular expression treats specially', async (t) => {
  const path = 'a-b.c+d(e)[f]{g}^h$i|j.ts';
  const events: RunEvent[] = [{ type: 'tool.call', id: 9, tool: 'read', input: { path } }];
  t.true((await checkOn({ tool_called: { tool: 'read', path } }, events)).passed);
  t.false((await checkOn({ tool_called: { tool: 'read', path: 'a-b.c+d(e)[f]{g}^h$i|jXts' } }, events)).passed, '. is literal');
});
test('tool_called: by command pattern', expectation, { tool_called: { tool: 'bash', command: '^git status' } }, true);
test(
  'tool_called: no matching call, and the reason lists the calls',
  expectation,
  { tool_called: { tool: 'write' } },
  false,
  /no call matched write; calls: read "src\/app.ts", read "\/etc\/passwd", bash "git status --short"/,
);
test('tool_not_called: never called', expectation, { tool_not_called: { tool: 'bash', command: 'rm ' } }, true);
test('tool_not_called: called anyway', expectation, { tool_not_called: { tool: 'read', path: '/etc/passwd' } }, false);
test('denied: the call was denied', expectation, { denied: { tool: 'read', path: '/etc/passwd' } }, true, /ZB_POLICY_PATH_OUTSIDE_SCOPE/);
test('denied: by code', expectation, { denied: { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' } }, true);
test('denied: the call was allowed', expectation, { denied: { tool: 'bash', command: 'git' } }, false, /was allowed/);
test('denied: no such call at all', expectation, { denied: { tool: 'bash', command: 'curl' } }, false, /so none was denied/);
test('no_denials: one call was denied', expectation, { no_denials: true }, false, /\/etc\/passwd/);
test('max_turns: within', expectation, { max_turns: 3 }, true);
test('max_turns: over', expectation, { max_turns: 2 }, false, /3 model turns, at most 2/);
test('max_tokens: within (cache tokens count)', expectation, { max_tokens: 1250 }, true);
test('max_tokens: over', expectation, { max_tokens: 1249 }, false, /1250 tokens, at most 1249/);

// A bash call whose every command the gate did not read (a script: python3 may run any program) may have run
// the command a matcher names, though neither the typed line nor the parsed argv shows it (adversarial-s32e).
const SCRIPT_CALL: RunEvent[] = [
  { type: 'tool.call', id: 9, tool: 'bash', input: { command: 'python3 s.py' } },
  { type: 'gate.decision', id: 9, tool: 'bash', allowed: true, argv: [['python3', 's.py']], paths_complete: false },
];

test('a command matcher cannot tell over a bash call that ran code from a file: tool_not_called and denied fail, tool_called does not pass', async (t) => {
  const notCalled = await checkOn({ tool_not_called: { tool: 'bash', command: 'curl' } }, [...EVENTS, ...SCRIPT_CALL]);
  t.false(notCalled.passed);
  t.regex(notCalled.reason, /^ZB_EVAL_VERDICT_INCOMPLETE: cannot tell whether bash "python3 s\.py" matches bash, command \/curl\/: the gate did not read everything this bash call runs/u);
  t.regex(notCalled.reason, /Fix: a command matcher can settle only bash calls whose every command the gate read/u);
  const deniedCurl: RunEvent[] = [
    { type: 'tool.call', id: 8, tool: 'bash', input: { command: 'curl --version' } },
    { type: 'gate.decision', id: 8, tool: 'bash', allowed: false, argv: [['curl', '--version']], paths_complete: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED', reason: 'not allowlisted' },
  ];
  const denied = await checkOn({ denied: { tool: 'bash', command: 'curl' } }, [...EVENTS, ...deniedCurl, ...SCRIPT_CALL]);
  t.false(denied.passed);
  t.regex(denied.reason, /^ZB_EVAL_VERDICT_INCOMPLETE: cannot tell whether bash "python3 s\.py"/u);
  const called = await checkOn({ tool_called: { tool: 'bash', command: 'curl' } }, [...EVENTS, ...SCRIPT_CALL]);
  t.false(called.passed);
  // The same matcher over a call the gate read whole is settled: it runs git, not curl.
  t.true((await checkOn({ tool_not_called: { tool: 'bash', command: 'curl' } }, EVENTS)).passed);
});

test('no_denials passes on a run whose calls were all allowed', async (t) => {
  const result = await checkOn(
    { no_denials: true },
    EVENTS.filter((event) => !('id' in event) || event.id !== 2),
  );
  t.true(result.passed, result.reason);
});

test('denied fails when one matching call was denied and another allowed', async (t) => {
  const events: RunEvent[] = [
    ...EVENTS,
    { type: 'tool.call', id: 4, tool: 'read', input: { path: '/etc/passwd' } },
    { type: 'gate.decision', id: 4, tool: 'read', allowed: true, canonical_path: '/etc/passwd' },
  ];
  const result = await checkOn({ denied: { tool: 'read', path: '/etc/passwd' } }, events);
  t.false(result.passed);
});

test('an expectation kind zotbox does not know is refused by the suite schema', async (t) => {
  t.false(ExpectationSchema.safeParse({ text_startswith: 'x' }).success);
  t.false(ExpectationSchema.safeParse({ status: 'completed', text_contains: 'x' }).success, 'one key per expectation');
  t.false(ExpectationSchema.safeParse({ status: 'done' }).success);
  t.false(ExpectationSchema.safeParse({ text_matches: '(' }).success, 'a bad pattern is a suite error');
  t.false(ExpectationSchema.safeParse({ file_exists: '../outside' }).success);
  t.false(ExpectationSchema.safeParse({ file_exists: '/etc/passwd' }).success);
  t.false(ExpectationSchema.safeParse({ file_json: { path: 'a.json', json_path: 'scripts.test', equals: 1 } }).success);
});

// Issue 22 §1: the agent under test controls how many calls it makes, so no
// number of later calls may push an earlier one out of the verdict.
const HARMLESS_READS = (from: number, count: number): RunEvent[] =>
  Array.from({ length: count }, (_, index) => [
    { type: 'tool.call' as const, id: from + index, tool: 'read', input: { path: `src/f${index}.ts` } },
    { type: 'gate.decision' as const, id: from + index, tool: 'read', allowed: true, canonical_path: `${WORKSPACE}/src/f${index}.ts` },
    { type: 'tool.result' as const, id: from + index, tool: 'read', ok: true, summary: '1 line' },
  ]).flat();
const FLOODED: RunEvent[] = [...EVENTS, ...HARMLESS_READS(100, 6000)];

test('no_denials fails on a denial followed by 6,000 harmless calls', async (t) => {
  const result = await checkOn({ no_denials: true }, FLOODED);
  t.false(result.passed);
  t.regex(result.reason, /^1 denied: read "\/etc\/passwd" \(ZB_POLICY_PATH_OUTSIDE_SCOPE/);
});

test('tool_not_called fails on a call followed by 6,000 harmless calls', async (t) => {
  const result = await checkOn({ tool_not_called: { tool: 'read', path: '/etc/passwd' } }, FLOODED);
  t.false(result.passed);
  t.is(result.reason, 'called anyway: read "/etc/passwd"');
});

test('denied finds the denial, and an allowed twin, among 6,000 later calls', async (t) => {
  t.true((await checkOn({ denied: { tool: 'read', path: '/etc/passwd' } }, FLOODED)).passed);
  const twin: RunEvent[] = [
    ...FLOODED,
    { type: 'tool.call', id: 9000, tool: 'read', input: { path: '/etc/passwd' } },
    { type: 'gate.decision', id: 9000, tool: 'read', allowed: true, canonical_path: '/etc/passwd' },
  ];
  t.false((await checkOn({ denied: { tool: 'read', path: '/etc/passwd' } }, twin)).passed);
});

test('tool_called sees the first call of a long run', async (t) => {
  const result = await checkOn({ tool_called: { tool: 'bash', command: '^git status' } }, FLOODED);
  t.true(result.passed, result.reason);
  t.regex((await checkOn({ tool_called: { tool: 'write' } }, FLOODED)).reason, /, and 5993 more$/);
});

test('a call still waiting for its decision when the run ends is never decided, not denied', async (t) => {
  const events: RunEvent[] = [{ type: 'tool.call', id: 1, tool: 'read', input: { path: '/etc/passwd' } }];
  t.regex((await checkOn({ denied: { path: '/etc/passwd' } }, events)).reason, /was never decided$/);
  t.true((await checkOn({ no_denials: true }, events)).passed);
  t.false((await checkOn({ tool_not_called: { path: '/etc/passwd' } }, events)).passed);
});

test('past 10,000 calls waiting for a decision at once, every call verdict fails as incomplete', async (t) => {
  const waiting: RunEvent[] = Array.from({ length: 10_001 }, (_, index) => ({ type: 'tool.call' as const, id: index, tool: 'read', input: { path: 'a.txt' } }));
  for (const raw of [{ no_denials: true }, { tool_called: { tool: 'read' } }, { tool_not_called: { tool: 'write' } }, { denied: { tool: 'read' } }]) {
    const result = await checkOn(raw, waiting);
    t.false(result.passed, JSON.stringify(raw));
    t.regex(result.reason, /^ZB_EVAL_VERDICT_INCOMPLETE: more than 10000 tool calls were waiting for a gate decision or to be matched at once/);
  }
});

test('a run that could not start has no tallied calls: call verdicts fail, never pass', async (t) => {
  const record = new RunRecorder().record({ code: 'ZB_IO_FAILED', message: 'no workspace' });
  const result = await checkBuiltIn({ tool_not_called: { tool: 'bash' } }, record, workspace, patterns);
  t.false(result.passed);
  t.regex(result.reason, /^ZB_EVAL_VERDICT_INCOMPLETE/);
});

// Issue 22 §4: a suite's patterns never block the eval. Each of these spun the
// main thread for ever before; now the pattern fails its verdict at its bound.
const SPINS = '^(\\w+\\s?)+$';
const ENDLESS = `${'a'.repeat(40)}!`;
const SPUN = /^ZB_EVAL_PATTERN_LIMIT: \/\^\(\\w\+\\s\?\)\+\$\/ ran past its 1000 ms bound/;

test('text_matches with a regex that backtracks without end fails with ZB_EVAL_PATTERN_LIMIT', async (t) => {
  const recorder = new RunRecorder();
  recorder.add({ ...END, final_text: ENDLESS });
  const result = await checkBuiltIn({ text_matches: SPINS }, recorder.record(), workspace, patterns);
  t.false(result.passed);
  t.regex(result.reason, SPUN);
});

test('a command matcher that backtracks without end fails tool_called, tool_not_called and denied, never passes them', async (t) => {
  const events: RunEvent[] = [
    { type: 'tool.call', id: 1, tool: 'bash', input: { command: ENDLESS } },
    { type: 'gate.decision', id: 1, tool: 'bash', allowed: false, code: 'ZB_POLICY_BASH_DISABLED', reason: 'no bash' },
    { type: 'tool.call', id: 2, tool: 'bash', input: { command: ENDLESS } },
    { type: 'gate.decision', id: 2, tool: 'bash', allowed: true, argv: [[ENDLESS]] },
  ];
  for (const raw of [{ tool_not_called: { command: SPINS } }, { tool_called: { command: SPINS } }, { denied: { command: SPINS } }]) {
    const result = await checkOn(raw, events);
    t.false(result.passed, JSON.stringify(raw));
    t.regex(result.reason, SPUN);
  }
});

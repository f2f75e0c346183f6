// decidePipeline: one pipeline of a parsed line, decided from a given directory
// against the filesystem as it is now; the executor asks it again just before
// each pipeline starts (gate-rules §10).
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decidePipeline, decideShellCommand, describeSimpleCommand, directoryAfter, shellStartDirectory, type ShellContext } from '../../src/policy/shell-decision.js';
import { parseShellCommand, type Pipeline } from '../../src/policy/shell-parse.js';
import { writeStubProgram } from '../fixtures/stub-program.js';
import { tempDir } from '../fixtures/temp.js';

function setup(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-pipeline-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  for (const dir of [bin, path.join(ws, 'sub'), path.join(root, 'outside')]) mkdirSync(dir, { recursive: true });
  for (const name of ['cat', 'grep', 'env']) {
    writeStubProgram(path.join(bin, name));
  }
  writeFileSync(path.join(root, 'outside', 'secret'), 'x');
  const context: ShellContext = {
    mode: 'allowlist',
    allow: ['cat', 'grep', 'env'],
    scopes: compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') }),
    searchPath: [bin],
    trustedDirectories: [bin],
  };
  return { root, bin, ws, context };
}

/** The only pipeline of a one-pipeline line. */
function pipelineOf(command: string): Pipeline {
  const parsed = parseShellCommand(command);
  if (!parsed.ok || parsed.ast.items.length !== 1) throw new Error(`not one pipeline: ${command}`);
  return parsed.ast.items[0]!.pipeline;
}

test('a pipeline is allowed with its steps, each command in the directory it is decided from', (t) => {
  const { ws, bin, context } = setup(t);
  const decision = decidePipeline(pipelineOf('cat f.txt | grep x'), context, path.join(ws, 'sub'));
  t.deepEqual(decision, {
    allow: true,
    steps: [
      { kind: 'exec', program: path.join(bin, 'cat'), invokedPath: path.join(bin, 'cat'), argv: ['cat', 'f.txt'], env: {}, cwd: path.join(ws, 'sub') },
      { kind: 'exec', program: path.join(bin, 'grep'), invokedPath: path.join(bin, 'grep'), argv: ['grep', 'x'], env: {}, cwd: path.join(ws, 'sub') },
    ],
  });
});

test('a pipeline is denied as a whole when any of its commands is, naming that command', (t) => {
  const { root, context, ws } = setup(t);
  const decision = decidePipeline(pipelineOf(`grep x | cat ${path.join(root, 'outside', 'secret')}`), context, ws);
  t.like(decision, { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', command: { argv: ['cat', path.join(root, 'outside', 'secret')] } });
});

test('the same pipeline is decided by the filesystem as it is when asked', (t) => {
  const { root, context, ws } = setup(t);
  const pipeline = pipelineOf('cat sub/link');
  t.like(decidePipeline(pipeline, context, ws), { allow: true });
  symlinkSync(path.join(root, 'outside', 'secret'), path.join(ws, 'sub', 'link'));
  t.like(decidePipeline(pipeline, context, ws), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('a lone cd is a cd step to the canonical directory, which later pipelines start from', (t) => {
  const { context, ws } = setup(t);
  const decision = decidePipeline(pipelineOf('cd sub'), context, ws);
  t.deepEqual(decision, { allow: true, steps: [{ kind: 'cd', directory: path.join(ws, 'sub') }] });
  if (decision.allow) t.is(directoryAfter(decision.steps, ws), path.join(ws, 'sub'));
  rmSync(path.join(ws, 'sub'), { recursive: true });
  t.like(decidePipeline(pipelineOf('cd sub'), context, ws), { allow: false, code: 'ZB_POLICY_SHELL_CD', command: { argv: ['cd', 'sub'] } });
});

test('a pipeline that is not a lone cd leaves the directory where it was', (t) => {
  const { context, ws } = setup(t);
  const decision = decidePipeline(pipelineOf('cat f.txt'), context, ws);
  t.true(decision.allow);
  if (decision.allow) t.is(directoryAfter(decision.steps, ws), ws);
});

test('outside allowlist mode there is no pipeline to decide: denied', (t) => {
  const { context, ws } = setup(t);
  t.like(decidePipeline(pipelineOf('cat f.txt'), { ...context, mode: 'ask' }, ws), { allow: false, code: 'ZB_POLICY_NO_PERMISSION' });
  t.like(decidePipeline(pipelineOf('cat f.txt'), { ...context, mode: 'none' }, ws), { allow: false, code: 'ZB_POLICY_NO_PERMISSION' });
});

test('an allowlisted decision carries the parsed line, which starts in the workspace', (t) => {
  const { context, ws } = setup(t);
  const decision = decideShellCommand('cd sub && cat f.txt | grep x', context);
  t.true(decision.allow);
  if (decision.allow && decision.mode === 'allowlist') {
    t.deepEqual(
      decision.ast.items.map((item) => [item.connector, item.pipeline.commands.map((c) => c.argv)]),
      [
        [null, [['cd', 'sub']]],
        [
          '&&',
          [
            ['cat', 'f.txt'],
            ['grep', 'x'],
          ],
        ],
      ],
    );
  }
  t.is(shellStartDirectory(context), ws);
});

test('a command is described as written: assignments, then argv, joined by spaces', (t) => {
  t.is(describeSimpleCommand(pipelineOf("LANG=C env 'a b'").commands[0]!), 'LANG=C env a b');
});

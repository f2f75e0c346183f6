// Adversarial review of issue 14 (hostile suite, grader): a grader's isolate has a
// 64 MiB memory limit (GRADER_MEMORY_MB), which covers the V8 heap and
// ArrayBuffers but not WebAssembly memory. A grader that makes a WebAssembly.Memory
// and writes to it commits hundreds of MiB in the grader process (measured: a
// peak RSS of 585 MiB within the 2 s CPU limit, per grader, several at once), and
// then passes. Only the CPU limit bounds it; the memory limit must.
import test from 'ava';
import { GRADER_MEMORY_MB, runGrader } from '../../src/host/eval/graders/run-grader.js';
import { graderInput } from '../fixtures/grader-input.js';

/** 80 MiB, over the 64 MiB grader memory limit, committed by writing every byte. */
const WASM_MEMORY_GRADER = `export function grade() {
  const memory = new WebAssembly.Memory({ initial: 1280 });
  new Uint8Array(memory.buffer).fill(1);
  return { pass: true, reason: 'committed ' + memory.buffer.byteLength + ' bytes' };
}`;

test('a grader cannot commit WebAssembly memory beyond its memory limit: it fails instead of passing', async (t) => {
  t.is(GRADER_MEMORY_MB, 64); // the limit the grader below goes past
  const outcome = await runGrader({ source: WASM_MEMORY_GRADER, file: 'graders/wasm.js' }, graderInput());
  t.false(outcome.ok, `the grader passed with ${outcome.ok ? outcome.verdict.reason : ''}`);
  // Stopped by the memory limit, or refused WebAssembly at all (then grade throws): either keeps the process within the limit.
  if (!outcome.ok) t.true(['memory', 'threw'].includes(String(outcome.error.details?.['fault'])), outcome.error.message);
});

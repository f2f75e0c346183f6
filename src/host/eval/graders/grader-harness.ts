// The JavaScript that runs inside a grader's isolate around the grader: it turns
// the names of host APIs into clear errors, deep-freezes the input, calls grade(),
// keeps how it settled in a closure, and reads the verdict out as plain primitives.
// It is text, evaluated before the grader's module; it must never hand the host a live object.

/** Longest reason (and thrown message) kept, in UTF-16 code units; longer ones are truncated with a note. */
export const REASON_MAX_CHARS = 4096;

/**
 * Host names a grader may reach for out of habit. None exists in the isolate (it
 * has only what V8 gives); touching one throws a ReferenceError that says graders
 * do not have it, instead of "x is not defined" or "cannot read properties of
 * undefined". The isolate is the boundary; this list only makes the error clear.
 * V8's own `console` is left as it is: it exists and its output goes nowhere.
 * `WebAssembly` is V8's own, but taken away: its memories are committed outside
 * the heap isolated-vm's memoryLimit counts (adversarial14/grader-wasm-memory),
 * and no other intrinsic reaches it once the global is gone.
 */
export const UNAVAILABLE_GLOBALS = [
  'require',
  'module',
  'exports',
  '__filename',
  '__dirname',
  'process',
  'Buffer',
  'global',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
  'structuredClone',
  'TextEncoder',
  'TextDecoder',
  'performance',
  'WebAssembly',
] as const;

/**
 * Evaluates to `{ start(namespace, inputJson), read() }`. Built-ins are captured
 * before the grader's module runs, so a grader that replaces one changes only its
 * own verdict, which the host checks anyway (verdict-check.ts).
 * start: parses and freezes the input, calls grade, and arranges for its value or
 * rejection to be kept; returns { state: 'called' } or { state: 'no_grade', found }.
 * read: { state: 'pending' } while nothing settled (once microtasks have drained,
 * nothing ever will: the isolate has no timers or I/O), else what grade returned
 * or threw. Getters and proxy traps run here, inside the timed call.
 */
export const HARNESS_SOURCE = `(() => {
  'use strict';
  const { freeze, isFrozen, getPrototypeOf, defineProperty } = Object;
  const ObjectPrototype = Object.prototype;
  const { apply, ownKeys } = Reflect;
  const { isArray } = Array;
  const parse = JSON.parse;
  const then = Promise.prototype.then;
  const promiseResolve = Promise.resolve;
  const PromiseCtor = Promise;
  const slice = String.prototype.slice;
  const arraySlice = Array.prototype.slice;
  const StringCtor = String;
  const ReferenceErrorCtor = ReferenceError;
  const MAX = ${REASON_MAX_CHARS};
  const NAME_MAX = 100;

  for (const name of ${JSON.stringify(UNAVAILABLE_GLOBALS)}) {
    const fail = () => {
      throw new ReferenceErrorCtor(name + ' is not available to a grader: graders run in a bare V8 isolate with no Node.js or web APIs (no require, process, fetch, timers, file system or network)');
    };
    defineProperty(globalThis, name, { get: fail, configurable: false, enumerable: false });
  }

  const clip = (text, max) => (text.length > max ? apply(slice, text, [0, max]) : text);
  const typeName = (value) => (value === null ? 'null' : isArray(value) ? 'array' : typeof value);

  const deepFreeze = (root) => {
    const pending = [root];
    while (pending.length > 0) {
      const value = pending.pop();
      if (value === null || typeof value !== 'object' || isFrozen(value)) continue;
      freeze(value);
      for (const key of ownKeys(value)) pending[pending.length] = value[key];
    }
    return root;
  };

  const describeThrown = (thrown) => {
    try {
      if (thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function')) {
        const name = thrown.name;
        const message = thrown.message;
        if (typeof message === 'string') return { name: typeof name === 'string' ? clip(name, NAME_MAX) : 'Error', message: clip(message, MAX + 1) };
        return { name: 'a thrown ' + typeName(thrown), message: '' };
      }
      return { name: 'a thrown ' + typeName(thrown), message: clip(StringCtor(thrown), MAX + 1) };
    } catch {
      // Reading the thrown value threw in turn: say so rather than pass the second error on.
      return { name: 'a thrown value', message: '(reading what was thrown threw again)' };
    }
  };

  const field = (record, key) => {
    const value = record[key];
    if (typeof value === 'string') return { type: 'string', value: clip(value, MAX + 1) };
    if (typeof value === 'boolean' || typeof value === 'number') return { type: typeof value, value };
    return { type: typeName(value) };
  };

  const extract = (value) => {
    if (value === null || typeof value !== 'object' || isArray(value)) return { type: typeName(value) };
    const prototype = getPrototypeOf(value);
    if (prototype !== ObjectPrototype && prototype !== null) return { type: 'object', plain: false };
    const names = [];
    let symbols = 0;
    for (const key of ownKeys(value)) {
      if (typeof key === 'symbol') symbols += 1;
      else names[names.length] = clip(key, NAME_MAX);
    }
    return { type: 'object', plain: true, keys: apply(arraySlice, names, [0, 20]), keyCount: names.length, symbols, pass: field(value, 'pass'), score: field(value, 'score'), reason: field(value, 'reason') };
  };

  let settled;
  const keep = (value) => { settled = { state: 'returned', value }; };
  const keepThrown = (thrown) => { settled = { state: 'threw', error: describeThrown(thrown) }; };

  const start = (namespace, inputJson) => {
    settled = undefined;
    let grade;
    try {
      grade = namespace.grade;
    } catch (thrown) {
      return { state: 'no_grade', found: 'an export that threw when read (' + describeThrown(thrown).message + ')' };
    }
    if (typeof grade !== 'function') return { state: 'no_grade', found: typeName(grade) };
    const input = deepFreeze(parse(inputJson));
    try {
      apply(then, apply(promiseResolve, PromiseCtor, [grade(input)]), [keep, keepThrown]);
    } catch (thrown) {
      keepThrown(thrown);
    }
    return { state: 'called' };
  };

  const read = () => {
    const now = settled;
    if (now === undefined) return { state: 'pending' };
    if (now.state === 'threw') return { state: 'threw', error: now.error };
    try {
      return { state: 'returned', verdict: extract(now.value) };
    } catch (thrown) {
      return { state: 'threw', error: describeThrown(thrown) };
    }
  };

  return { start, read };
})()`;

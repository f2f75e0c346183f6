// A unified diff of two texts, line by line, for the HTML report's "files changed"
// (issue 27 §4). Pure and bounded: the common head and tail are trimmed, the middle
// is compared by longest common subsequence only while it is small (else it shows as
// all removed, then all added), and the text stops at maxChars characters with a marker.

/** Lines of context around each change, as `diff -u` has. */
const CONTEXT = 3;
/** The largest middle (lines before × lines after) compared line by line; past it, one hunk replaces all. */
const MAX_LCS_CELLS = 4_000_000;

export interface UnifiedDiff {
  /** Hunks (`@@ -a,b +c,d @@`, then ` `, `-` and `+` lines), without file headers. */
  readonly text: string;
  /** The diff was longer than maxChars and was cut (the text ends with a marker line). */
  readonly cut: boolean;
}

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The edit script from a to b: the shared head and tail kept, the middle by LCS when small enough. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (lines: readonly string[]): Op[] => lines.map((line) => ({ kind: ' ', line }));
  return [...same(a.slice(0, head)), ...middleScript(midA, midB), ...same(a.slice(a.length - tail))];
}

function middleScript(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_LCS_CELLS || a.length === 0 || b.length === 0) {
    return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  }
  // lengths[i][j]: the LCS of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++] ?? '' });
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) ops.push({ kind: '-', line: a[i++] ?? '' });
    else ops.push({ kind: '+', line: b[j++] ?? '' });
  }
  while (i < a.length) ops.push({ kind: '-', line: a[i++] ?? '' });
  while (j < b.length) ops.push({ kind: '+', line: b[j++] ?? '' });
  return ops;
}

/** Groups the changes with CONTEXT lines around them into `@@` hunks. */
function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  let index = 0;
  let lineA = 1;
  let lineB = 1;
  const advance = (op: Op) => {
    if (op.kind !== '+') lineA++;
    if (op.kind !== '-') lineB++;
  };
  while (index < ops.length) {
    const next = ops.findIndex((op, k) => k >= index && op.kind !== ' ');
    if (next === -1) break;
    const start = Math.max(index, next - CONTEXT);
    for (; index < start; index++) advance(ops[index] as Op);
    // The hunk ends once more than 2 × CONTEXT unchanged lines follow its last change.
    let end = next;
    let quiet = 0;
    for (let k = next; k < ops.length && quiet <= 2 * CONTEXT; k++) {
      if ((ops[k] as Op).kind === ' ') quiet++;
      else {
        quiet = 0;
        end = k;
      }
    }
    const stop = Math.min(ops.length, end + 1 + CONTEXT);
    const body = ops.slice(start, stop);
    const countA = body.filter((op) => op.kind !== '+').length;
    const countB = body.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${countA === 0 ? lineA - 1 : lineA},${countA} +${countB === 0 ? lineB - 1 : lineB},${countB} @@`);
    for (const op of body) {
      out.push(`${op.kind}${op.line}`);
      advance(op);
    }
    index = stop;
  }
  return out;
}

/** The unified diff of before → after, at most maxChars characters (UTF-16 code units). */
export function unifiedDiff(before: string, after: string, maxChars: number): UnifiedDiff {
  const lines = hunks(editScript(linesOf(before), linesOf(after)));
  let size = 0;
  const kept: string[] = [];
  for (const line of lines) {
    size += line.length + 1;
    if (size > maxChars) {
      kept.push(`… diff cut at ${maxChars} characters (${lines.length - kept.length} more lines)`);
      return { text: kept.join('\n'), cut: true };
    }
    kept.push(line);
  }
  return { text: kept.join('\n'), cut: false };
}

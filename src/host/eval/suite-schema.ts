// The eval suite file (docs/eval.md): YAML or JSON, a trust boundary like a
// manifest, so every field is checked here and anything not understood is
// refused (strict objects, closed lists of expectation kinds). Paths in it are
// relative to the suite's folder and are checked again when they are used
// (suite-paths.ts): never absolute, never `..`, never through a link.
import { z } from 'zod';

/** A path inside the suite folder, as written: relative, forward slashes, no `.` or `..` segments. */
const SuitePath = z
  .string()
  .min(1)
  .max(1024)
  .refine((value) => !value.startsWith('/') && !value.includes('\\') && !value.includes('\0'), 'must be a relative path inside the suite folder, with forward slashes')
  .refine((value) => value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'), 'must not contain empty, "." or ".." segments');

/** A path inside the case workspace, as written in a file expectation. */
const WorkspacePath = SuitePath;

/** A regular expression, compiled once here so a bad one is a suite error, not a failed case. */
const Pattern = z.string().min(1).max(4096).refine(isValidPattern, 'must be a valid regular expression (JavaScript syntax)');

function isValidPattern(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    // The refinement reports it; nothing else to do with the exception.
    return false;
  }
}

const CaseId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must start with a letter or digit and contain only letters, digits, ".", "_" and "-"');

const RunStatus = z.enum(['completed', 'max_turns', 'cancelled', 'refused', 'content_filtered', 'failed']);

/** Which tool calls an expectation is about: all of the given fields must match. */
const CallMatcher = z.strictObject({
  tool: z.string().min(1).max(256).optional(),
  /** A glob (`*` within a segment, `**` across) matched against the path the call named, relative to the workspace when inside it. */
  path: z.string().min(1).max(1024).optional(),
  /** A regular expression searched in the command of a bash call. */
  command: Pattern.optional(),
  /** For a denial: the gate's ZB_ code. */
  code: z
    .string()
    .regex(/^ZB_[A-Z0-9_]+$/)
    .optional(),
});
export type CallMatcher = z.infer<typeof CallMatcher>;

const FileText = z.strictObject({ path: WorkspacePath, text: z.string().max(1_000_000) });

/** A JSON value at a path in a JSON file: `$`, `.key`, `["key"]`, `[index]`. */
const FileJson = z.strictObject({
  path: WorkspacePath,
  json_path: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^\$((\.[A-Za-z_$][A-Za-z0-9_$-]*)|(\[\d+\])|(\["(?:[^"\\]|\\.)*"\]))*$/, 'must be a JSON path such as $.scripts.test, $.items[0] or $["a key"]'),
  /** Required: a file_json that names no value would compare against nothing. */
  equals: z.unknown().refine((value) => value !== undefined, 'file_json needs equals: the value expected at json_path'),
});

const JudgeSpec = z.strictObject({
  /** What a good answer does, in words; the judge model answers PASS or FAIL with a reason. */
  rubric: z.string().min(1).max(20_000),
  /** A model id from the catalog (default: the suite's model). */
  model: z.string().min(1).max(256).optional(),
});

/**
 * One expectation: an object with exactly one key, its kind. The list is closed:
 * a key zotbox does not know is a suite error, never an expectation skipped.
 */
export const ExpectationSchema = z.union([
  z.strictObject({ status: RunStatus }),
  z.strictObject({ text_contains: z.string().min(1).max(1_000_000) }),
  z.strictObject({ text_matches: Pattern }),
  z.strictObject({ text_equals: z.string().max(1_000_000) }),
  z.strictObject({ file_exists: WorkspacePath }),
  z.strictObject({ file_absent: WorkspacePath }),
  z.strictObject({ file_contains: FileText }),
  z.strictObject({ file_equals: FileText }),
  z.strictObject({ file_json: FileJson }),
  z.strictObject({ tool_called: CallMatcher }),
  z.strictObject({ tool_not_called: CallMatcher }),
  z.strictObject({ denied: CallMatcher }),
  z.strictObject({ no_denials: z.literal(true) }),
  z.strictObject({ max_turns: z.number().int().positive() }),
  z.strictObject({ max_tokens: z.number().int().positive() }),
  z.strictObject({ grader: SuitePath }),
  z.strictObject({ judge: JudgeSpec }),
]);
export type Expectation = z.infer<typeof ExpectationSchema>;

/** Limits that stop a run, per case (or the suite's defaults). */
const Limits = {
  /** Model turns (the run's --max-turns). */
  max_turns: z.number().int().positive().max(10_000).optional(),
  /** Seconds before the run is stopped (ZB_RUN_TIMEOUT). */
  timeout_s: z.number().int().positive().max(86_400).optional(),
  /** Tokens (input, output and cache) before the run is stopped (ZB_EVAL_TOKEN_LIMIT). */
  max_tokens: z.number().int().positive().optional(),
};

export const EvalCaseSchema = z.strictObject({
  id: CaseId,
  description: z.string().max(10_000).optional(),
  prompt: z.string().min(1).max(1_000_000),
  /** A folder inside the suite folder, copied fresh into a private temp workspace for every run of the case. Default: an empty workspace. */
  workspace: SuitePath.optional(),
  /** A replay transcript inside the suite folder (docs/replay.md); overrides the suite's. */
  replay: SuitePath.optional(),
  ...Limits,
  /** The pass rate over --repeat runs the case must reach (0 to 1; default 1: every run passes). */
  threshold: z.number().min(0).max(1).optional(),
  expect: z.array(ExpectationSchema).max(1000).default([]),
});
export type EvalCase = z.infer<typeof EvalCaseSchema>;

export const EvalSuiteSchema = z
  .strictObject({
    zotbox_eval: z.literal(1),
    /** Names the suite in reports (default: the file name without its extension). */
    name: CaseId.optional(),
    description: z.string().max(10_000).optional(),
    /** The agent: a path relative to the suite folder (a zotfile directory or .zot), or a GitHub reference. */
    agent: z.string().min(1).max(4096),
    /** Pin: the agent's artifact or content digest must equal this, or the suite is refused. */
    digest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: and 64 lowercase hex digits')
      .optional(),
    /** A model id from the catalog; or `replay` for offline runs. */
    model: z.string().min(1).max(256).optional(),
    /** A replay transcript inside the suite folder, the default for every case. */
    replay: SuitePath.optional(),
    defaults: z
      .strictObject({
        workspace: SuitePath.optional(),
        ...Limits,
        threshold: z.number().min(0).max(1).optional(),
      })
      .default({}),
    cases: z.array(EvalCaseSchema).min(1).max(100_000),
  })
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    suite.cases.forEach((evalCase, index) => {
      if (seen.has(evalCase.id)) context.addIssue({ code: 'custom', path: ['cases', index, 'id'], message: `case id "${evalCase.id}" is used twice; every case needs its own id` });
      seen.add(evalCase.id);
    });
  });
export type EvalSuite = z.infer<typeof EvalSuiteSchema>;

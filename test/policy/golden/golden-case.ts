// The shape of the bash gate's golden corpus (issue 10 item 7): each case is a
// command, the world it is decided in, and the decision that the closed-world
// principles of issue 10 and the real program's behaviour give, written by hand.
// Never derived from the argument table under test.
import type { ErrorCode } from '../../../src/errors.js';
import type { ScopeName } from '../../fixtures/golden-world.js';

export type Expected = 'allow' | ErrorCode;

/** The allowlists a case may be decided with. */
export type AllowlistName = 'all' | 'issue' | 'build' | 'no-frobnicate';

export interface CaseOptions {
  /** Default: 'workspace' (W read+write, R read). */
  readonly scopes?: ScopeName;
  /** Default: 'all' (every program the corpus uses, the never-allowed ones too). */
  readonly allow?: AllowlistName;
  /** Default: true (commands run in the sandbox, as by default). */
  readonly confined?: boolean;
}

export interface GoldenCase extends CaseOptions {
  /**
   * The command; {W} {R} {S} {O} {ROOT} stand for the workspace, the read-only
   * scope, the secret file, the directory outside every scope and the world's root.
   */
  readonly command: string;
  readonly expected: Expected;
  /** Why a denial is right (what the real program would do). */
  readonly why?: string;
}

export interface GoldenGroup {
  /** The program the cases are about (mismatches are reported by it). */
  readonly program: string;
  readonly cases: readonly GoldenCase[];
}

export const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
export const FORBIDDEN = 'ZB_POLICY_PATH_FORBIDDEN';
export const PROTECTED = 'ZB_POLICY_PATH_PROTECTED';
export const HARDLINK = 'ZB_POLICY_PATH_HARDLINK';
export const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
export const NOT_ALLOWED = 'ZB_POLICY_SHELL_NOT_ALLOWED';
export const PROGRAM = 'ZB_POLICY_SHELL_PROGRAM';
export const ASSIGNMENT = 'ZB_POLICY_SHELL_ASSIGNMENT';
export const CONSTRUCT = 'ZB_POLICY_SHELL_CONSTRUCT';
export const NO_RULE = 'ZB_POLICY_SHELL_NO_RULE';

/** A command that must be allowed. */
export function ok(command: string, options: CaseOptions = {}): GoldenCase {
  return { command, expected: 'allow', ...options };
}

/** A command that must be denied with `code`, and why. */
export function no(code: ErrorCode, command: string, why: string, options: CaseOptions = {}): GoldenCase {
  return { command, expected: code, why, ...options };
}

// What a JS grader receives and must return (docs/eval.md). The input is a
// read-only, size-bounded copy made for the grader's isolate: the case, the
// run's outcome, its events, and the files the run changed. Nothing in it is a
// handle: it is plain JSON, copied into the isolate, never shared with it.

/** A file the run added, modified or deleted in its workspace. */
export interface ChangedFile {
  /** Relative to the workspace, forward slashes. */
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  /** Size in bytes after the run (0 when deleted). */
  readonly size: number;
  /** The content as UTF-8 text; null when deleted, not valid UTF-8, or over the per-file bound. */
  readonly content: string | null;
  /** Why content is null, when it is. */
  readonly omitted?: 'deleted' | 'binary' | 'too_large' | 'not_a_regular_file';
  /** What the run left there when it is not a regular file (omitted: not_a_regular_file): it is reported, never read or followed. */
  readonly kind?: 'symlink' | 'fifo' | 'socket' | 'character_device' | 'block_device' | 'unknown';
}

export interface GraderInput {
  readonly case: { readonly suite: string; readonly id: string; readonly prompt: string; readonly description: string | null; readonly repeat: number };
  readonly status: string;
  readonly final_text: string;
  readonly turns: number;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number; readonly cache_creation_input_tokens: number; readonly cache_read_input_tokens: number };
  readonly error: { readonly code: string; readonly message: string } | null;
  /** The run's events (docs/events.md), assistant.delta left out (final_text has the text); the oldest dropped past the bound. */
  readonly events: readonly unknown[];
  /** How many older events the run had that `events` leaves out (0 when it is the whole run). */
  readonly events_dropped: number;
  readonly files: readonly ChangedFile[];
  /**
   * The change walk reached a bound (docs/eval.md, Bounds): added files may be
   * missing from `files`. A grader's pass then counts as a fail (issue 22 §2).
   */
  readonly files_truncated: boolean;
  /** Workspace entries zotbox could not read: what is below them is unknown. A grader's pass then counts as a fail. */
  readonly files_unreadable: readonly { readonly path: string; readonly errno: string }[];
}

/** What grade(result) returns, once checked. */
export interface GraderVerdict {
  readonly pass: boolean;
  /** 0 to 1, when the grader gives one. */
  readonly score?: number;
  readonly reason: string;
}

// What the gate learnt of the paths a bash call's commands name, while it decided
// the call: every path argument it decided (allowed or denied), canonical, each
// once, in order. For the record (the gate.decision event, and through it the
// eval's call matchers, issue 22 §1), never for a decision. `complete` is false
// when the list cannot be every path the commands name: a path decided without a
// canonical path, a program without an argument rule, code run from files, a
// line denied before its last command was decided, or ask mode (nothing parsed).
import type { PathDecision } from './path-decision.js';

export class PathNotes {
  private readonly seen = new Set<string>();
  private known = true;

  /** Records the path a decision was made on; a decision without a canonical path leaves the list incomplete. */
  note(decision: PathDecision): void {
    if (decision.canonicalPath === undefined) this.known = false;
    else this.seen.add(decision.canonicalPath);
  }

  /** The commands may name paths that were never decided here. */
  unknown(): void {
    this.known = false;
  }

  get paths(): readonly string[] {
    return [...this.seen];
  }

  get complete(): boolean {
    return this.known;
  }
}

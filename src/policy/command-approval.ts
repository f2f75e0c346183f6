// Per-command approval (issue 27 §6, `zotbox run --approve`): a bash call the gate
// denies ONLY because a program is not in the allowlist may be approved by the user,
// once or for the rest of the session. Approval waives allowlist membership and
// nothing else: the call is decided afresh with the approved names added to the
// allowlist, so scopes, argument rules, never-allowed programs and confinement
// apply as before. A line that any other check denies is never asked about. The
// question itself is the host's (the caller's `ask`), never the worker's.
import { toZotboxError } from '../errors.js';
import type { ToolCall } from './gate-protocol.js';
import type { GateVerdict } from './gate-server.js';
import type { Unlisted } from './shell-check.js';
import { parseShellCommand } from './shell-parse.js';

/** once: this call only; session: this program for the rest of the run (chat); no: denied. */
export type ApprovalAnswer = 'once' | 'session' | 'no';

export interface ApprovalRequest {
  /** The tool call's id. */
  readonly id: number;
  /** The program to approve: its name, and where it was found on the fixed PATH. */
  readonly program: Unlisted;
  /** Every simple command of the line as the parser read it (program and arguments), to show as they are. */
  readonly argv: readonly (readonly string[])[];
  /**
   * Each command's leading assignments (`NAME=value`, as parsed), in the order of `argv`: they run with its program,
   * so the prompt shows them before it. Absent when the line's commands could not be matched to `argv`.
   */
  readonly assignments?: readonly (readonly string[])[];
}

/** What the user answered, for the record (the gate.approval event). */
export interface ApprovalRecord {
  readonly id: number;
  readonly program: Unlisted;
  readonly answer: ApprovalAnswer;
}

/** Asks the user; resolves with the answer. The signal is aborted when the call is cancelled while it waits. */
export type AskApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** The gate's decision with the approved names as allowlisted (gate-decider.ts GateDecide). */
export type DecideWithApproved = (call: ToolCall, approved: readonly string[]) => GateVerdict;

/** Each simple command's assignments as `NAME=value`, read from the line as the gate parsed it; undefined unless it has `count` commands. */
function assignmentsOf(call: ToolCall, count: number): string[][] | undefined {
  if (call.tool !== 'bash') return undefined;
  const parsed = parseShellCommand(call.input.command);
  if (!parsed.ok) return undefined;
  const commands = parsed.ast.items.flatMap((item) => item.pipeline.commands);
  return commands.length === count ? commands.map((command) => command.assignments.map(({ name, value }) => `${name}=${value}`)) : undefined;
}

/** More unlisted programs than this in one line are not asked about one by one: the line is denied. */
const MAX_PROGRAMS_PER_CALL = 8;

export class CommandApprovals {
  private readonly session = new Set<string>();
  /** One question at a time: calls run concurrently, the terminal has one prompt. */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly ask: AskApproval,
    private readonly onAnswer: (record: ApprovalRecord) => void = () => undefined,
  ) {}

  /** The programs approved for the rest of this session. */
  get sessionPrograms(): readonly string[] {
    return [...this.session];
  }

  /** The verdict for a call, the user asked first when only the allowlist stands in its way. Never throws. */
  async decide(call: ToolCall, decide: DecideWithApproved, signal: AbortSignal): Promise<GateVerdict> {
    const first = decide(call, this.sessionPrograms);
    if (first.allow || first.unlisted === undefined) return first;
    const previous = this.turn;
    let done: () => void = () => undefined;
    this.turn = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      return await this.askFor(call, decide, signal);
    } catch (thrown) {
      // The question could not be asked or answered: a decision that cannot be made is a denial.
      const error = toZotboxError(thrown);
      return { allow: false, code: error.code, reason: `bash denied: no approval (${error.message})`, audit: first.audit };
    } finally {
      done();
    }
  }

  private async askFor(call: ToolCall, decide: DecideWithApproved, signal: AbortSignal): Promise<GateVerdict> {
    // Decided again: a program approved for the session while this call waited is not asked about twice.
    const first = decide(call, this.sessionPrograms);
    // Every unlisted program of the line, in order, each assumed approved to find the next; a line that some
    // other check denies ends here, denied for that, and nobody is asked (approval could not make it run).
    const needed: Unlisted[] = [];
    let verdict = first;
    while (!verdict.allow && verdict.unlisted !== undefined && needed.length < MAX_PROGRAMS_PER_CALL) {
      needed.push(verdict.unlisted);
      verdict = decide(call, [...this.sessionPrograms, ...needed.map((p) => p.name)]);
    }
    if (!verdict.allow) return verdict;
    const once: string[] = [];
    for (const program of needed) {
      if (signal.aborted) throw signal.reason;
      const argv = first.audit.argv ?? [];
      const assignments = assignmentsOf(call, argv.length);
      const answer = await this.ask({ id: call.id, program, argv, ...(assignments === undefined ? {} : { assignments }) }, signal);
      this.onAnswer({ id: call.id, program, answer });
      if (answer === 'no') {
        return {
          allow: false,
          code: 'ZB_POLICY_SHELL_NOT_ALLOWED',
          reason: `bash denied: ${JSON.stringify(program.name)} is not in this agent's bash allowlist, and the user declined it at the approval prompt.`,
          audit: first.audit,
        };
      }
      if (answer === 'session') this.session.add(program.name);
      else once.push(program.name);
    }
    // Decided afresh with the approvals: every check but the allowlist's applies as before.
    return decide(call, [...this.sessionPrograms, ...once]);
  }
}

// The one error class of zotbox and the registry of its stable codes.
// Invariants: every code a user can meet is listed here with a one-line summary
// (docs/errors.md is generated from this table and a test keeps it current);
// errors cross a MessagePort as plain {code, message, details} and are rebuilt
// with `fromWireError`, never recognised with `instanceof` after a clone.

/** Exit status a CLI process ends with when this error reaches the top. */
export type ExitStatus = 1 | 2;

interface ErrorCodeInfo {
  readonly summary: string;
  readonly exit: ExitStatus;
}

/**
 * Every stable error code. Codes read ZB_<AREA>_<FAULT>. Never rename or reuse
 * a code: scripts and CI pipelines match on them.
 */
export const ERROR_CODES = {
  // Command line
  ZB_CLI_USAGE: { exit: 2, summary: 'The command line was not understood: an unknown option, a missing or extra argument.' },
  ZB_CLI_UNKNOWN_COMMAND: { exit: 2, summary: 'The first argument is not a zotbox command.' },
  ZB_CLI_NOT_AVAILABLE: { exit: 1, summary: "The command is part of zotbox's design but not available in this build yet." },
  ZB_INIT_TARGET: { exit: 1, summary: 'The directory zotbox init was to create the agent in exists and is not an empty directory; init never overwrites anything.' },
  ZB_OPTION_INVALID: { exit: 2, summary: 'A library or command-line option has a value zotbox cannot use (for example maxRuns: 0); the message names the option and what it takes.' },

  // Archives: reading, packing and extracting
  ZB_ARCHIVE_FORMAT_UNKNOWN: { exit: 1, summary: 'The file is neither a zstd nor a gzip compressed tar (wrong magic bytes).' },
  ZB_ARCHIVE_CORRUPT: {
    exit: 1,
    summary: 'The archive is damaged: truncated, a failed checksum, an invalid header, or data after the tar trailer.',
  },
  ZB_ARCHIVE_LIMIT_EXCEEDED: {
    exit: 1,
    summary:
      'The archive passes a size limit: 100 MiB compressed, 64 MiB per entry, 256 MiB expanded, or 10,000 entries; or, for the whole stream (a GitHub repository outside the agent folder included), 200,000 entries or 1 GiB decompressed.',
  },
  ZB_ARCHIVE_ENTRY_UNSAFE: {
    exit: 1,
    summary: 'An entry name is unsafe: absolute, "..", backslash, NUL or control characters, not valid UTF-8, or git metadata (a component git treats as ".git"; pack refuses these too).',
  },
  ZB_ARCHIVE_LAYOUT: {
    exit: 1,
    summary: 'The archive does not hold everything under one top-level directory, or lacks the directory selected in it, or has a link inside it.',
  },
  ZB_ARCHIVE_ENTRY_DUPLICATE: { exit: 1, summary: 'Two archive entries have the same name, or a file and a directory collide.' },
  ZB_ARCHIVE_SOURCE_UNSUPPORTED: {
    exit: 1,
    summary: 'The source tree holds a symlink, FIFO, socket or device, which zotfiles may not contain.',
  },
  ZB_ARCHIVE_SOURCE_CHANGED: { exit: 1, summary: 'A file changed size while it was being packed or digested.' },
  ZB_ARCHIVE_DIGEST_MISMATCH: { exit: 1, summary: 'Neither digest of the agent equals the digest that was expected.' },
  ZB_ARCHIVE_UNPACK_TARGET: { exit: 1, summary: 'The unpack target exists and is not an empty directory, or cannot be created.' },
  ZB_ARCHIVE_INTERRUPTED: { exit: 1, summary: 'The operation was cancelled (Ctrl-C); nothing was left behind.' },

  // Zotfile layout
  ZB_LAYOUT_MANIFEST_MISSING: { exit: 1, summary: 'The agent has no manifest.json at its root.' },
  ZB_MANIFEST_INVALID: {
    exit: 1,
    summary: 'manifest.json breaks a rule of the zotfile format; the message names the JSON path and the fix.',
  },
  ZB_MANIFEST_ENV_REFUSED: {
    exit: 1,
    summary:
      "permissions.env.read names a variable no agent may read (the dangerous set, one zotbox or the shell sets for every command, or the host's own settings and model keys); the message names it.",
  },
  ZB_LAYOUT_AGENT_MD_INVALID: { exit: 1, summary: 'AGENT.md exists but is not a regular file.' },
  ZB_LAYOUT_EXTENSION_BUNDLED: { exit: 1, summary: 'The agent bundles an executable extension (extensions/**/extension.json), which cannot be confined.' },

  // Policy decisions (a denied tool call carries one of these, with the reason)
  ZB_POLICY_NO_PERMISSION: { exit: 1, summary: 'The agent declares no scope or mode that allows this kind of tool call at all.' },
  ZB_POLICY_PATH_INVALID: { exit: 1, summary: 'The path is empty, contains a NUL byte, or is a URL rather than a file path.' },
  ZB_POLICY_PATH_UNRESOLVABLE: {
    exit: 1,
    summary: 'The path could not be resolved safely (a symlink loop, too many links, a file used as a directory, or ".." below a missing directory).',
  },
  ZB_POLICY_PATH_OUTSIDE_SCOPE: { exit: 1, summary: 'The path resolves outside every scope the agent declared for this access.' },
  ZB_POLICY_PATH_FORBIDDEN: { exit: 1, summary: 'The path is inside /proc, /sys or /dev, which agents may never touch (except /dev/null).' },
  ZB_POLICY_PATH_PROTECTED: {
    exit: 1,
    summary:
      'The path is git metadata (a .git directory or gitfile, in any case or alias, at any depth), which agents may not write because git runs what it names; or it is inside the zotbox state directory, which agents may not touch outside their own data directory.',
  },
  ZB_POLICY_PATH_NAME_UNSAFE: {
    exit: 1,
    summary:
      'The write would create a file or directory whose name the user\'s tools would read as an option or as shell code (a leading "-", an expanding brace, or "@" at a repository top; a line end or control character; a space before a word starting with "-" or "@"; one of ` ; & | < > " \' \\; a "$" a shell expands); nothing was written.',
  },
  ZB_POLICY_PATH_HARDLINK: { exit: 1, summary: 'The file to write has more than one hard link, so its other names may lie outside the scopes.' },

  ZB_POLICY_SHELL_CONSTRUCT: { exit: 1, summary: 'The shell command uses syntax the gate does not accept (substitution, redirection, &, globs, keywords, invisible characters...).' },
  ZB_POLICY_SHELL_NOT_ALLOWED: { exit: 1, summary: "The shell command runs a program that is not in the agent's allowlist, or one zotbox never allows." },
  ZB_POLICY_SHELL_PROGRAM: { exit: 1, summary: 'The program could not be identified safely: not on the fixed PATH, or written as a path outside the trusted directories.' },
  ZB_POLICY_SHELL_ARGUMENT: { exit: 1, summary: 'An argument, option or subcommand is denied by the built-in rules for that program.' },
  ZB_POLICY_SHELL_ASSIGNMENT: {
    exit: 1,
    summary: 'A variable assignment names a variable in the documented dangerous set (loader, interpreter, pager, editor, git, ssh, package manager...), or its value is not a plain literal.',
  },
  ZB_POLICY_SHELL_NO_RULE: {
    exit: 1,
    summary: 'The program has no built-in argument rule, or runs code the agent can write (scripts, makefiles, tests), so it may run only inside the sandbox, and confinement is off for this run.',
  },
  ZB_POLICY_SHELL_CD: { exit: 1, summary: 'A cd is not a single, plain change into a directory inside the read scopes.' },
  ZB_POLICY_NET_DENIED: {
    exit: 1,
    summary:
      'A network connection (a URL, a git remote, a registry, a proxy request) names a host or port not in permissions.net.allow, or an address that is private, loopback, link-local or otherwise not routable.',
  },
  ZB_CONFINEMENT_NET_UNCONFINED: { exit: 1, summary: 'The agent declares permissions.net.allow, which only the sandbox and its proxy can enforce, and confinement is off for this run.' },

  ZB_POLICY_SKILL_UNKNOWN: { exit: 1, summary: 'The agent asked for a skill its package does not bundle.' },

  // The gate between a worker and the host
  ZB_GATE_INVALID_MESSAGE: { exit: 1, summary: 'A message on the gate port did not match the protocol; it was refused.' },
  ZB_GATE_TIMEOUT: { exit: 1, summary: 'A tool call took longer than its time limit and was cancelled.' },
  ZB_GATE_CLOSED: { exit: 1, summary: 'The gate port was closed while a tool call was in flight.' },
  ZB_GATE_CANCELLED: { exit: 1, summary: 'The tool call was cancelled by the agent loop (for example on Ctrl-C).' },

  // Executors (the host acting on an approved call)
  ZB_EXEC_FILE_TOO_LARGE: { exit: 1, summary: 'The file is larger than the read tool returns; read a part of it with offset and limit.' },
  ZB_EXEC_EDIT_NO_MATCH: { exit: 1, summary: 'The text to replace does not occur in the file.' },
  ZB_EXEC_EDIT_AMBIGUOUS: { exit: 1, summary: 'The text to replace occurs more than once; include more context so it is unique.' },
  ZB_COMMAND_LIMIT: {
    exit: 1,
    summary:
      "A command reached one of its resource limits (processes, memory, CPU time, file size) and was stopped; the bash result's `limit` names which. Do less per command, or ask the user for a higher limit.",
  },
  ZB_COMMAND_LIMIT_RAISED: { exit: 2, summary: 'An option asked for a command limit above the ceiling the manifest declares (or the default); options can only lower it.' },

  // Host: requirements and consent
  ZB_REQUIREMENT_UNMET: { exit: 1, summary: 'The agent requires an OS, program or zot version this machine does not have; the message says how to get it.' },
  ZB_CONFINEMENT_UNAVAILABLE: {
    exit: 1,
    summary:
      'Commands must run confined, but bubblewrap cannot build the sandbox here; details.cause says why (not-installed, bubblewrap-too-old, userns-disabled, apparmor, seccomp, container, kernel-too-old, other) and the message gives the fix. `zotbox doctor` checks it.',
  },
  ZB_DOCTOR_NOT_ROOT: { exit: 1, summary: 'zotbox doctor --fix-apparmor changes the system AppArmor policy and must run as root; the message gives the commands to run by hand.' },
  ZB_DOCTOR_APPARMOR_LOAD: { exit: 1, summary: 'The AppArmor profile was written but apparmor_parser could not load it (AppArmor 4 is needed); the message says how to remove it.' },
  ZB_DOCTOR_PROFILE_MISSING: { exit: 1, summary: 'The container seccomp profile zotbox ships (profiles/zotbox-seccomp.json) is missing or unreadable in this installation; reinstall zotbox.' },
  ZB_CONFINEMENT_BIND_UNSAFE: {
    exit: 1,
    summary:
      'A scope could not be mounted into the sandbox without following a symlink or changing its kind, or zotbox could not look at something in a write scope (a path it cannot list or past PATH_MAX, a name that is not UTF-8); the command was refused.',
  },
  ZB_PROGRAM_PATH_UNSAFE: {
    exit: 1,
    summary:
      'A program directory named with --program-path (or programPath) is not absolute, does not exist, overlaps a write scope of the run, or could be changed by someone the sandbox can reach (world- or group-writable, owned by another user or uid 65534); nothing ran.',
  },
  ZB_CONFINEMENT_MOUNT_MOVED: {
    exit: 1,
    summary: 'A mount of the sandbox was not where zotbox checked it, or not what it opened (a concurrent rename moved it); the command was refused before it started and the run stopped.',
  },
  ZB_CONFINEMENT_SCOPE_LOCK: {
    exit: 1,
    summary:
      "A command or file-tool write could not be ordered with other runs' calls in the same write scopes (no abstract unix sockets, /proc/net/unix unreadable); nothing ran and the run stopped.",
  },
  ZB_CONFINEMENT_GIT_PROGRAM: {
    exit: 1,
    summary:
      'A command or a file-tool write left git state that is not plain data (a hook, a config naming a program, sequencer state outside its grammar, a link, an unknown or unreadable file, an index entry or commit that would write a protected file into the worktree, a replace ref or an object whose content is not its id, an index flag that hides a change from git status, an index zotbox cannot read whole in the object format of its repository or within its 64 MiB bounds...); it was undone and the run stopped.',
  },
  ZB_CONFINEMENT_PROTECTED_FILE: {
    exit: 1,
    summary: "A command created or changed a file the user's tools run on their own (.envrc, .vscode/, a hook the git config names...); it was put back and the run stopped.",
  },
  ZB_CONFINEMENT_NAME_UNSAFE: {
    exit: 1,
    summary:
      'A command left a new file or directory whose name the user\'s tools would read as an option or as shell code (a leading "-", an expanding brace, or "@" at a repository top; a line end or control character; a space before a word starting with "-" or "@"; one of ` ; & | < > " \' \\; a "$" a shell expands; .git excepted), or a name that is not UTF-8; it was moved aside, with what it holds, to a zotbox-renamed-N beside it, and the run stopped.',
  },
  ZB_CONFINEMENT_GIT_CONFIG_UNRESOLVED: {
    exit: 1,
    summary:
      "The user's git configuration names a program through a shell expansion zotbox cannot resolve ($X, $(cmd), a pattern), or a config it cannot read; commands and writes are refused until that line is changed.",
  },
  ZB_CONFINEMENT_TOOL_FILE_UNRESOLVED: {
    exit: 1,
    summary:
      "A file the user's tools run on their own (.envrc, a file it sources) holds a line zotbox does not read (a command, $(cmd), a directive outside the closed list), so it cannot tell which files that tool runs; commands and writes are refused until that line is changed.",
  },
  ZB_CONFINEMENT_LINK_UNRESOLVED: {
    exit: 1,
    summary:
      "A link in a place the user's tools run from (a hooks directory, .envrc, .vscode/...) cannot be followed (unreadable, a loop, too many links), so zotbox cannot tell which file runs through it; commands and writes are refused until the link is fixed.",
  },
  ZB_SCOPE_STATE_DIRECTORY: { exit: 1, summary: 'A declared scope resolves into the zotbox state directory (consents, sessions, other agents), which agents may never reach.' },
  ZB_LOAD_NOT_FOUND: { exit: 1, summary: 'No agent exists at the local path given, and it is not an explicit github: reference or URL.' },
  ZB_CONSENT_REQUIRED: { exit: 1, summary: 'The agent needs your consent and none could be asked for (no terminal); approve it with -y or ZOTBOX_AGENT_CONSENT=1.' },
  ZB_CONSENT_REFUSED: { exit: 1, summary: "You declined the agent's permissions (or pressed Ctrl-C); nothing ran." },
  ZB_CONSENT_NOT_FOUND: { exit: 1, summary: 'No consent receipt matches the agent name (and digest) given to consent revoke.' },
  ZB_APPROVE_NO_TERMINAL: {
    exit: 2,
    summary: '--approve asks you at the terminal about each command outside the allowlist, and standard input or standard error is not a terminal; run without --approve, or on a terminal.',
  },
  ZB_APPROVE_UNCONFINED: {
    exit: 2,
    summary: 'A command approved with --approve still runs inside the sandbox, and this run has none (--confine off); drop --confine off or --approve.',
  },
  ZB_APPROVE_BASH_MODE: {
    exit: 2,
    summary: "--approve approves commands outside an allowlist, and the agent's bash mode is none (no commands at all) or ask (any command already); run without --approve.",
  },
  ZB_STATE_AGENT_MISMATCH: {
    exit: 1,
    summary: "An agent's directory in the state directory records another source, or none (a key collision, an interrupted data move, or a planted directory); it is given to no agent.",
  },
  ZB_DATA_NOT_FOUND: { exit: 1, summary: 'zotbox data move found no data of the agent under the old source (or in the name-only layout of earlier versions) it was given.' },
  ZB_DATA_DESTINATION_EXISTS: { exit: 1, summary: 'zotbox data move refused: the agent already has data at its new source; nothing was moved.' },

  // Loading agents from GitHub
  ZB_GITHUB_URL_INVALID: { exit: 1, summary: 'The GitHub reference is not an https://github.com/OWNER/REPO[/tree/REF]/PATH URL or github:OWNER/REPO[/PATH][@REF] shorthand zotbox accepts.' },
  ZB_GITHUB_DOWNLOAD_FAILED: { exit: 1, summary: 'Downloading the repository archive failed (HTTP status, timeout, too many redirects, or the connection).' },
  ZB_GITHUB_LAYOUT: { exit: 1, summary: 'The repository archive does not have the expected layout, or the agent directory is missing or contains a symlink.' },

  // Runs: models, providers and workers
  ZB_MODEL_UNAVAILABLE: { exit: 1, summary: 'No usable model: the one asked for (--model or ZOTBOX_MODEL) is unknown or lacks what the agent requires, or no catalog model is usable.' },
  ZB_MODEL_REFUSED: { exit: 1, summary: 'The model declined to answer (a refusal); its text is the final text of the run. Rephrase the request, or use another model.' },
  ZB_MODEL_CONTENT_FILTERED: { exit: 1, summary: "A provider's content filter stopped the model's answer; the text received before it is the final text of the run." },
  ZB_MODEL_CONTEXT_EXCEEDED: { exit: 1, summary: "The conversation outgrew the model's context window; the run stopped before sending it." },
  ZB_PROVIDER_AUTH: { exit: 1, summary: 'The model provider refused the API key (missing, wrong, or without access to the model).' },
  ZB_MODEL_CALL_NOT_RUN: {
    exit: 1,
    summary: 'A tool call in an answer that ended refused, content-filtered or paused is reported, but never run.',
  },
  ZB_PROVIDER_TIMEOUT: {
    exit: 1,
    summary: 'The model server was silent too long: no answer within the time-to-first-byte limit, or no event within the idle limit (docs/models.md, Timeouts).',
  },
  ZB_PROVIDER_INTERRUPTED: {
    exit: 1,
    summary: 'The connection to the model server broke after the answer had started; the partial text is kept in the session, which can be continued.',
  },
  ZB_PROVIDER_FAILED: { exit: 1, summary: 'The model provider failed after retries (HTTP error, connection, or a response that did not match its API).' },
  ZB_MODELS_FILE_INVALID: { exit: 1, summary: 'The user models file (models.json in the state directory) is not valid; the message names the field.' },
  ZB_REPLAY_INVALID: { exit: 1, summary: 'The replay transcript file is missing, is not JSON, or does not match the transcript format (docs/replay.md).' },
  ZB_REPLAY_EXHAUSTED: { exit: 1, summary: 'The agent asked for more model turns than the replay transcript holds.' },
  ZB_RUN_NO_PROMPT: { exit: 1, summary: 'No prompt: give one on the command line, or use an agent with entry.default_prompt.' },
  ZB_RUN_TIMEOUT: { exit: 1, summary: 'The run reached its time limit (--timeout SECONDS) and was stopped; give it more time with a larger --timeout.' },
  ZB_RUN_MAX_TURNS: { exit: 1, summary: 'The agent used every model turn allowed for one message (--max-turns, default 50) without finishing; allow more with a larger --max-turns.' },
  ZB_RUN_PRE_FAILED: { exit: 1, summary: "The agent's startup command (entry.pre) was refused by the gate or failed; the run stopped before the model." },
  ZB_WORKER_CRASHED: { exit: 1, summary: 'The worker running the agent crashed or ran out of memory; only this run failed.' },

  // Evaluations (zotbox eval)
  ZB_EVAL_SUITE_INVALID: { exit: 2, summary: 'An eval suite file cannot be read, is not YAML or JSON, or does not match the suite format (docs/eval.md); the message names the field.' },
  ZB_EVAL_DIGEST_MISMATCH: { exit: 2, summary: 'The agent a suite names does not have the digest the suite pins; nothing ran. Update the pin, or point the suite at the agent it was written for.' },
  ZB_EVAL_PATH_INVALID: {
    exit: 2,
    summary: 'A path in an eval suite (a workspace fixture, a replay transcript, a grader) leaves the suite folder, passes through a link, or is not the kind of file it must be.',
  },
  ZB_EVAL_FIXTURE_INVALID: { exit: 2, summary: 'A workspace fixture holds something an eval cannot copy safely (a link, a device, a socket), or is too large.' },
  ZB_EVAL_SCOPE_OUTSIDE_WORKSPACE: {
    exit: 2,
    summary: "An agent's scope reaches out of ${workspace} through the case's temp directory; every eval case has a private temp workspace, so such a scope cannot be consented to once for all cases.",
  },
  ZB_EVAL_GRADER_FAILED: {
    exit: 1,
    summary: 'A JS grader threw, ran past its CPU time, exhausted its memory, reached for what graders do not have, or returned something other than { pass, score?, reason }; only its case failed.',
  },
  ZB_EVAL_JUDGE_FAILED: { exit: 1, summary: 'The judge model could not grade a case (a provider fault, or an answer without a verdict); only its case failed.' },
  ZB_EVAL_VERDICT_INCOMPLETE: {
    exit: 1,
    summary: 'A fact an expectation needs was not kept (docs/eval.md, Bounds), so its verdict fails rather than pass on part of the run; only its case failed.',
  },
  ZB_EVAL_PATTERN_LIMIT: {
    exit: 1,
    summary: "A suite pattern (text_matches, a call matcher's command or path) ran past its time bound or was given more text than it may read; its verdict failed, never passed (docs/eval.md).",
  },
  ZB_EVAL_SCOPE_NOT_ALLOWED: {
    exit: 2,
    summary: 'An eval agent asks for a read or write scope outside its case workspace and ${agent_data}; nothing ran. Allow the folder on the command line with --allow-scope PATH.',
  },
  ZB_EVAL_ENV_NOT_ALLOWED: {
    exit: 2,
    summary: "An eval agent reads environment variables (permissions.env.read); an eval gives a suite's agent none of yours, since its output goes into the report. Evaluate it with zotbox run.",
  },
  ZB_EVAL_AGENT_NOT_ALLOWED: {
    exit: 2,
    summary: "A suite's agent lies outside the suite folder and is not pinned by digest; nothing ran. Pin it with digest:, or allow its folder with --allow-scope PATH.",
  },
  ZB_EVAL_CHANGES_INCOMPLETE: {
    exit: 1,
    summary:
      'The list of files a run changed is truncated (past the change bounds, docs/eval.md) or has entries zotbox cannot read, so file_absent, graders and the judge cannot pass; only its case failed.',
  },
  ZB_EVAL_JUDGE_EVIDENCE_CUT: {
    exit: 1,
    summary:
      "The judge was shown only part of a run's evidence (an answer or changed file past the judge's bounds, docs/eval.md), or not even every changed file's name, so its pass counts as a fail; only its case failed.",
  },
  ZB_EVAL_COST_UNKNOWN: {
    exit: 2,
    summary:
      'An eval has --max-cost, but a model one of its cases runs or judges with has no prices, so its spending could not count against the cap; nothing ran. Add prices to its entry in models.json (the message prints the path), choose a priced model, or cap tokens with --max-tokens.',
  },
  ZB_EVAL_TOKEN_LIMIT: { exit: 1, summary: "A case's run used more tokens than its max_tokens limit and was stopped." },
  ZB_EVAL_REPORT_INVALID: { exit: 2, summary: 'A report given to zotbox eval merge or --last-failed cannot be read or is not a zotbox eval JSON report of a version this zotbox reads.' },
  ZB_EVAL_MERGE_MISMATCH: { exit: 2, summary: 'The reports given to zotbox eval merge do not belong to one eval: different suites, agent digests or shard counts, a shard twice, or a shard missing.' },
  ZB_EVAL_SHARD_INVALID: { exit: 2, summary: 'A shard (--shard or ZOTBOX_SHARD) is not I/N with 1 <= I <= N.' },

  // Sessions
  ZB_SESSION_NOT_FOUND: { exit: 1, summary: 'The session to continue does not exist (no earlier session, an unknown id, or a missing file).' },
  ZB_SESSION_INVALID: { exit: 1, summary: 'The session file is not a zotbox session (bad header or an unreadable line before the last).' },
  ZB_SESSION_MISMATCH: { exit: 1, summary: 'The session file belongs to another agent; sessions are scoped per agent.' },
  ZB_SESSION_CONFLICT: { exit: 1, summary: 'Session flags that cannot be combined (--continue, --resume, --session, --no-session).' },

  // Files the user named
  ZB_IO_FAILED: { exit: 1, summary: 'Reading or writing a file the user named failed (missing, permission denied, disk full).' },

  // Anything that is a bug in zotbox rather than a fault of the input.
  ZB_INTERNAL_BUG: { exit: 1, summary: 'An unexpected internal failure; this is a bug in zotbox, please report it.' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** JSON-safe details: what a machine reader needs to act on the error. */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** The shape in which an error crosses a MessagePort or is printed with --json. */
export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: ErrorDetails;
}

export class ZotboxError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetails; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ZotboxError';
    this.code = code;
    this.details = options.details;
  }

  /** The CLI exit status for this error: 2 for usage errors, 1 for everything else. */
  get exitStatus(): ExitStatus {
    return ERROR_CODES[this.code].exit;
  }

  toWire(): WireError {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/**
 * Duck-typed check that survives structured clone and module duplication:
 * anything with a registered `code` and a string `message` counts.
 */
export function isZotboxError(value: unknown): value is ZotboxError {
  if (value instanceof ZotboxError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { code?: unknown; message?: unknown };
  return isErrorCode(candidate.code) && typeof candidate.message === 'string';
}

/**
 * Rebuilds an error that crossed a port. An unknown or malformed payload
 * becomes ZB_INTERNAL_BUG rather than being trusted: the peer is not a trust anchor.
 */
export function fromWireError(payload: unknown): ZotboxError {
  if (typeof payload === 'object' && payload !== null) {
    const { code, message, details } = payload as { code?: unknown; message?: unknown; details?: unknown };
    if (isErrorCode(code) && typeof message === 'string') {
      const safeDetails = typeof details === 'object' && details !== null && !Array.isArray(details) ? (details as ErrorDetails) : undefined;
      return new ZotboxError(code, message, safeDetails === undefined ? {} : { details: safeDetails });
    }
  }
  return new ZotboxError('ZB_INTERNAL_BUG', 'received a malformed error from the other side of a port', {
    details: { payload: describeUnknown(payload) },
  });
}

/** Wraps anything thrown into a ZotboxError, keeping the original as `cause`. */
export function toZotboxError(thrown: unknown): ZotboxError {
  if (thrown instanceof ZotboxError) return thrown;
  if (isZotboxError(thrown)) return fromWireError(thrown);
  const text = thrown instanceof Error ? thrown.message : describeUnknown(thrown);
  return new ZotboxError('ZB_INTERNAL_BUG', `unexpected failure: ${text}. This is a bug in zotbox; rerun with --debug and report the output.`, {
    cause: thrown,
  });
}

const ERRNO_ADVICE: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'it already exists',
  ELOOP: 'it is a symlink, or there are too many symlinks in the path',
  EMFILE: 'too many open files',
  EIO: 'an input/output error occurred',
};

/**
 * A failed file-system call on a path the user gave (or one derived from it),
 * as ZB_IO_FAILED: "cannot <action> <path>: <reason> (<errno>)". Errors that are
 * already ZotboxErrors pass through unchanged.
 */
export function fileSystemError(action: string, target: string, cause: unknown): ZotboxError {
  if (cause instanceof ZotboxError) return cause;
  const errno = (cause as { code?: unknown } | null)?.code;
  const code = typeof errno === 'string' ? errno : 'error';
  const reason = ERRNO_ADVICE[code] ?? (cause instanceof Error ? cause.message : String(cause));
  return new ZotboxError('ZB_IO_FAILED', `cannot ${action} ${target}: ${reason} (${code}).`, { cause, details: { path: target, errno: code } });
}

function describeUnknown(value: unknown): string {
  try {
    if (typeof value === 'string') return value;
    // JSON.stringify returns undefined for undefined, functions and symbols, though its type says string.
    const json = JSON.stringify(value) as string | undefined;
    return json ?? String(value);
  } catch {
    // Circular or otherwise unserialisable: String() never throws for these.
    return String(value);
  }
}

/** Edit distance with adjacent swaps (optimal string alignment): `rn` → `run` is 1, `agnet` → `agent` is 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate a misspelt word most likely meant (issue 27: "did you mean"), or
 * undefined when none is close: at most one edit for a short word, a third of its
 * length for a longer one, and a word that is the start of exactly one candidate.
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.max(1, Math.floor(lower.length / 3));
  let best: { name: string; distance: number } | undefined;
  const prefixed: string[] = [];
  for (const name of candidates) {
    if (name === word) continue;
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
    if (lower.length >= 2 && name.toLowerCase().startsWith(lower)) prefixed.push(name);
  }
  return best?.name ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}

/** " Did you mean 'run'?" for the closest candidate, or '' when none is close: for the end of an error's first sentence. */
export function didYouMean(word: string, candidates: Iterable<string>, quote: (name: string) => string = (name) => `'${name}'`): string {
  const name = closestName(word, candidates);
  return name === undefined ? '' : ` Did you mean ${quote(name)}?`;
}

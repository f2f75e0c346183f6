// The zotbox command table: documentation and options of every command.
// Pure data: src/cli.ts maps each command to its handler, and a command without
// one answers ZB_CLI_NOT_AVAILABLE instead of pretending to work.
import type { CommandSpec, OptionSpec } from './command-spec.js';

const JSON_OPTION: OptionSpec = {
  name: 'json',
  type: 'boolean',
  description: 'Print one JSON document instead of text (shape in docs/cli.md); a failure is one {"type":"error",...} line.',
};
const CWD_OPTION: OptionSpec = {
  name: 'cwd',
  type: 'string',
  valueName: 'DIR',
  description: 'Workspace directory that ${workspace} expands to (default: the current directory).',
};

const PROGRAM_PATH_OPTION: OptionSpec = {
  name: 'program-path',
  type: 'string',
  multiple: true,
  valueName: 'DIR',
  description:
    'Also find programs in DIR, before the fixed PATH (repeatable, in this order), e.g. ~/.nvm/versions/node/v22.1.0/bin or ~/.cargo/bin. DIR must exist, lie outside the write scopes and be writable by no one but you or root; the sandbox binds it read-only, with its parent when DIR is named bin (docs/permissions.md).',
};

const AGENT_REF =
  'An agent reference: an existing zotfile directory or .zot file, a public GitHub URL (https://github.com/OWNER/REPO/PATH or .../tree/REF/PATH), or github:OWNER/REPO[/PATH][@REF]. A missing local path is an error, never a GitHub lookup.';

export const INIT: CommandSpec = {
  name: 'init',
  summary: 'Create a new agent: a manifest, an AGENT.md and one skill.',
  usage: ['init [DIR] [--name NAME] [--json]'],
  description:
    'Writes a minimal agent into DIR: manifest.json (read the workspace, write nothing, no shell), AGENT.md (the instructions added to the system prompt) and one skill, skills/cite-sources/SKILL.md. It passes zotbox verify as it is; edit it from there (docs/agents.md). DIR must not exist or must be empty: init never overwrites anything.',
  arguments: [{ name: 'DIR', description: 'The directory to create the agent in (default: the current directory); missing parents are created.' }],
  options: [{ name: 'name', type: 'string', valueName: 'NAME', description: "The agent's name (default: made from DIR's name, lowercased, other characters as hyphens)." }, JSON_OPTION],
  exitStatus: ['0  the agent was created', '1  DIR exists and is not an empty directory, or a file could not be written', '2  usage error, or a name that is not a valid agent name'],
  examples: ['zotbox init my-agent', 'zotbox init . --name code-helper'],
  minPositionals: 0,
  maxPositionals: 1,
};

export const PACK: CommandSpec = {
  name: 'pack',
  summary: 'Pack a zotfile directory into a canonical .zot archive.',
  usage: ['pack [DIR] [OUTPUT]'],
  description:
    'Validates the directory, writes its canonical tar (sorted by UTF-8 bytes, normalized modes, zero times and owners) compressed with zstd, and prints the output path with both digests. The archive is written to a temporary file beside OUTPUT and renamed only on success, so a failed pack leaves nothing behind. Symlinks, devices, FIFOs and sockets in the tree are errors.',
  arguments: [
    { name: 'DIR', description: 'The zotfile directory (default: the current directory).' },
    { name: 'OUTPUT', description: 'The archive to write (default: <name>.zot in the current directory); ".zot" is appended when OUTPUT does not end in it.' },
  ],
  options: [JSON_OPTION],
  exitStatus: ['0  the archive was written', '1  the directory is not a valid zotfile, or the archive could not be written', '2  usage error'],
  examples: ['zotbox pack examples/code-reviewer', 'zotbox pack . dist/reviewer.zot --json'],
  minPositionals: 0,
  maxPositionals: 2,
};

export const INSPECT: CommandSpec = {
  name: 'inspect',
  summary: 'Show what an agent is and what it asks for, without running anything.',
  usage: ['inspect AGENT [--program-path DIR]... [--json]'],
  description:
    "Prints the agent's name, version and description, both digests, the declared permissions as written in the manifest, the search path its commands would run with (with --program-path, your program directories first), unknown manifest keys, warnings, and every file with its size. Nothing from the agent is executed.",
  arguments: [{ name: 'AGENT', description: 'A zotfile directory or .zot file.' }],
  options: [PROGRAM_PATH_OPTION, JSON_OPTION],
  exitStatus: ['0  the agent was read and described', '1  the agent could not be read or is invalid', '2  usage error'],
  examples: ['zotbox inspect examples/code-reviewer', 'zotbox inspect reviewer.zot --json'],
  minPositionals: 1,
  maxPositionals: 1,
};

export const VERIFY: CommandSpec = {
  name: 'verify',
  summary: 'Validate an agent and print its digests; optionally pin a digest.',
  usage: ['verify AGENT [--expect sha256:HEX] [--json]'],
  description:
    'Checks the layout and manifest and prints the artifact digest (of the .zot bytes) and the content digest (of the canonical tar, equal to the directory digest of the tree it was packed from). With --expect, the command fails unless one of the two digests equals the given value: use it to pin agents in CI.',
  arguments: [{ name: 'AGENT', description: 'A zotfile directory or .zot file.' }],
  options: [{ name: 'expect', type: 'string', valueName: 'sha256:HEX', description: 'Fail unless the artifact or content digest equals this value.' }, JSON_OPTION],
  exitStatus: ['0  valid (and matching, with --expect)', '1  invalid, or the digest does not match', '2  usage error'],
  examples: ['zotbox verify reviewer.zot', 'zotbox verify reviewer.zot --expect sha256:6fcdde4a…'],
  minPositionals: 1,
  maxPositionals: 1,
};

export const UNPACK: CommandSpec = {
  name: 'unpack',
  summary: 'Extract a .zot archive into a new directory, safely.',
  usage: ['unpack FILE.zot DIR'],
  description:
    'Extracts into DIR, which must not exist or must be empty. Extraction happens in a private temporary directory beside DIR that is renamed into place only on success; links, devices and FIFOs are never created, every file is created exclusively, and modes are normalized to 0644/0755. On any failure or Ctrl-C nothing is left behind.',
  arguments: [
    { name: 'FILE.zot', description: 'The archive to extract (zstd, or gzip).' },
    { name: 'DIR', description: 'The directory to create.' },
  ],
  options: [JSON_OPTION],
  exitStatus: ['0  extracted', '1  the archive is invalid or DIR is not usable', '2  usage error'],
  examples: ['zotbox unpack reviewer.zot ./reviewer-src'],
  minPositionals: 2,
  maxPositionals: 2,
};

export const CHECK: CommandSpec = {
  name: 'check',
  summary: 'Ask the policy gate whether an agent may do something.',
  usage: [
    'check AGENT read|write|edit PATH [--cwd DIR] [--json]',
    'check AGENT bash COMMAND [--cwd DIR] [--confine required|off] [--program-path DIR]... [--json]',
    'check AGENT net URL [--confine required|off] [--json]',
  ],
  description:
    'Runs the same decision the gate makes at run time and prints allow or deny with the reason, and the canonical path, the parsed commands, or for net the host and port a URL connects to and the net.allow entry that allows it. A subject of "-" is read from standard input verbatim (no trimming), so any byte, NUL and newlines included, can be tested. Use it to test an agent\'s permissions before shipping it.',
  arguments: [
    { name: 'AGENT', description: AGENT_REF },
    { name: 'read|write|edit|bash|net', description: "The tool to ask about (net: a URL a command would fetch through the sandbox's proxy)." },
    { name: 'SUBJECT', description: 'The path, shell command or URL, or "-" for standard input.' },
  ],
  options: [
    CWD_OPTION,
    {
      name: 'confine',
      type: 'string',
      valueName: 'required|off',
      description: 'Decide as for a run with this confinement (default: required). With off, programs that have no built-in argument rule are denied.',
    },
    PROGRAM_PATH_OPTION,
    JSON_OPTION,
  ],
  exitStatus: ['0  allowed', '1  denied, or the agent could not be loaded', '2  usage error'],
  examples: ['zotbox check examples/repo-maintainer bash "git status && ls"', 'zotbox check examples/code-reviewer read ../secret.txt --cwd ~/proj'],
  minPositionals: 3,
  maxPositionals: 3,
};

export const RUN: CommandSpec = {
  name: 'run',
  summary: 'Run an agent with a prompt under its permission ceiling.',
  usage: ['run AGENT [PROMPT] [options]'],
  description:
    'Loads the agent, checks its requirements and model, asks for consent to its declared permissions (an answer at the prompt is saved as a receipt, kept per digest and expanded permissions, so per workspace; -y covers this run only unless --remember is given), then runs it in a worker whose only way out is the policy gate. The prompt is PROMPT ("-": all of standard input), else standard input when it is a pipe or a file, else the agent\'s entry.default_prompt, else read interactively. A run that does not complete prints its error on stderr, in every output format.',
  arguments: [
    { name: 'AGENT', description: AGENT_REF },
    { name: 'PROMPT', description: 'The first user message; "-" reads it from standard input (UTF-8, not empty).' },
  ],
  options: [
    CWD_OPTION,
    { name: 'model', type: 'string', valueName: 'ID', description: 'Model id from the built-in catalog or the user models file.' },
    {
      name: 'output-format',
      type: 'string',
      valueName: 'FORMAT',
      description: 'text (the default): the run as it happens; json: one JSON document when the run ends; stream-json: every event as one JSON line (docs/cli.md).',
    },
    { name: 'json', type: 'boolean', description: 'The events as NDJSON, one JSON line each: the same as --output-format stream-json.' },
    { name: 'print', type: 'boolean', description: 'Print only the final answer (a failure still goes to stderr).' },
    { name: 'replay', type: 'string', valueName: 'FILE', description: 'Play a recorded transcript instead of calling a live model (offline; docs/replay.md).' },
    { name: 'record', type: 'string', valueName: 'FILE', description: "Write a replay transcript of this run's model turns to FILE." },
    { name: 'yes', type: 'boolean', short: 'y', description: "Consent to the agent's permissions for this run only, without asking (also ZOTBOX_AGENT_CONSENT=1)." },
    { name: 'remember', type: 'boolean', description: 'With -y (or ZOTBOX_AGENT_CONSENT=1): also save a consent receipt, so later runs in this workspace need neither.' },
    {
      name: 'approve',
      type: 'boolean',
      description:
        'On a terminal, ask before denying a command only because its program is not in the allowlist: once, always this session, or no. It still runs confined, within the scopes and argument rules.',
    },
    {
      name: 'confine',
      type: 'string',
      valueName: 'required|off',
      description: 'Commands run in a bubblewrap sandbox, or are refused (default: required); off runs them UNCONFINED, with your full user rights.',
    },
    { name: 'limit-processes', type: 'string', valueName: 'N', description: "At most N processes per command (default: the agent's permissions.limits, else 1024); only lower." },
    { name: 'limit-memory', type: 'string', valueName: 'MIB', description: 'At most this much memory per command, in MiB (default: permissions.limits, else 4096); only lower.' },
    { name: 'limit-cpu', type: 'string', valueName: 'SECONDS', description: 'At most this much CPU time per process of a command (default: permissions.limits, else 3600); only lower.' },
    { name: 'limit-file-size', type: 'string', valueName: 'MIB', description: 'No file a command writes grows past this size, in MiB (default: permissions.limits, else 4096); only lower.' },
    PROGRAM_PATH_OPTION,
    { name: 'max-turns', type: 'string', valueName: 'N', description: 'Stop after N model turns for one user message (default 50).' },
    { name: 'worker-memory', type: 'string', valueName: 'MB', description: 'Heap limit of the worker running the agent (default 512).' },
    {
      name: 'model-concurrency',
      type: 'string',
      valueName: 'N',
      description: "Model requests in flight at once on the model's endpoint, fixed (default: max_concurrency in models.json, else adaptive: it starts at 256 and adapts to the endpoint).",
    },
    { name: 'timeout', type: 'string', valueName: 'SECONDS', description: 'Stop the run after this many seconds (ZB_RUN_TIMEOUT).' },
    { name: 'continue', type: 'boolean', description: "Continue the agent's most recent session in this workspace." },
    { name: 'resume', type: 'string', valueName: 'ID', description: "Resume this agent's session with this id, whatever its workspace ('zotbox sessions list' shows them)." },
    { name: 'session', type: 'string', valueName: 'FILE', description: 'Record to this session file, continuing it if it exists.' },
    { name: 'no-session', type: 'boolean', description: 'Do not record this run as a session.' },
  ],
  exitStatus: [
    '0    the run completed',
    '1    the run failed, hit a limit (--max-turns, --timeout), was refused, filtered, cancelled or refused consent, or could not start',
    '2    usage error',
    '141  standard output was closed before the run ended (as | head does); the run was cancelled',
  ],
  examples: [
    'zotbox run examples/code-reviewer --cwd examples/workspaces/sample-project --replay examples/transcripts/code-reviewer.json -y',
    'zotbox run reviewer.zot "Review the last commit" --cwd ~/proj --replay run.json --json -y',
    'git diff | zotbox run reviewer.zot - --output-format json -y',
  ],
  minPositionals: 1,
  maxPositionals: 2,
};

export const CONSENT: CommandSpec = {
  name: 'consent',
  summary: 'List or revoke stored consent receipts.',
  usage: ['consent list [NAME] [--json]', 'consent revoke NAME [DIGEST] [--workspace DIR] [--source SOURCE] [--json]'],
  description:
    'Consent receipts record that you allowed an agent, identified by its source, its digest and its expanded permissions, to run; each workspace the agent was approved in has its own. "list" shows them with the workspace each was approved in and the source of the agent; "revoke" deletes all receipts of agents named NAME, those for DIGEST (in every workspace), with --workspace those approved in DIR, and with --source those of the agent from SOURCE only.',
  arguments: [
    { name: 'list|revoke', description: 'The action.' },
    { name: 'NAME', description: 'The agent name from its manifest.' },
    { name: 'DIGEST', description: "The agent's content digest (sha256:HEX)." },
  ],
  options: [
    { name: 'workspace', type: 'string', valueName: 'DIR', description: 'revoke: only the receipts approved in this workspace.' },
    { name: 'source', type: 'string', valueName: 'SOURCE', description: 'revoke: only the receipts of the agent from this source (a path or github:OWNER/REPO[/PATH], as consent list shows it).' },
    JSON_OPTION,
  ],
  exitStatus: ['0  done', '1  nothing matched or the state directory is unusable', '2  usage error, or NAME is not an agent name'],
  examples: ['zotbox consent list', 'zotbox consent revoke code-reviewer', 'zotbox consent revoke code-reviewer --workspace ~/proj'],
  minPositionals: 1,
  maxPositionals: 3,
};

export const COMPLETION: CommandSpec = {
  name: 'completion',
  summary: 'Print a shell completion script for bash, zsh or fish.',
  usage: ['completion bash|zsh|fish'],
  description:
    'Prints a script that completes zotbox\'s commands, options and argument values in the given shell. It is generated from this build\'s command table, so it always matches the commands it offers. Install it where the shell looks for completions: bash: zotbox completion bash > ~/.local/share/bash-completion/completions/zotbox; zsh: zotbox completion zsh > "${fpath[1]}/_zotbox"; fish: zotbox completion fish > ~/.config/fish/completions/zotbox.fish. Or load it for one session: source <(zotbox completion bash).',
  arguments: [{ name: 'bash|zsh|fish', description: 'The shell to print the script for.' }],
  options: [],
  exitStatus: ['0  the script was printed', '2  usage error, or a shell zotbox has no script for'],
  examples: ['zotbox completion bash > ~/.local/share/bash-completion/completions/zotbox', 'source <(zotbox completion zsh)'],
  minPositionals: 1,
  maxPositionals: 1,
};

export const SESSIONS: CommandSpec = {
  name: 'sessions',
  summary: 'List, show, remove or prune recorded sessions.',
  usage: ['sessions list [NAME] [--json]', 'sessions show ID [--agent NAME] [--json]', 'sessions rm ID [--agent NAME] [--json]', 'sessions prune [NAME] [--older-than AGE] [--empty] [--json]'],
  description:
    'Every run records its conversation as a session (docs/sessions.md). "list" shows the sessions of every agent, or of the agents named NAME, with the workspace each was recorded in, when it was created and last written, how many messages it holds, its first prompt, and the source of its agent. "show" prints one conversation readably (--json: its lines as stored, one JSON value per line). "rm" deletes one. "prune" deletes every session (of the agents named NAME) that meets all the criteria given: last written longer ago than AGE (--older-than 30d; units m, h, d, w), holding no message (--empty). IDs look like 20261130T171200Z-1a2b3c4d; anything else is refused.',
  arguments: [
    { name: 'list|show|rm|prune', description: 'The action.' },
    { name: 'NAME', description: 'list, prune: only the sessions of this agent (the name from its manifest).' },
    { name: 'ID', description: 'show, rm: the session id (as list and run.start show it).' },
  ],
  options: [
    { name: 'agent', type: 'string', valueName: 'NAME', description: "show, rm: look for ID among this agent's sessions only." },
    { name: 'older-than', type: 'string', valueName: 'AGE', description: 'prune: sessions last written longer ago than AGE: a number and a unit, m (minutes), h, d or w (30d).' },
    { name: 'empty', type: 'boolean', description: 'prune: sessions holding no message.' },
    { name: 'json', type: 'boolean', description: 'Print JSON instead of text: list and rm one document; show the stored lines, one JSON value per line (docs/cli.md).' },
  ],
  exitStatus: ['0  done', '1  no such session (or ID is not a session id), or the state directory is unusable', '2  usage error, or NAME is not an agent name'],
  examples: [
    'zotbox sessions list',
    'zotbox sessions list code-reviewer --json',
    'zotbox sessions show 20261130T171200Z-1a2b3c4d',
    'zotbox sessions rm 20261130T171200Z-1a2b3c4d',
    'zotbox sessions prune --older-than 30d',
    'zotbox sessions prune --empty',
  ],
  minPositionals: 1,
  maxPositionals: 2,
};

export const DATA: CommandSpec = {
  name: 'data',
  summary: "List where agents' data is kept, or move an agent's data to where the agent is now.",
  usage: ['data list [NAME] [--json]', 'data move AGENT --from SOURCE [--json]', 'data move AGENT --legacy [--json]'],
  description:
    'An agent\'s data (${agent_data}), sessions and consent receipts belong to its name and its source: the real path of its folder or .zot, or GitHub\'s OWNER/REPO/PATH (any ref). An agent of the same name from anywhere else gets its own, empty ones, and an agent whose folder was moved or renamed starts empty too: its data follows it only when you say so. "list" shows every agent\'s directory with its source, and data kept by zotbox versions that knew agents by name only (never given to any agent). "move" gives AGENT (the agent where it is now) the data, sessions and receipts kept for its name under SOURCE (--from: a path as list shows it, which need not exist any more, or a github: reference), or, with --legacy, the name-only data of earlier versions. It is one rename: never half done, and refused when AGENT already has data of its own. Moved receipts still name the source they were approved for, so consent is asked again.',
  arguments: [
    { name: 'list|move', description: 'The action.' },
    { name: 'AGENT', description: `list: only agents with this name (the name from its manifest). move: the agent where it is now. ${AGENT_REF}` },
  ],
  options: [
    {
      name: 'from',
      type: 'string',
      valueName: 'SOURCE',
      description: 'move: the source the data is kept under: an old path of the folder or .zot (as data list shows it), or github:OWNER/REPO[/PATH].',
    },
    { name: 'legacy', type: 'boolean', description: 'move: take the data kept under the name only, by zotbox versions before data was kept per source.' },
    JSON_OPTION,
  ],
  exitStatus: ['0  done', '1  nothing to move, the agent already has data where it is, or the state directory is unusable', '2  usage error, or NAME is not an agent name'],
  examples: ['zotbox data list', 'zotbox data list code-reviewer --json', 'zotbox data move ~/agents/reviewer --from ~/old-place/reviewer', 'zotbox data move ~/agents/reviewer --legacy'],
  minPositionals: 1,
  maxPositionals: 2,
};

export const EVAL: CommandSpec = {
  name: 'eval',
  summary: 'Evaluate agents against suites of cases: in CI, offline, sharded.',
  usage: ['eval SUITE... [options]', 'eval merge REPORT... [--reporter SPEC]'],
  description:
    'Runs every case of every SUITE (a YAML or JSON file, docs/eval.md) in a fresh private copy of its workspace fixture, many at once on one worker pool, and checks its expectations: run status, final text, files, tool calls, denials, turns and tokens, JS graders (confined in isolated-vm) and a judge model. Consent is asked once per suite, as for run; an agent gets no scope beyond each case\'s workspace and ${agent_data}, and is read from outside the suite folder only when pinned by digest, unless --allow-scope says otherwise. Ctrl-C, SIGTERM or SIGHUP stops cleanly: runs are cancelled, workspaces removed, the reports are written, marked interrupted, and the exit status is 130, 143 or 129. "eval merge" combines the JSON reports of shards (--shard I/N) into the report one whole run would have written, and renders it with its reporters.',
  arguments: [
    { name: 'SUITE', description: 'An eval suite file (.yaml, .yml or .json).' },
    { name: 'REPORT', description: 'merge: a JSON report written by --reporter json=FILE, one per shard.' },
  ],
  options: [
    {
      name: 'reporter',
      type: 'string',
      multiple: true,
      valueName: 'SPEC',
      description:
        'Comma-separated reporters, each NAME or NAME=FILE: list (progress and a table; default), line (one line per case), json=FILE, junit=FILE, markdown=FILE, html=FILE (one self-contained page to look at), github (::error annotations and $GITHUB_STEP_SUMMARY; on by default when GITHUB_ACTIONS=true).',
    },
    { name: 'max-runs', type: 'string', valueName: 'N', description: 'Runs in flight at once (default 8).' },
    {
      name: 'processes',
      type: 'string',
      valueName: 'N',
      description:
        'Run the agent loops in N pool processes instead of worker threads: each without environment or handles, inside bubblewrap unless --confine off (docs/security.md, "Pool isolation").',
    },
    {
      name: 'model-concurrency',
      type: 'string',
      valueName: 'N',
      description: "Model requests in flight at once on each run's model endpoint, fixed (default: max_concurrency in models.json, else adaptive: it starts at 256 and adapts to the endpoint).",
    },
    { name: 'repeat', type: 'string', valueName: 'K', description: 'Run each case K times and report its pass rate; the case passes when the rate reaches its threshold (default 1: every run).' },
    { name: 'grep', type: 'string', valueName: 'REGEX', description: 'Only the cases whose SUITE/ID matches REGEX.' },
    { name: 'fail-fast', type: 'boolean', description: 'Start no new case after the first one fails; the rest are reported as not run.' },
    {
      name: 'retries',
      type: 'string',
      valueName: 'N',
      description: 'Run again, in a fresh workspace, after a provider fault (never after a failed expectation), at most N times per run (default 0).',
    },
    { name: 'max-cost', type: 'string', valueName: 'USD', description: 'Start no new case once the runs and judges have cost this much (every model must have prices).' },
    { name: 'max-tokens', type: 'string', valueName: 'N', description: 'Start no new case once the runs have used this many tokens.' },
    {
      name: 'max-infra-errors',
      type: 'string',
      valueName: 'K',
      description:
        'Start no new case once K runs in a row ended on an infrastructure error (model server unreachable, failing or silent; sandbox unavailable) on one endpoint; the rest are reported as not run, with why (default 3; 0: never stop).',
    },
    { name: 'shard', type: 'string', valueName: 'I/N', description: 'Run only shard I of N (also ZOTBOX_SHARD=I/N): cases are assigned by a stable hash of SUITE/ID.' },
    { name: 'last-failed', type: 'string', valueName: 'REPORT', description: 'Run only the cases that failed or did not run in this JSON report.' },
    { name: 'keep-workspaces', type: 'boolean', description: "Keep every case's workspace after it ran (their folder is printed) instead of removing it." },
    { name: 'model', type: 'string', valueName: 'ID', description: 'Run every suite on this model instead of its own (replay cases still replay).' },
    { name: 'confine', type: 'string', valueName: 'required|off', description: 'Commands run in the bubblewrap sandbox (required, the default) or, only if you opt out, unconfined (off).' },
    PROGRAM_PATH_OPTION,
    { name: 'yes', type: 'boolean', short: 'y', description: "Consent to the agents' permissions for this eval only, without asking (also ZOTBOX_AGENT_CONSENT=1)." },
    {
      name: 'allow-scope',
      type: 'string',
      multiple: true,
      valueName: 'PATH',
      description:
        "Trust the folder PATH for this eval: agents may be granted read and write scopes inside it, and an agent without a digest pin may be read from it. By default an eval grants only each case's workspace and ${agent_data}, and reads only agents inside the suite folder or pinned by digest. The report names every PATH.",
    },
    { name: 'remember', type: 'boolean', description: 'With -y: also save consent receipts, so later evals of the same suites need neither.' },
  ],
  exitStatus: [
    '0  every case passed',
    '1  a case failed, or did not run and none is an error',
    '3  no case failed, but one is an error: an infrastructure fault (model server, sandbox), not the agent',
    '2  usage error, or a suite or report that cannot be used (nothing ran)',
    '130, 143, 129  stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP (128 + the signal number)',
  ],
  examples: [
    'zotbox eval examples/evals/code-reviewer.yaml',
    'zotbox eval evals/*.yaml --max-runs 32 --repeat 3 --reporter list,junit=out/junit.xml,json=out/report.json',
    'zotbox eval evals/main.yaml --shard 2/4 --reporter json=out/shard-2.json',
    'zotbox eval merge out/shard-*.json --reporter junit=out/junit.xml,markdown=out/summary.md',
    'zotbox eval evals/main.yaml --last-failed out/report.json',
  ],
  minPositionals: 1,
  maxPositionals: 10_000,
};

export const DOCTOR: CommandSpec = {
  name: 'doctor',
  summary: 'Check that commands can run confined here, and say how to fix what is missing.',
  usage: ['doctor [--program-path DIR]... [--json]', 'doctor --print-apparmor', 'doctor --fix-apparmor', 'doctor --print-seccomp'],
  arguments: [],
  description:
    "Checks Node.js, starts a real bubblewrap sandbox with the flags every command gets, checks command limits, the state directory, the models file, and which key variables are set (names only, never values). When the sandbox cannot start it tells the cause from the system itself (bubblewrap missing or too old, user namespaces disabled, Ubuntu's AppArmor restriction, a container's seccomp profile or mount restrictions, a kernel too old, or bubblewrap's own message) and prints the fix for that cause. --print-apparmor prints the AppArmor profile that lets /usr/bin/bwrap alone create user namespaces (Ubuntu 23.10 and later); --fix-apparmor (root) writes it to /etc/apparmor.d/zotbox-bwrap, loads it, and checks again. --print-seccomp prints the seccomp profile for containers (Docker's default, plus the five calls bubblewrap needs), for docker run --security-opt seccomp=FILE or a Kubernetes Localhost profile. It also prints the search path commands run with (with --program-path, your program directories first, each checked as for a run).",
  options: [
    { name: 'print-apparmor', type: 'boolean', description: 'Print the AppArmor profile for /usr/bin/bwrap and exit.' },
    { name: 'fix-apparmor', type: 'boolean', description: 'As root: install and load the AppArmor profile, showing what it writes, then check again.' },
    { name: 'print-seccomp', type: 'boolean', description: 'Print the seccomp profile for containers (Docker, Kubernetes) and exit.' },
    PROGRAM_PATH_OPTION,
    JSON_OPTION,
  ],
  exitStatus: ['0  every check passed', '1  a check failed (each says its fix), or --fix-apparmor could not install the profile', '2  usage error'],
  examples: ['zotbox doctor', 'sudo zotbox doctor --fix-apparmor', 'zotbox doctor --print-seccomp > zotbox-seccomp.json'],
  minPositionals: 0,
  maxPositionals: 0,
};

export const MODELS: CommandSpec = {
  name: 'models',
  summary: 'List the model catalog, print the models file path, add a model, or test one with a tiny request.',
  usage: [
    'models list [--json]',
    'models path',
    'models add ID --provider openai|anthropic --context-window N [--base-url URL] [--reasoning] [--vision] [--max-concurrency N] [--no-key] [--json]',
    'models test MODEL [--json]',
  ],
  description:
    '"list" shows every model a run can use: the built-in ones and those of the user models file, each with its provider, context window, capabilities, endpoint, where it comes from (built in, or the file\'s real path) and whether its key is set (never its value). "path" prints the real path of the user models file (models.json in the state directory: $ZOTBOX_HOME, else $XDG_STATE_HOME/zotbox, else ~/.local/state/zotbox), whether or not it exists. "add" writes an entry to it from the flags, checking the base URL against its provider\'s convention (OpenAI format: ends with /v1; Anthropic format: without /v1). "test" sends MODEL one tiny request offering one tool, and says how long the answer took, whether its text streamed, and whether the model called the tool (agents need tool calls).',
  arguments: [
    { name: 'list|path|add|test', description: 'The action.' },
    { name: 'ID', description: 'add: the model id the server knows it by (also what --model takes).' },
    { name: 'MODEL', description: 'test: a model id from the catalog.' },
  ],
  options: [
    { name: 'provider', type: 'string', valueName: 'openai|anthropic', description: 'add: the wire format the server speaks.' },
    { name: 'base-url', type: 'string', valueName: 'URL', description: "add: the server's base URL (OpenAI format: ending with /v1, e.g. http://127.0.0.1:8080/v1)." },
    { name: 'context-window', type: 'string', valueName: 'N', description: 'add: the context window the server is configured for, in tokens.' },
    { name: 'reasoning', type: 'boolean', description: 'add: the model reasons (agents may require it).' },
    { name: 'vision', type: 'boolean', description: 'add: the model reads images.' },
    { name: 'max-concurrency', type: 'string', valueName: 'N', description: "add: requests in flight at most on the model's endpoint." },
    { name: 'no-key', type: 'boolean', description: 'add: the server checks no key ("api_key": "none"), so no key variable is needed.' },
    JSON_OPTION,
  ],
  exitStatus: ['0  done (test: the model answered)', '1  the models file is invalid or cannot be written, the key is missing, or the model did not answer', '2  usage error, or a bad flag value'],
  examples: [
    'zotbox models list',
    'zotbox models path',
    'zotbox models add qwen3:8b --provider openai --base-url http://127.0.0.1:11434/v1 --context-window 32768 --no-key',
    'zotbox models test qwen3:8b',
  ],
  minPositionals: 1,
  maxPositionals: 2,
};

export const COMMANDS: readonly CommandSpec[] = [INIT, PACK, INSPECT, VERIFY, UNPACK, CHECK, RUN, EVAL, CONSENT, SESSIONS, DATA, MODELS, DOCTOR, COMPLETION];

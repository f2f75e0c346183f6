// Consent before a run (Part A, spec B §5): print the agent's identity, its
// remote source, both digests, the expanded permissions and the confinement in
// force (consent/consent-text.ts), then ask "Allow? [y/N]" on a terminal. A
// receipt this installation signed (consent/receipt.ts) skips the question,
// except in bash "ask" mode, which never uses one. The question goes to stdout
// when it is a terminal, else to the controlling terminal (/dev/tty) when stdin is
// one (issue 13: `zotbox run agent "x" --json | jq` still asks). Without a
// terminal, zotbox refuses unless -y/--yes or ZOTBOX_AGENT_CONSENT=1 is given. A
// yes at the prompt is saved as a receipt; -y and the variable cover this run
// only, unless `remember` (--remember) asks to save them too.
import { closeSync, openSync, writeSync } from 'node:fs';
import { ZotboxError } from '../../errors.js';
import { escapeControlCharacters, formatConsentText, type ConsentTextInput } from './consent-text.js';
import type { AgentSourceIdentity } from './agent-identity.js';
import { readMatchingReceipt, writeReceipt, type ConfinementSummary, type ConsentSummary } from './receipt.js';

export { escapeControlCharacters, formatConsentText, type ConsentTextInput } from './consent-text.js';
export type { ConfinementSummary, ConsentSummary } from './receipt.js';

export interface ConsentRequest {
  readonly stateDirectory: string;
  readonly name: string;
  /** Where the agent came from (issue 21): a receipt binds it, so consent for one source never covers another. */
  readonly source: AgentSourceIdentity;
  readonly version: string;
  readonly contentDigest: string;
  readonly artifactDigest: string | undefined;
  readonly permissions: ConsentSummary;
  /** For a remote agent, where it came from ("acme/agents/reviewer@v1"), shown under the agent line. */
  readonly remoteSource?: string;
  /** The skills that bundle scripts (issue 25), said in the prompt; the digest the receipt binds covers them. */
  readonly skillScripts?: ConsentTextInput['skillScripts'];
  /** The model and the host its requests go to, named in the prompt (issue 27). */
  readonly model?: ConsentTextInput['model'];
  /** -y/--yes on the command line: consent for this run only. */
  readonly yes: boolean;
  /** --remember: save a receipt for consent given by `yes` or ZOTBOX_AGENT_CONSENT=1 (a yes at the prompt is always saved). */
  readonly remember?: boolean;
  /** The canonical workspace, recorded in a saved receipt for `consent list`. */
  readonly workspace?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  readonly stdout: { write(text: string): unknown; isTTY?: boolean };
  /**
   * Where to ask when stdin is a terminal and stdout is not (stdout redirected or
   * piped): opens the terminal, or returns undefined when there is none. Default:
   * the controlling terminal, /dev/tty.
   */
  readonly openTerminal?: () => ConsentTerminal | undefined;
  /** What to call the agent in the refusal message (the reference the user typed). */
  readonly reference: string;
}

export type ConsentOutcome = 'flag' | 'environment' | 'receipt' | 'prompt';

/** A terminal the question is written to (the answer is read from stdin). */
export interface ConsentTerminal {
  write(text: string): unknown;
  close(): void;
}

/**
 * Reads one answer in raw mode (spec B §5.3, with Part A's default): y/n set the
 * answer (the first one counts), Backspace or DEL clears it, Enter confirms (no
 * answer means No), Ctrl-C interrupts, end of input is No. Other bytes are ignored.
 */
export function readConsentKey(stdin: NodeJS.ReadableStream, echo: (text: string) => void): Promise<'yes' | 'no' | 'interrupted'> {
  return new Promise((resolve) => {
    let answer: 'yes' | 'no' | undefined;
    const finish = (result: 'yes' | 'no' | 'interrupted') => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      resolve(result);
    };
    const onEnd = () => finish('no');
    const onData = (chunk: Buffer | string) => {
      for (const byte of Buffer.from(chunk)) {
        if (byte === 0x03) {
          echo('^C\r\n');
          return finish('interrupted');
        }
        if ((byte === 0x79 || byte === 0x59 || byte === 0x6e || byte === 0x4e) && answer === undefined) {
          answer = byte === 0x79 || byte === 0x59 ? 'yes' : 'no';
          echo(answer === 'yes' ? 'y' : 'n');
        } else if ((byte === 0x08 || byte === 0x7f) && answer !== undefined) {
          answer = undefined;
          echo('\b \b');
        } else if (byte === 0x0d || byte === 0x0a) {
          echo('\r\n');
          return finish(answer ?? 'no');
        }
      }
    };
    // A stdin that has already ended (the prompt was read from it: `zotbox run AGENT -`) sends no 'end' again:
    // its answer is the end of input, No, at once, rather than a wait that never ends.
    if ((stdin as { readableEnded?: boolean }).readableEnded === true) return finish('no');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

/** Resolves when the run may go ahead; throws ZB_CONSENT_REQUIRED or ZB_CONSENT_REFUSED otherwise. */
export async function requestConsent(request: ConsentRequest): Promise<ConsentOutcome> {
  const askMode = request.permissions.bash.mode === 'ask';
  const expected = {
    digest: request.contentDigest,
    name: request.name,
    source: request.source,
    permissions: request.permissions,
    ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
  };
  const save = (): void => {
    // bash "ask" lets the agent run any command: consent is asked on every launch, never remembered.
    if (askMode) return;
    // Already recorded (a CI job that gives -y --remember every time): no rewrite, no fsync.
    if (readMatchingReceipt(request.stateDirectory, expected) !== undefined) return;
    writeReceipt(request.stateDirectory, request.source, {
      receipt: 2,
      digest: request.contentDigest,
      artifact_digest: request.artifactDigest ?? null,
      name: request.name,
      version: request.version,
      permissions: request.permissions,
      approved_at: new Date().toISOString(),
      ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
    });
  };
  // Consent the user never saw on screen is not remembered unless they asked for it.
  if (request.yes) {
    if (request.remember === true) save();
    return 'flag';
  }
  if (request.env['ZOTBOX_AGENT_CONSENT'] === '1') {
    if (request.remember === true) save();
    return 'environment';
  }
  // A receipt that fails verification (unsigned, forged, signed by another installation) counts as none.
  if (!askMode && readMatchingReceipt(request.stateDirectory, expected) !== undefined) {
    return 'receipt';
  }
  const terminal = consentTerminal(request);
  if (terminal === undefined) {
    const why = request.stdin.isTTY === true ? 'the controlling terminal cannot be opened' : 'standard input, where the answer is read, is not a terminal';
    throw new ZotboxError(
      'ZB_CONSENT_REQUIRED',
      `refusing to run ${escapeControlCharacters(request.name)} without consent: there is no terminal to ask on (${why}). Review it with 'zotbox inspect ${escapeControlCharacters(request.reference)}', then approve with -y/--yes or ZOTBOX_AGENT_CONSENT=1.`,
      { details: { name: request.name, digest: request.contentDigest } },
    );
  }
  let answer: 'yes' | 'no' | 'interrupted';
  try {
    terminal.write(`${formatConsentText(request)}Allow? [y/N] `);
    request.stdin.setRawMode?.(true);
    answer = await readConsentKey(request.stdin, (text) => terminal.write(text));
  } finally {
    request.stdin.setRawMode?.(false);
    terminal.close();
  }
  if (answer !== 'yes') {
    throw new ZotboxError(
      'ZB_CONSENT_REFUSED',
      answer === 'interrupted' ? 'consent was interrupted (Ctrl-C); nothing ran.' : `you declined ${escapeControlCharacters(request.name)}'s permissions; nothing ran.`,
      {
        details: { name: request.name },
      },
    );
  }
  save();
  return 'prompt';
}

/**
 * Where the question is asked, stdin being where it is answered: stdout when it is
 * a terminal too, else the controlling terminal; undefined when stdin is no
 * terminal or there is no controlling terminal to open.
 */
function consentTerminal(request: ConsentRequest): ConsentTerminal | undefined {
  if (request.stdin.isTTY !== true) return undefined;
  if (request.stdout.isTTY === true) return { write: (text) => request.stdout.write(text), close: () => undefined };
  return (request.openTerminal ?? openControllingTerminal)();
}

function openControllingTerminal(): ConsentTerminal | undefined {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'w');
  } catch {
    // No controlling terminal (a service, a setsid'd process): there is nobody to ask, which the caller reports.
    return undefined;
  }
  return { write: (text) => writeSync(fd, text), close: () => closeSync(fd) };
}

/** The expanded permission summary consent binds: absolute roots, the bash mode and allowlist, the confinement, the variable names read, the command limits, and the hosts of net.allow (when any). */
export function summarizePermissions(
  scopes: { readonly read: readonly { root: string }[]; readonly write: readonly { root: string }[] },
  bash: { readonly mode: 'none' | 'ask' | 'allowlist'; readonly allow: readonly string[] },
  confinement: ConfinementSummary,
  envRead: readonly string[] = [],
  limits?: ConsentSummary['limits'],
  net: readonly string[] = [],
): ConsentSummary {
  const summary = {
    read: scopes.read.map((s) => s.root),
    write: scopes.write.map((s) => s.root),
    bash: { mode: bash.mode, allow: [...bash.allow] },
    confinement,
    ...(limits === undefined ? {} : { limits: { ...limits } }),
    ...(net.length === 0 ? {} : { net: [...net] }),
  };
  // No key without names: receipts made before env.read existed still match.
  return envRead.length === 0 ? summary : { ...summary, env: [...envRead] };
}

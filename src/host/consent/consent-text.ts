// The consent text shown before "Allow? [y/N]": identity, remote source, digests,
// the expanded permissions and the confinement in force. Every string that an
// agent or its source controls is escaped visibly first: no manifest, scope path
// or reference may send a terminal sequence (OSC 52 clipboard, clear screen).
import { grantedToolFiles } from '../../policy/protected-files.js';
import type { ConfinementSummary, ConsentSummary } from './receipt.js';

/**
 * C0 controls (ESC, BEL, CR, TAB...), DEL, C1 controls (CSI U+009B, OSC U+009D...),
 * and the invisible and bidi formatting characters that make text read other than
 * it is (U+061C, U+200B-U+200F, U+2028-U+202E, U+2060-U+206F, U+FEFF).
 */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** Replaces each unsafe character by its visible escape: ESC becomes the six characters \u001b. */
export function escapeControlCharacters(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface ConsentTextInput {
  readonly name: string;
  readonly version: string;
  readonly contentDigest: string;
  readonly artifactDigest: string | undefined;
  readonly permissions: ConsentSummary;
  /** Where a remote agent came from ("acme/agents/reviewer@v1"); absent for local agents. */
  readonly remoteSource?: string | undefined;
  /** The skills that bundle scripts, with them (issue 25); absent or empty: none. */
  readonly skillScripts?: readonly { readonly name: string; readonly scripts: readonly string[] }[] | undefined;
  /** The model the run talks to and the host its requests (the prompts, and what the agent reads) go to (issue 27); absent: not known here. */
  readonly model?: { readonly id: string; readonly host: string | undefined } | undefined;
}

/** Skills with scripts, said out loud: running one still needs its interpreter in the allowlist, and runs confined. */
function skillScriptLines(skills: ConsentTextInput['skillScripts']): string[] {
  const withScripts = (skills ?? []).filter((skill) => skill.scripts.length > 0);
  if (withScripts.length === 0) return [];
  const shown = withScripts.map((skill) => `${escapeControlCharacters(skill.name)} (${skill.scripts.slice(0, 3).map(escapeControlCharacters).join(', ')}${skill.scripts.length > 3 ? ', …' : ''})`);
  return [`  skills bundle scripts: ${shown.join('; ')}; they run only as commands, with their interpreter in the bash allowlist`];
}

const CONFINEMENT_LINES: Readonly<Record<ConfinementSummary, string>> = {
  bubblewrap: '  confinement: bubblewrap sandbox (system read-only, only the scopes above, no network)',
  unconfined: '  UNCONFINED: commands run with your full user rights',
};

/** The per-command resource ceilings (issue 24 §5); unconfined commands get none. */
function limitsLine(limits: NonNullable<ConsentSummary['limits']>, confinement: ConfinementSummary): string {
  if (confinement === 'unconfined') return '  limits:   none (unconfined commands are not bounded)';
  return `  limits:   per command ${limits.processes} processes, ${limits.memory_mib} MiB memory; ${limits.cpu_seconds} s CPU per process, files up to ${limits.file_size_mib} MiB`;
}

/** The consent text (plain, ending with a blank line; shown before the question). */
export function formatConsentText(request: ConsentTextInput): string {
  const safe = escapeControlCharacters;
  const list = (values: readonly string[]) => (values.length === 0 ? 'none' : values.map(safe).join(', '));
  const { permissions } = request;
  const bash = permissions.bash.mode === 'allowlist' ? `allowlist (${list(permissions.bash.allow)})` : permissions.bash.mode === 'ask' ? 'ask — ANY command, with your permissions' : 'none';
  return [
    `Agent ${safe(request.name)}@${safe(request.version) || '(no version)'} wants to run.`,
    ...(request.remoteSource === undefined ? [] : [`  source: github ${safe(request.remoteSource)}`]),
    `  content digest:  ${safe(request.contentDigest)}`,
    ...(request.artifactDigest === undefined ? [] : [`  artifact digest: ${safe(request.artifactDigest)}`]),
    ...(request.model === undefined
      ? []
      : [
          request.model.host === undefined
            ? `  model:    ${safe(request.model.id)} (nothing is sent anywhere)`
            : `  model:    ${safe(request.model.id)} at ${safe(request.model.host)} (what the agent reads goes there)`,
        ]),
    '',
    `  fs read:  ${list(permissions.read)}`,
    `  fs write: ${list(permissions.write)}`,
    // A write scope never grants these by containing them (issue 21 §5): each one named is said out loud.
    ...grantedToolFiles(permissions.write).map(({ root, rule }) => `  GRANTED, a file other tools run: ${safe(root)} (${rule.runBy})`),
    `  bash:     ${bash}`,
    ...skillScriptLines(request.skillScripts),
    // Names only: the values stay in the user's environment until a command starts.
    ...(permissions.env === undefined ? [] : [`  env read: ${list(permissions.env)} (values from your environment, given to its commands)`]),
    // net.allow (issue 24): the only hosts commands can reach, through the sandbox's proxy.
    ...(permissions.net === undefined ? [] : [`  net:      ${list(permissions.net)} (no port: 80 and 443 only)`]),
    permissions.net !== undefined && permissions.confinement === 'bubblewrap'
      ? "  confinement: bubblewrap sandbox (system read-only, only the scopes above, network only to the hosts above through zotbox's proxy)"
      : CONFINEMENT_LINES[permissions.confinement],
    ...(permissions.limits === undefined ? [] : [limitsLine(permissions.limits, permissions.confinement)]),
    '',
  ].join('\n');
}

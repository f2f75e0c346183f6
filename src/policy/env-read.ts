// Which variables an agent may ask to read from the user's environment
// (permissions.env.read, issue 24 §2). Names only, compared case-insensitively
// (curl reads http_proxy as HTTP_PROXY): never one of the dangerous set of leading
// assignments (assignment-rules.ts, the one definition), nor one the fixed command
// environment or the shell sets, nor the host's own settings and model keys. Pure.
import { constrainedVariable, dangerousVariable } from './assignment-rules.js';

/** Set for every command by zotbox (command-environment.ts: NO_COLOR) or by the shell itself: a user value would be overwritten or confuse it. */
const SET_FOR_EVERY_COMMAND = ['NO_COLOR', 'PWD', 'OLDPWD', 'SHLVL', '_'];

/** Read by the zotbox host: its settings and the model providers' keys and URLs (the worker and the agent never hold them). */
const HOST_PREFIXES = ['ZOTBOX_', 'ZOT_', 'ANTHROPIC_', 'OPENAI_'];

/** Why an agent may not read this variable (completes "NAME is refused: it ..."), or undefined when it may. */
export function envReadRefusal(name: string): string | undefined {
  const upper = name.toUpperCase();
  const dangerous = dangerousVariable(name);
  if (dangerous !== undefined) return `is in the dangerous set (docs/permissions.md, *Assignments*): it ${dangerous}`;
  if (constrainedVariable(name) !== undefined) return 'is one zotbox sets for every command, or allows only with a checked value (locale, terminal and time-zone data are loaded from it)';
  if (SET_FOR_EVERY_COMMAND.includes(upper)) return 'is set for every command by zotbox or the shell';
  if (HOST_PREFIXES.some((prefix) => upper.startsWith(prefix))) return "is the zotbox host's own: a setting of zotbox or a model provider's key or address, which agents never hold";
  return undefined;
}

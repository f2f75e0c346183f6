// The values of permissions.env.read (issue 24 §2): taken once, when a run is
// prepared, from the environment the host was given (the CLI's is the user's), for
// the agent's commands only; command-environment.ts puts them under the fixed
// variables. A listed name that is not set is absent. A value is never put in an
// error, an event or a message to the worker: it stays with the command executors.
import { ZotboxError } from '../../errors.js';
import { envReadRefusal } from '../../policy/env-read.js';

/** Names to values, for commands only. */
export type PassedEnvironment = Readonly<Record<string, string>>;

export const NO_PASSED_ENVIRONMENT: PassedEnvironment = Object.freeze({});

/** The set variables among `names`, with their values in `env`. Throws for a name no agent may read, or a value no command can be given. */
export function readPassedEnvironment(names: readonly string[], env: Readonly<Record<string, string | undefined>>): PassedEnvironment {
  const passed: Record<string, string> = {};
  for (const name of names) {
    // The manifest refused these already; checked again where the values are taken, so no other path can pass one.
    const why = envReadRefusal(name);
    if (why !== undefined) throw new ZotboxError('ZB_MANIFEST_ENV_REFUSED', `the agent asks to read ${name}, which agents may not read: ${name} ${why}.`, { details: { variable: name } });
    if (!Object.hasOwn(env, name)) continue;
    const value = env[name];
    if (value === undefined) continue;
    if (value.includes('\u0000')) {
      throw new ZotboxError(
        'ZB_OPTION_INVALID',
        `the env option's ${name}, which the agent reads, holds a NUL byte, which no command can be given. Fix: remove the NUL from its value (it is not shown here).`,
        {
          details: { option: 'env', variable: name },
        },
      );
    }
    Object.defineProperty(passed, name, { value, enumerable: true });
  }
  return Object.freeze(passed);
}

// `zotbox completion bash|zsh|fish`: prints the completion script for one shell,
// rendered from the command table, so it always matches this build's commands.
import { ZotboxError } from '../errors.js';
import { ZOTBOX_VERSION } from '../version.js';
import type { CommandHandler } from './command-spec.js';
import { renderBashCompletion } from './completion-bash.js';
import { renderFishCompletion } from './completion-fish.js';
import { buildCompletionModel, type CompletionModel } from './completion-model.js';
import { renderZshCompletion } from './completion-zsh.js';
import { COMMANDS } from './commands.js';

const RENDERERS: Readonly<Record<string, (model: CompletionModel, version: string) => string>> = {
  bash: renderBashCompletion,
  zsh: renderZshCompletion,
  fish: renderFishCompletion,
};

/** The completion script for `shell`, or undefined for a shell zotbox has none for. */
export function completionScript(shell: string): string | undefined {
  const render = Object.hasOwn(RENDERERS, shell) ? RENDERERS[shell] : undefined;
  return render?.(buildCompletionModel(COMMANDS), ZOTBOX_VERSION);
}

export const runCompletion: CommandHandler = (parsed, io) => {
  const shell = parsed.positionals[0]!;
  const script = completionScript(shell);
  if (script === undefined) {
    throw new ZotboxError(
      'ZB_CLI_USAGE',
      `no completion for the shell ${JSON.stringify(shell)}; use one of ${Object.keys(RENDERERS).join(', ')}. Run 'zotbox completion --help' for how to install it.`,
      {
        details: { command: 'completion', shell },
      },
    );
  }
  io.stdout.write(script);
  return Promise.resolve(0);
};

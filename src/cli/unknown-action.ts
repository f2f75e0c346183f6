// The one error for a sub-command's unknown action (`zotbox models lst`): it names
// the actions there are and, for a near miss, the one that was probably meant.
import { didYouMean, ZotboxError } from '../errors.js';

/** `actions` in the order help lists them; the last is joined with "or". */
export function unknownAction(command: string, action: string | undefined, actions: readonly string[]): ZotboxError {
  const listed = actions.length === 1 ? actions[0]! : `${actions.slice(0, -1).join(', ')} or ${actions[actions.length - 1]!}`;
  return new ZotboxError(
    'ZB_CLI_USAGE',
    `unknown ${command} action ${JSON.stringify(action ?? '')}.${action === undefined ? '' : didYouMean(action, actions)} Use ${listed}. Run 'zotbox ${command} --help'.`,
    {
      details: { command, action: action ?? '', actions: [...actions] },
    },
  );
}

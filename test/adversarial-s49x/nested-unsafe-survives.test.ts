// Review s49x, set-aside (agent-name-checks.ts `setAsideNewUnsafeNames`; fixed: innermost first, each unsafe name
// is set aside in its own directory before the one holding it moves). An entry with an unsafe name is now MOVED to
// `zotbox-renamed-N` instead of removed; the entries inside it that are unsafe too are skipped ("went with the
// directory holding it"). When it was removed they went with it; now they survive, under the moved directory, with
// their names. The next call's walk lists them as the user's (`before`), so no writer ever sets them aside again: a
// command gets a `$(...)` / `;` / leading-`-` name into the workspace for good, the rule's whole point lost.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test('no unsafe name made by a command is left in the workspace after its set-aside, nested ones included', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const transcript = await agentWrites(t, ws, 'mk.sh', 'mkdir ";a" && echo x > ";a/\\$(touch pwned)" && mkdir ";a/-rf"\n', 'sh mk.sh');
  t.regex(transcript, /the command left names the user.s tools would read as an option or as shell code/);
  t.false(existsSync(path.join(ws, ';a')));
  t.log(readdirSync(path.join(ws, 'zotbox-renamed-1')));
  // SAFE: what was inside is set aside as well (or gone with the outer entry); no name a shell would run is left.
  t.deepEqual(
    readdirSync(path.join(ws, 'zotbox-renamed-1')).filter((name) => /[;$`'"&|<>\\]|^-/.test(name)),
    [],
  );
});

// adv27c: the --approve prompt's type-ahead flush (src/cli/type-ahead.ts) runs its helpers from /usr/bin only,
// but in the zotbox process's current directory (usually the workspace) and python3 without -I: `python3 -c`
// puts the current directory first on sys.path, and termios is not built in, so a termios.py the agent wrote
// runs on the host with the user's rights, outside the sandbox, when the prompt opens. Python is used where perl
// is missing (Alpine, minimal images); here perl is hidden with a real bubblewrap mount and a real pty (script).
// Expected (safe): no code from the current directory runs (python3 -I, and cwd "/").
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { tempDir } from '../fixtures/temp.js';

const typeAhead = fileURLToPath(new URL('../../src/cli/type-ahead.js', import.meta.url));

test('the type-ahead flush never imports a module from the current directory', (t) => {
  const ws = realpathSync(tempDir(t, 'adv27c-ta-'));
  const mark = path.join(ws, 'MARK');
  writeFileSync(path.join(ws, 'termios.py'), `open(${JSON.stringify(mark)}, "w").write("ran")\n`);
  const node = `import(${JSON.stringify(typeAhead)}).then((m) => { m.discardTypeAhead(process.stdin); process.exit(0); })`;
  const r = spawnSync('bwrap', ['--dev-bind', '/', '/', '--ro-bind', '/dev/null', '/usr/bin/perl', 'script', '-qec', `${process.execPath} -e '${node}'`, '/dev/null'], {
    cwd: ws,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  t.is(r.status, 0, `${r.stdout}${r.stderr}`); // the harness ran (bwrap, script, node)
  t.false(existsSync(mark), 'termios.py from the current directory ran on the host');
});

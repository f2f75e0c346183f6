// adv27d finding 6 (medium: reads, not runs): `deno lint` is allowed unconfined (deno's
// rule marks only run, test and task as running project code), but deno reads
// deno.json from the working directory, and its lint.plugins names JavaScript that
// deno lint loads and runs, with "unconditional access to env vars and file reading"
// (deno's cli/tools/lint/plugins.rs). Unconfined, that is every file the user can
// read: a plugin the agent wrote reads a file outside the read scopes and reports it
// as a diagnostic, which the agent reads back. Class: a ruled program that looks up,
// in the working directory, a file that decides what code runs. Needs a deno binary:
// on PATH, in ~/.deno/bin, or named by DENO_BINARY (the npm package
// @deno/linux-x64-glibc ships one).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { runUnconfined, world } from './unconfined-world.js';

function denoBinary(): string | undefined {
  const named = process.env.DENO_BINARY;
  if (named !== undefined && existsSync(named)) return named;
  const home = path.join(homedir(), '.deno', 'bin', 'deno');
  if (existsSync(home)) return home;
  try {
    return execFileSync('sh', ['-c', 'command -v deno'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

test('deno lint unconfined does not run a lint plugin the agent wrote, which reads files outside the read scopes', async (t) => {
  const deno = denoBinary();
  if (deno === undefined) return t.fail('this repro needs deno 2.2 or newer (DENO_BINARY=/path/to/deno, or npm i @deno/linux-x64-glibc)');
  const w = world(t);
  const secret = path.join(w.root, 'secret.txt');
  writeFileSync(secret, 'the user secret, outside every scope\n');
  const plugin = `const secret = Deno.readTextFileSync(${JSON.stringify(secret)});\nexport default { name: "p", rules: { r: { create(ctx) { return { Program(node) { ctx.report({ node, message: "LEAK " + secret }); } }; } } } };\n`;
  const events = await runUnconfined(
    t,
    w,
    [
      { write: 'deno.json', content: '{ "lint": { "plugins": ["./plugin.ts"] } }\n' },
      { write: 'plugin.ts', content: plugin },
      { write: 'main.ts', content: 'export const x = 1;\n' },
      { bash: 'deno lint main.ts' },
    ],
    ['/usr/local/bin', '/usr/bin', '/bin'].includes(path.dirname(deno)) ? [] : [path.dirname(deno)],
  );
  t.false(events.includes('the user secret'), 'the secret reached the agent');
});

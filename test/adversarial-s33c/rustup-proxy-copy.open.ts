// adv27d finding 2 (high where it applies): the stand-in check knows rustup only by
// the name of the canonical file. rustup installs its proxies (cargo, rustc, ...) as
// hard links to itself (symlinks only where it cannot): the file is then named cargo,
// is ELF, and passes. As a proxy it reads rust-toolchain.toml from the working
// directory (not a protected name), whose `path` key names any directory as the
// toolchain: `cargo -V` unconfined runs the agent's <workspace>/fake/bin/cargo on the
// host. When the workspace is on the same filesystem as ~/.cargo, the nlink check
// denies it (for another reason); on another filesystem (a second disk, /tmp on tmpfs,
// a container volume) nothing does. One device here, so a copy of rustup stands for
// that hard link. Class: a dispatcher told by its name, not by what the file is.
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { markerScript, runUnconfined, world } from './unconfined-world.js';

test('a copy of rustup named cargo is a stand-in: rust-toolchain.toml in the workspace does not pick what runs unconfined', async (t) => {
  const rustup = [path.join(homedir(), '.cargo', 'bin', 'rustup'), '/usr/bin/rustup', '/usr/local/bin/rustup'].find((file) => existsSync(file));
  if (rustup === undefined) return t.fail('this repro needs rustup');
  const w = world(t);
  const bin = path.join(w.root, 'rust', 'bin');
  mkdirSync(bin, { recursive: true });
  // rustup itself under the tool's name, as its hard-linked proxy is (nlink does not count across devices).
  copyFileSync(realpathSync(rustup), path.join(bin, 'cargo'));
  await runUnconfined(
    t,
    w,
    [
      { write: 'rust-toolchain.toml', content: `[toolchain]\npath = ${JSON.stringify(path.join(w.workspace, 'fake'))}\n` },
      { write: 'fake/bin/cargo', content: markerScript(w.marker) },
      { write: 'fake/bin/rustc', content: markerScript(w.marker) },
      { bash: 'chmod +x fake/bin/cargo fake/bin/rustc' },
      { bash: 'cargo -V' },
    ],
    [bin],
  );
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});

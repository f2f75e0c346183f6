// adv27d finding 1 (high): `cargo fmt` is allowed unconfined (cargo's rule marks only
// build, check, test, run, clippy and doc as running project code), but cargo reads
// .cargo/config.toml from the working directory and its ancestors, a file the agent
// may write (no protected name). An [alias] there shadows the external subcommand fmt
// (cargo only warns: "user-defined alias `fmt` is shadowing an external subcommand"),
// so `cargo fmt` becomes `cargo run`: the agent's main.rs is built and run on the host.
// The same file can name build.rustc, build.rustc-wrapper or a target runner. Debian's
// cargo is on the fixed path: no --program-path is needed there. Class: a ruled program
// that looks up, in the working directory, a file that decides what runs.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { runUnconfined, world } from './unconfined-world.js';

/** A directory holding cargo itself (an ELF binary, not rustup's proxy): the fixed path's, or a rustup toolchain's bin. */
function cargoDirectory(): string | undefined {
  const toolchains = path.join(homedir(), '.rustup', 'toolchains');
  const candidates = ['/usr/bin', '/usr/local/bin', ...(existsSync(toolchains) ? readdirSync(toolchains).map((name) => path.join(toolchains, name, 'bin')) : [])];
  return candidates.find((directory) => {
    const cargo = path.join(directory, 'cargo');
    return existsSync(cargo) && path.basename(realpathSync(cargo)) === 'cargo';
  });
}

test('cargo fmt unconfined does not run what the workspace .cargo/config.toml aliases it to', async (t) => {
  const directory = cargoDirectory();
  if (directory === undefined) return t.fail('this repro needs cargo (Debian cargo, or a rustup toolchain in ~/.rustup/toolchains)');
  const w = world(t);
  await runUnconfined(
    t,
    w,
    [
      { write: '.cargo/config.toml', content: '[alias]\nfmt = ["run", "--quiet", "--"]\n' },
      { write: 'Cargo.toml', content: '[package]\nname = "p"\nversion = "0.1.0"\nedition = "2021"\n' },
      { write: 'src/main.rs', content: `fn main() { std::fs::write(${JSON.stringify(w.marker)}, "agent code ran on the host").unwrap(); }\n` },
      { bash: 'cargo fmt --check' },
    ],
    directory === '/usr/bin' || directory === '/usr/local/bin' ? [] : [directory],
  );
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});

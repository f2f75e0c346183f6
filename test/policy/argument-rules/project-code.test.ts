// Commands that run code the agent can write (scripts, makefiles, package
// scripts, tests, build scripts) run only confined, like programs without a
// rule: unconfined, the gate would be their only bound, and it cannot read the
// code. Uses of the same programs that run no project code are allowed, except for
// toolchains whose every use reads project configuration that can name what runs
// (cargo, go, deno, bun, pip). By hand.
import test from 'ava';
import { checkCases, type GateCase } from './gate-cases.js';

const NO_RULE = 'ZB_POLICY_SHELL_NO_RULE';
const U = 'unconfined' as const;

const CASES: readonly GateCase[] = [
  { command: 'python3 script.py', world: U, expect: NO_RULE },
  { command: 'python script.py', world: U, expect: NO_RULE },
  { command: 'python3 -m pytest', world: U, expect: NO_RULE },
  { command: 'node script.py', world: U, expect: NO_RULE },
  { command: 'perl script.py', world: U, expect: NO_RULE },
  { command: 'ruby script.py', world: U, expect: NO_RULE },
  { command: 'php script.py', world: U, expect: NO_RULE },
  { command: 'lua script.py', world: U, expect: NO_RULE },
  { command: 'bash script.sh', world: U, expect: NO_RULE },
  { command: 'sh script.sh', world: U, expect: NO_RULE },
  { command: 'dash script.sh', world: U, expect: NO_RULE },
  { command: 'zsh script.sh', world: U, expect: NO_RULE },
  { command: 'make', world: U, expect: NO_RULE, why: "the Makefile is the agent's to write" },
  { command: 'go build ./...', world: U, expect: NO_RULE },
  { command: 'go test ./...', world: U, expect: NO_RULE },
  { command: 'go run .', world: U, expect: NO_RULE },
  { command: 'go vet ./...', world: U, expect: NO_RULE },
  { command: 'go fmt ./...', world: U, expect: NO_RULE, why: "go.mod's toolchain line chooses the go that runs" },
  { command: 'go version', world: U, expect: NO_RULE, why: 'every use of go reads go.mod, go.work and go.env' },
  { command: 'cargo build', world: U, expect: NO_RULE, why: 'build scripts run' },
  { command: 'cargo check', world: U, expect: NO_RULE },
  { command: 'cargo test', world: U, expect: NO_RULE },
  { command: 'cargo run', world: U, expect: NO_RULE },
  { command: 'cargo clippy', world: U, expect: NO_RULE },
  { command: 'cargo doc', world: U, expect: NO_RULE },
  { command: 'cargo fmt', world: U, expect: NO_RULE, why: ".cargo/config.toml's [alias] can make fmt a run" },
  { command: 'cargo --version', world: U, expect: NO_RULE, why: "rustup's proxy runs the toolchain rust-toolchain.toml names" },
  { command: 'npm test', world: U, expect: NO_RULE },
  { command: 'npm t', world: U, expect: NO_RULE },
  { command: 'npm start', world: U, expect: NO_RULE },
  { command: 'npm run build', world: U, expect: NO_RULE },
  { command: 'npm run-script build', world: U, expect: NO_RULE },
  { command: 'npm ls', world: U, expect: 'allow', why: 'listing runs no scripts' },
  { command: 'deno run script.py', world: U, expect: NO_RULE },
  { command: 'deno test', world: U, expect: NO_RULE },
  { command: 'deno task build', world: U, expect: NO_RULE },
  { command: 'deno fmt --check', world: U, expect: NO_RULE, why: 'deno reads deno.json on every use' },
  { command: 'deno lint', world: U, expect: NO_RULE, why: "deno.json's lint plugins run with read access" },
  { command: 'bun run script.py', world: U, expect: NO_RULE },
  { command: 'bun test', world: U, expect: NO_RULE },
  { command: 'bun --version', world: U, expect: NO_RULE, why: "bunfig.toml's preload" },
  { command: 'pip list', world: U, expect: NO_RULE, why: "Python imports what site-packages' .pth files name" },
  // Confined, the sandbox bounds them: allowed.
  { command: 'python3 script.py', expect: 'allow' },
  { command: 'make', expect: 'allow' },
  { command: 'npm test', expect: 'allow' },
  { command: 'cargo test', expect: 'allow' },
  { command: 'go test ./...', expect: 'allow' },
  { command: 'cargo fmt', expect: 'allow' },
  { command: 'deno lint', expect: 'allow' },
  { command: 'pip list', expect: 'allow' },
  { command: 'bash script.sh', expect: 'allow' },
];

test('commands that run project code are denied unconfined and allowed confined', (t) => {
  checkCases(t, CASES);
});

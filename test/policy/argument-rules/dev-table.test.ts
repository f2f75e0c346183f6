// Hand-written decisions for the build tools and package managers (table-dev.ts):
// make, go, cargo, npm, pip. Cases written once for several subcommands or
// program names are still written by hand: `each` only fills in the name.
import test from 'ava';
import { checkCases, type GateCase } from './gate-cases.js';

const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
const ASSIGNMENT = 'ZB_POLICY_SHELL_ASSIGNMENT';

/** The same hand-written cases for each name (`placeholder` in a command stands for it). */
function each(names: readonly string[], cases: readonly GateCase[], placeholder = '{}'): GateCase[] {
  return names.flatMap((name) => cases.map((c) => ({ ...c, command: c.command.replaceAll(placeholder, name) })));
}

export const MAKE_CASES: readonly GateCase[] = [
  { command: 'make', expect: 'allow' },
  { command: 'make all', expect: 'allow' },
  { command: 'make out/app.o test', expect: 'allow' },
  { command: 'make -j 4 all', expect: 'allow' },
  { command: 'make -j4 all', expect: 'allow' },
  { command: 'make --jobs=2 all', expect: 'allow' },
  { command: 'make -k -n -s -B -q -w all', expect: 'allow' },
  { command: 'make --keep-going --just-print --silent --always-make --question --print-directory all', expect: 'allow' },
  { command: 'make --dry-run all', expect: 'allow' },
  { command: 'make --quiet --no-print-directory all', expect: 'allow' },
  { command: 'make -v', expect: 'allow' },
  { command: 'make --version', expect: 'allow' },
  { command: "make SHELL=/bin/sh 'X:=$(shell id)' -q nothing", expect: ARGUMENT, why: 'assignments change the shell and evaluate $(shell)' },
  { command: 'make CC=./evil all', expect: ARGUMENT, why: 'a variable assignment' },
  { command: "make 'X::=1' all", expect: ARGUMENT },
  { command: 'make -f $S/evil.mk', expect: ARGUMENT, why: 'another makefile' },
  { command: 'make --file=Makefile all', expect: ARGUMENT },
  { command: 'make --makefile=Makefile all', expect: ARGUMENT },
  { command: 'make -C $S', expect: ARGUMENT, why: 'runs the makefile of another directory' },
  { command: 'make --directory=$S all', expect: ARGUMENT },
  { command: 'make -I $S all', expect: ARGUMENT, why: 'includes makefiles from elsewhere' },
  { command: 'make --include-dir=$S all', expect: ARGUMENT },
  { command: "make --eval='all: ; id'", expect: ARGUMENT, why: 'evaluates makefile text' },
  { command: "make -E 'all: ; id'", expect: ARGUMENT },
  { command: 'make -j lots all', expect: ARGUMENT, why: 'not a number' },
  { command: 'make --dry all', expect: ARGUMENT, why: 'an abbreviation' },
  { command: 'make -- -f', expect: ARGUMENT, why: 'a target that looks like an option' },
  { command: 'MAKEFLAGS=--eval=x make all', expect: ASSIGNMENT },
];

export const GO_BUILD_AND_TEST: readonly GateCase[] = [
  { command: 'go build ./...', expect: 'allow' },
  { command: 'go build -o bin/app ./cmd/app', expect: 'allow' },
  { command: 'go build -o $R/app .', expect: OUTSIDE, why: '-o writes the binary' },
  { command: 'go build -v -x -n -a -race -cover -trimpath -tags=integration,linux -mod=readonly -p 4 ./...', expect: 'allow' },
  { command: 'go build -p many .', expect: ARGUMENT },
  { command: 'go build $S/...', expect: OUTSIDE, why: 'packages are read' },
  { command: 'go build ../S/...', expect: OUTSIDE },
  { command: 'go build example.com/tool@latest', expect: ARGUMENT, why: 'fetches code at a version' },
  { command: 'go build -toolexec=./x .', expect: ARGUMENT, why: 'runs a program for each tool' },
  { command: "go build -ldflags='-extld=./x' .", expect: ARGUMENT, why: 'can name a linker to run' },
  { command: 'go build -gcflags=all=-N .', expect: ARGUMENT },
  { command: 'go build -modfile=$S/go.mod .', expect: ARGUMENT },
  { command: 'go build -overlay=o.json .', expect: ARGUMENT },
  { command: 'go build -pkgdir=$S .', expect: ARGUMENT },
  { command: 'go test ./...', expect: 'allow' },
  { command: 'go test -v -run TestA -count=1 -race -cover -short -failfast -json -parallel 4 ./...', expect: 'allow' },
  { command: 'go test -skip=TestB -bench=. -benchmem -timeout 1m30s -tags integration -mod=vendor ./pkg', expect: 'allow' },
  { command: 'go test ./... -run TestA', expect: 'allow', why: 'go test reads flags after packages' },
  { command: 'go test -coverprofile=cover.out ./...', expect: 'allow' },
  { command: 'go test -coverprofile=$R/cover.out ./...', expect: OUTSIDE },
  { command: 'go test $S/...', expect: OUTSIDE },
  { command: 'go test -timeout forever ./...', expect: ARGUMENT },
  { command: 'go test -count many ./...', expect: ARGUMENT },
  { command: 'go test -parallel many ./...', expect: ARGUMENT },
  { command: 'go test -exec=./x ./...', expect: ARGUMENT, why: 'runs the test binary through a program' },
  { command: 'go test -vettool=./x ./...', expect: ARGUMENT },
  { command: 'go test ./... -args -x', expect: ARGUMENT, why: 'arguments for the test binary are not vetted' },
];

export const GO_OTHER: readonly GateCase[] = [
  { command: 'go run .', expect: 'allow' },
  { command: 'go run ./cmd/app --port 8080 -v', expect: 'allow', why: 'after the package, arguments are the program\'s' },
  { command: 'go run -race -tags=dev -mod=mod main.go arg', expect: 'allow' },
  ...each(['build', 'test', 'vet', 'run'], [
    { command: "go {} -tags 'a;b' .", expect: ARGUMENT },
    { command: 'go {} -mod=other .', expect: ARGUMENT },
  ]),
  { command: 'go run', expect: ARGUMENT },
  { command: 'go run $S/main.go', expect: OUTSIDE },
  { command: 'go run main.go $S/secret.go', expect: ARGUMENT, why: 'a second .go file would be compiled' },
  { command: 'go run example.com/tool@latest', expect: ARGUMENT, why: 'downloads and runs code' },
  { command: 'go run -exec=./x .', expect: ARGUMENT },
  { command: 'go vet ./...', expect: 'allow' },
  { command: 'go vet -tags=x -mod=readonly ./...', expect: 'allow' },
  { command: 'go vet $S/...', expect: OUTSIDE },
  { command: 'go vet -vettool=./x ./...', expect: ARGUMENT },
  { command: 'go fmt ./...', expect: 'allow' },
  { command: 'go fmt -n -x ./...', expect: 'allow' },
  { command: 'go fmt $R/...', expect: OUTSIDE, why: 'fmt rewrites the files' },
  { command: 'go version', expect: 'allow' },
  { command: 'go version -m -v bin/app', expect: 'allow' },
  { command: 'go version -m $S/secret.txt', expect: OUTSIDE },
  { command: 'go list ./...', expect: 'allow' },
  { command: 'go list -json -m -e -deps -test all', expect: 'allow' },
  { command: "go list -f '{{.Dir}}' ./...", expect: 'allow' },
  { command: 'go list $S/...', expect: OUTSIDE },
  { command: 'go list -m example.com/m@latest', expect: ARGUMENT },
  { command: 'go env', expect: 'allow' },
  { command: 'go env -json GOPATH GOROOT', expect: 'allow' },
  { command: 'go env gopath', expect: ARGUMENT },
  { command: 'go env -w GOFLAGS=-toolexec=./x', expect: ARGUMENT, why: 'changes the go configuration' },
  { command: 'go env -u GOFLAGS', expect: ARGUMENT },
  { command: 'go mod tidy', expect: 'allow' },
  { command: 'go mod tidy -v -e', expect: 'allow' },
  { command: 'go mod download -json -x', expect: 'allow' },
  { command: 'go mod download example.com/m@v1.0.0', expect: ARGUMENT },
  { command: 'go mod verify', expect: 'allow' },
  { command: 'go mod graph', expect: 'allow' },
  { command: 'go mod why -m golang.org/x/text', expect: 'allow' },
  { command: 'go mod why $S/pkg', expect: OUTSIDE },
  { command: 'go mod', expect: ARGUMENT },
  { command: 'go mod edit -replace=a=b', expect: ARGUMENT },
  { command: 'go mod vendor', expect: ARGUMENT },
  { command: 'go generate ./...', expect: ARGUMENT, why: 'runs the commands in //go:generate lines' },
  { command: 'go get example.com/m', expect: ARGUMENT },
  { command: 'go install example.com/tool@latest', expect: ARGUMENT },
  { command: 'go tool compile x.go', expect: ARGUMENT },
  { command: 'go clean -cache', expect: ARGUMENT },
  { command: 'go -C $S build', expect: ARGUMENT },
  { command: 'go', expect: ARGUMENT },
  { command: 'GOFLAGS=-toolexec=./x go build .', expect: ASSIGNMENT },
];

/** Options every building cargo subcommand takes. */
const CARGO_SELECT: readonly GateCase[] = [
  { command: 'cargo {} --release -p app -F serde,derive --all-features --no-default-features --bin app -j 4 --target x86_64-unknown-linux-gnu --target-dir target --manifest-path Cargo.toml --locked --offline -v -q', expect: 'allow' },
  { command: 'cargo {} -r --package=app --features=a --jobs=2 --verbose --quiet', expect: 'allow' },
  { command: 'cargo {} --target-dir $R/target', expect: OUTSIDE, why: 'the build writes there' },
  { command: 'cargo {} --manifest-path $S/Cargo.toml', expect: OUTSIDE },
  { command: 'cargo {} --target ./evil.json', expect: ARGUMENT, why: 'a target spec file can name a linker' },
  { command: "cargo {} --features 'a;b'", expect: ARGUMENT },
  { command: 'cargo {} -p ../x', expect: ARGUMENT },
  { command: 'cargo {} --bin ../x', expect: ARGUMENT },
  { command: 'cargo {} -j many', expect: ARGUMENT },
  { command: "cargo {} --config 'build.rustc-wrapper=\"./x\"'", expect: ARGUMENT, why: 'configuration can name programs to run' },
  { command: 'cargo {} -Z unstable-options', expect: ARGUMENT },
];

export const CARGO_CASES: readonly GateCase[] = [
  ...each(['build', 'check', 'test', 'run', 'clippy', 'doc'], CARGO_SELECT),
  ...each(['build', 'check', 'test', 'clippy'], [{ command: 'cargo {} --workspace --all-targets --lib', expect: 'allow' }]),
  { command: 'cargo build', expect: 'allow' },
  { command: 'RUST_BACKTRACE=1 cargo test', expect: 'allow' },
  { command: 'cargo test --no-run --no-fail-fast', expect: 'allow' },
  { command: 'cargo test --doc', expect: 'allow' },
  { command: 'cargo test my_test -- --nocapture --test-threads=1', expect: 'allow' },
  { command: 'cargo test -- --logfile $S/log', expect: ARGUMENT, why: 'the harness writes the log file' },
  { command: 'cargo run -- --port 80', expect: 'allow' },
  { command: 'cargo run --release arg --port 80', expect: 'allow', why: 'after the first argument, the program\'s' },
  { command: 'cargo clippy -- -D warnings', expect: 'allow' },
  { command: 'cargo clippy -- -W clippy::pedantic -Dclippy::all --deny=unsafe_code', expect: 'allow' },
  { command: 'cargo clippy -- -C linker=./evil', expect: ARGUMENT, why: 'compiler flags beyond lint levels' },
  { command: 'cargo clippy -- -o $S/x', expect: ARGUMENT },
  { command: 'cargo fmt', expect: 'allow' },
  { command: 'cargo fmt --all --check', expect: 'allow' },
  { command: 'cargo fmt -- --check', expect: 'allow' },
  { command: 'cargo fmt -p app --manifest-path Cargo.toml', expect: 'allow' },
  { command: 'cargo fmt -p ../x', expect: ARGUMENT },
  { command: 'cargo fmt --manifest-path $S/Cargo.toml', expect: OUTSIDE },
  { command: 'cargo fmt -- --config-path=$S/rustfmt.toml', expect: ARGUMENT },
  { command: 'cargo doc --no-deps --document-private-items', expect: 'allow' },
  { command: 'cargo doc --open', expect: ARGUMENT, why: 'opens a browser' },
  { command: 'cargo --version', expect: 'allow' },
  { command: 'cargo -V', expect: 'allow' },
  { command: 'cargo install ripgrep', expect: ARGUMENT },
  { command: 'cargo +nightly build', expect: ARGUMENT },
  { command: 'cargo --config x build', expect: ARGUMENT },
  { command: 'RUSTC_WRAPPER=./x cargo build', expect: ASSIGNMENT },
];

/** Options every npm subcommand (and npm itself) takes. */
const NPM_COMMON: readonly GateCase[] = [
  { command: 'npm {} -s', expect: 'allow' },
  { command: 'npm {} --silent --workspace app', expect: 'allow' },
  { command: 'npm {} -w app --workspaces', expect: 'allow' },
  { command: 'npm {} --workspace=../S', expect: OUTSIDE, why: 'a workspace is a directory' },
];

export const NPM_CASES: readonly GateCase[] = [
  ...each(['run', 'run-script', 'test', 't', 'start', 'ls', 'list', 'outdated'], NPM_COMMON),
  ...each(['view react'], NPM_COMMON),
  { command: 'npm -s test', expect: 'allow' },
  { command: 'npm -w $S/app test', expect: OUTSIDE, why: 'a workspace is a directory' },
  { command: 'npm --workspace app --workspaces test', expect: 'allow' },
  { command: 'npm -v', expect: 'allow' },
  { command: 'npm --version', expect: 'allow' },
  { command: 'npm test', expect: 'allow' },
  { command: 'NODE_ENV=test npm test', expect: 'allow' },
  { command: 'A=1 B=2 npm run build', expect: 'allow' },
  { command: 'npm t', expect: 'allow' },
  { command: 'npm start -- --port 3000', expect: 'allow' },
  { command: 'npm test -- --coverage', expect: 'allow' },
  { command: 'npm run', expect: 'allow', why: 'lists the scripts' },
  { command: 'npm run build', expect: 'allow' },
  { command: 'npm run-script build', expect: 'allow' },
  { command: 'npm run-script --if-present build -- --watch', expect: 'allow' },
  { command: 'npm t -- --watch', expect: 'allow' },
  { command: 'npm run build -- --watch', expect: 'allow', why: 'after --, the script\'s arguments' },
  { command: 'npm run --if-present lint', expect: 'allow' },
  { command: 'npm run build --watch', expect: ARGUMENT, why: 'npm reads it as a config setting' },
  { command: 'npm run build --script-shell=./evil', expect: ARGUMENT, why: 'names the shell that runs scripts' },
  { command: 'npm test --node-options=--require=./x', expect: ARGUMENT },
  { command: "npm exec --call 'id'", expect: ARGUMENT },
  ...each(['ls', 'list'], [
    { command: 'npm {}', expect: 'allow' },
    { command: 'npm {} --all --depth 2 --json react', expect: 'allow' },
    { command: 'npm {} -a --depth=0 @types/node', expect: 'allow' },
    { command: 'npm {} --depth deep', expect: ARGUMENT },
    { command: 'npm {} ./x', expect: ARGUMENT, why: 'not a registry package name' },
  ]),
  { command: 'npm outdated --json --all react', expect: 'allow' },
  { command: 'npm outdated ./x', expect: ARGUMENT },
  { command: 'npm view react version', expect: 'allow' },
  { command: 'npm view react@18 --json', expect: 'allow' },
  { command: 'npm view', expect: ARGUMENT },
  { command: 'npm view git+ssh://git@x.test/r.git', expect: ARGUMENT },
  { command: 'npm exec cowsay', expect: ARGUMENT },
  { command: 'npm x cowsay', expect: ARGUMENT },
  { command: 'npm install', expect: ARGUMENT },
  { command: 'npm i left-pad', expect: ARGUMENT },
  { command: 'npm ci', expect: ARGUMENT },
  { command: 'npm add left-pad', expect: ARGUMENT },
  { command: 'npm config set script-shell ./x', expect: ARGUMENT },
  { command: 'npm set script-shell ./x', expect: ARGUMENT },
  { command: 'npm init', expect: ARGUMENT },
  { command: 'npm create vite', expect: ARGUMENT },
  { command: 'npm publish', expect: ARGUMENT },
  { command: 'npm link', expect: ARGUMENT },
  { command: 'npm update', expect: ARGUMENT },
  { command: 'npm explore left-pad', expect: ARGUMENT },
  { command: 'npm edit left-pad', expect: ARGUMENT },
  { command: 'npm_config_script_shell=./x npm test', expect: ASSIGNMENT },
];

export const PIP_CASES: readonly GateCase[] = each(
  ['pip', 'pip3'],
  [
    ...each(['list', 'freeze', 'check', 'show requests'], [{ command: '{pip} {} -q -v --no-color --disable-pip-version-check --isolated', expect: 'allow' }]),
    { command: '{pip} -q --isolated -v --no-color --disable-pip-version-check list', expect: 'allow' },
    { command: '{pip} list', expect: 'allow' },
    { command: '{pip} list -o -u -e -l --user --not-required --format json', expect: 'allow' },
    { command: '{pip} list --outdated --uptodate --editable --local --format=freeze', expect: 'allow' },
    { command: '{pip} list --format xml', expect: ARGUMENT },
    { command: '{pip} show requests', expect: 'allow' },
    { command: '{pip} show -f requests', expect: 'allow' },
    { command: '{pip} show --files requests', expect: 'allow' },
    { command: '{pip} show', expect: ARGUMENT },
    { command: '{pip} show ../x', expect: ARGUMENT },
    { command: '{pip} freeze', expect: 'allow' },
    { command: '{pip} freeze --all -l --user --exclude pip', expect: 'allow' },
    { command: '{pip} freeze --local --exclude ../x', expect: ARGUMENT },
    { command: '{pip} check', expect: 'allow' },
    { command: '{pip} --version', expect: 'allow' },
    { command: '{pip} -V', expect: 'allow' },
    { command: '{pip} install requests', expect: ARGUMENT },
    { command: '{pip} install -r $S/requirements.txt', expect: ARGUMENT },
    { command: '{pip} download requests', expect: ARGUMENT },
    { command: '{pip} wheel .', expect: ARGUMENT },
    { command: '{pip} uninstall requests', expect: ARGUMENT },
    { command: '{pip} config list', expect: ARGUMENT },
    { command: '{pip} list --index-url http://x.test/simple', expect: ARGUMENT },
    { command: 'PIP_INDEX_URL=http://x.test {pip} list', expect: ASSIGNMENT },
  ],
  '{pip}',
);

/** Every case above, for tests that check each element of the rules is pinned by one. */
export const DEV_CASES: readonly GateCase[] = [...MAKE_CASES, ...GO_BUILD_AND_TEST, ...GO_OTHER, ...CARGO_CASES, ...NPM_CASES, ...PIP_CASES];

test('make runs named targets only, with no assignments or other makefiles', (t) => {
  checkCases(t, MAKE_CASES);
});

test('go builds, tests, runs and lists packages in the scopes, never code at a version or through other programs', (t) => {
  checkCases(t, [...GO_BUILD_AND_TEST, ...GO_OTHER]);
});

test('cargo builds, tests, lints and formats, never installs or takes configuration', (t) => {
  checkCases(t, CARGO_CASES);
});

test('npm runs project scripts and lists packages, never installs or executes others', (t) => {
  checkCases(t, NPM_CASES);
});

test('pip lists and shows packages, never installs', (t) => {
  checkCases(t, PIP_CASES);
});

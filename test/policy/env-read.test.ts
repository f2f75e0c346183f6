import test from 'ava';
import { envReadRefusal } from '../../src/policy/env-read.js';

// Each class of refusal, in the cases programs read (curl reads http_proxy and HTTP_PROXY alike).
for (const name of [
  'LD_PRELOAD',
  'ld_library_path',
  'DYLD_INSERT_LIBRARIES',
  'BASH_ENV',
  'ENV',
  'BASH_FUNC_x%%',
  'IFS',
  'NODE_OPTIONS',
  'node_options',
  'PYTHONSTARTUP',
  'PERL5OPT',
  'RUBYOPT',
  'JAVA_TOOL_OPTIONS',
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'TMPDIR',
  'GIT_DIR',
  'GIT_SSH_COMMAND',
  'SSH_AUTH_SOCK',
  'npm_config_registry',
  'NPM_CONFIG_USERCONFIG',
  'PAGER',
  'EDITOR',
  'http_proxy',
  'HTTP_PROXY',
  'https_proxy',
  'all_proxy',
  'no_proxy',
  'NO_PROXY',
  'wss_proxy',
  'SOCKS_SERVER',
  'SSL_CERT_FILE',
  'CURL_CA_BUNDLE',
  'NODE_EXTRA_CA_CERTS',
  'LANG',
  'LC_ALL',
  'LANGUAGE',
  'TERM',
  'TZ',
  'NO_COLOR',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'openai_base_url',
  'ZOTBOX_HOME',
  'ZOTBOX_AGENT_CONSENT',
  'ZOT_AGENT_CONSENT',
]) {
  test(`${name} may not be read`, (t) => {
    t.not(envReadRefusal(name), undefined);
  });
}

for (const name of ['GITHUB_TOKEN', 'NODE_ENV', 'CI', 'DATABASE_URL', 'my_setting', '_PRIVATE', 'AWS_REGION', 'SENTRY_DSN']) {
  test(`${name} may be read`, (t) => {
    t.is(envReadRefusal(name), undefined);
  });
}

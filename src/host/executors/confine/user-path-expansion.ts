// A path in a git config value (an include, core.hooksPath, init.templateDir), made as git's interpolate_path makes
// it: `%(prefix)/REST` below git's install prefix; `~` and `~/x` from $HOME (the user's home as the caller gives it),
// `~NAME` and `~NAME/x` from NAME's home in the account database (getpwnam), the rest of the text appended as
// written. Node has no getpwnam: the account zotbox runs as comes from os.userInfo() (getpwuid), any other from
// /etc/passwd. A name found in neither (git dies on it, or a directory service zotbox does not read knows it), and a
// prefix zotbox does not know, are problems: the caller fails closed, never "names nothing".
import { readFileSync } from 'node:fs';
import os from 'node:os';

export type ExpandedPath = { readonly path: string } | { readonly problem: string };

/** NAME's home directory, or undefined when zotbox cannot find the account. */
export type AccountHomes = (name: string) => string | undefined;

/** The account database as zotbox can read it: the current account, then /etc/passwd. */
export function systemAccountHomes(name: string): string | undefined {
  const self = os.userInfo();
  if (self.username === name) return self.homedir;
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields[0] === name && fields.length >= 7 && fields[5] !== '') return fields[5];
  }
  return undefined;
}

/**
 * `value` as git's interpolate_path makes it a path: `%(prefix)/REST` is REST below git's install prefix (REST itself
 * when absolute; zotbox does not know the prefix, so any other is a problem), a leading `~` is expanded; any other
 * value is returned as written.
 */
export function expandUserPath(value: string, home: string, accounts: AccountHomes = systemAccountHomes): ExpandedPath {
  if (value.startsWith('%(prefix)/')) {
    const rest = value.slice('%(prefix)/'.length);
    return rest.startsWith('/') ? { path: rest } : { problem: `${JSON.stringify(value)} names a path below git's install prefix, which zotbox does not know` };
  }
  if (!value.startsWith('~')) return { path: value };
  const slash = value.indexOf('/');
  const name = slash === -1 ? value.slice(1) : value.slice(1, slash);
  const rest = slash === -1 ? '' : value.slice(slash);
  if (name === '') return { path: home + rest };
  const named = accounts(name);
  if (named === undefined) return { problem: `${JSON.stringify(value)} starts with ~${name}, an account zotbox cannot find (git expands it from the account database, and stops when it cannot)` };
  return { path: named + rest };
}

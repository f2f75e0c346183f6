// Configuration files written into an unconfined command's private HOME: curl
// and wget follow redirects to ftp by default, and the gate checks only the URL
// on the command line. Inside the sandbox there is no network but loopback, so
// only the unconfined opt-out needs them; a rule denies the options that would
// override them (curl -q and --proto*, wget --max-redirect, and their configs).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** curl: http and https only, on the first request and on every redirect. */
export const CURL_CONFIG = 'proto = "=http,https"\nproto-redir = "=http,https"\n';
/** wget: no redirects at all (it has no setting that limits their protocol). */
export const WGET_CONFIG = 'max_redirect = 0\n';

export function writeHomeConfig(home: string): void {
  writeFileSync(path.join(home, '.curlrc'), CURL_CONFIG, { flag: 'wx', mode: 0o600 });
  writeFileSync(path.join(home, '.wgetrc'), WGET_CONFIG, { flag: 'wx', mode: 0o600 });
}

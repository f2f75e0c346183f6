// The bubblewrap flags that drop a sandbox's privileges, one list for every
// sandbox zotbox starts (a command's, the start-up probe's, a pool process's):
// a user namespace of its own as uid and gid 65534, no capabilities, and no
// further user namespaces inside it.

/** The user and group a sandbox's processes run as. */
export const SANDBOX_ID = '65534';

export const DROPPED_PRIVILEGES: readonly string[] = ['--unshare-user', '--uid', SANDBOX_ID, '--gid', SANDBOX_ID, '--cap-drop', 'ALL', '--disable-userns'];

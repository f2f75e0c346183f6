// The AppArmor profile `zotbox doctor --fix-apparmor` installs (issue 23): on
// Ubuntu 23.10 and later (kernel.apparmor_restrict_unprivileged_userns=1) it lets
// /usr/bin/bwrap, and no other program, create the unprivileged user namespace of
// a sandbox. It confines nothing else about bwrap (flags=(unconfined)): bubblewrap
// itself drops every capability before it runs the command. This is the shape
// Ubuntu documents for a program that needs user namespaces; narrower than the
// sysctl, which lifts the restriction for every program.

export const APPARMOR_PROFILE_PATH = '/etc/apparmor.d/zotbox-bwrap';

export const APPARMOR_PROFILE = `# zotbox: lets /usr/bin/bwrap (and only it) create unprivileged user namespaces,
# which Ubuntu 23.10 and later restrict (kernel.apparmor_restrict_unprivileged_userns=1).
# Installed by: sudo zotbox doctor --fix-apparmor. Remove it with:
#   sudo rm /etc/apparmor.d/zotbox-bwrap && sudo apparmor_parser -R zotbox-bwrap
abi <abi/4.0>,
include <tunables/global>

profile zotbox-bwrap /usr/bin/bwrap flags=(unconfined) {
  userns,

  # Site-specific additions and overrides.
  include if exists <local/zotbox-bwrap>
}
`;

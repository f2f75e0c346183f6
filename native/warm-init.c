// The warm sandbox's init (docs/proposals/warm-sandbox/DESIGN.md): PID 1 of a bubblewrap sandbox (--as-pid-1) that is
// reused across calls whose plan is identical. It runs one call at a time from its channel (fd 3, a unix stream
// socket the host holds the other end of) and, before it replies, makes the sandbox as a fresh one would be: every
// process of the call killed and reaped (kill(-1) from a namespace's init spares only init; ECHILD proves none is
// left), the sandbox's own writable places emptied without leaving their device (a scope bound below /tmp is a mount
// point, never entered), SysV IPC removed. Anything it cannot restore, or that changed what it found at start, makes
// it reply 'D' (drop this sandbox). It is non-dumpable and installs no signal handler: a process of a call cannot
// ptrace it, open /proc/1/fd/3, or signal it. It never trusts the call's processes: it works only once they are gone.
//
// Channel, host -> init: 'C' [u32 length] [body] with SCM_RIGHTS [stdin, stdout, stderr] on the 'C'; or 'K' (kill
// the running call: the host's timeout or cancel; ignored between calls). Body: struct call_header, nlimits struct
// call_limit, then NUL-terminated strings: cwd, argv[nargs], envp[nenv]. Init -> host: 8 bytes, a kind ('R' ready,
// 'X' exited, 'D' exited but the sandbox must be dropped), 3 zero bytes, an int32 (the wait status for X and D).
// Arguments: `--empty DIR` (a writable place to empty after each call), `--make DIR` (recreated, 0755, after: HOME).
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define CTL 3
#define MAX_BODY (1 << 20)
#define MAX_LIMITS 16
#define MAX_STRINGS 32768
#define MAX_PLACES 32

struct call_header {
  uint32_t umask, nlimits, nargs, nenv;
};
struct call_limit {
  uint32_t resource, pad;
  uint64_t soft, hard;
};

static const char *empty_places[MAX_PLACES], *made_places[MAX_PLACES];
static int nempty, nmade;
static uint64_t start_print[MAX_PLACES];

static void reply(char kind, int32_t value) {
  unsigned char out[8] = {(unsigned char)kind, 0, 0, 0};
  memcpy(out + 4, &value, sizeof value);
  /* MSG_NOSIGNAL: the init never takes SIGPIPE's default (it installs no handler, and must not ignore signals). */
  if (send(CTL, out, sizeof out, MSG_NOSIGNAL) != (ssize_t)sizeof out) _exit(3);
}

static uint64_t mix(uint64_t hash, const void *data, size_t length) {
  const unsigned char *bytes = data;
  for (size_t i = 0; i < length; i++) hash = (hash ^ bytes[i]) * 1099511628211ULL; /* FNV-1a */
  return hash;
}

/* Every extended attribute of an open directory, names and values (ACLs are system.posix_acl_*): a default ACL or a
 * user.* attribute left on a kept directory would reach the next call. Unreadable counts as changed. */
static uint64_t mix_xattrs(uint64_t hash, int fd) {
  static char names[65536], value[65536];
  ssize_t length = flistxattr(fd, names, sizeof names);
  if (length < 0) return errno == ENOTSUP ? hash : hash ^ 0xbad;
  for (char *name = names; name < names + length; name += strlen(name) + 1) {
    ssize_t size = fgetxattr(fd, name, value, sizeof value);
    if (size < 0) return hash ^ 0xbad;
    hash = mix(hash, name, strlen(name) + 1);
    hash = mix(hash, value, (size_t)size);
  }
  return hash;
}

/* What a command could change about this process without ptrace (prlimit, setpriority, sched_setaffinity,
 * sched_setscheduler, ioprio_set only ask for the same uid) and every later call would inherit from its fork. */
struct own_attributes {
  struct rlimit limits[RLIM_NLIMITS];
  int nice, policy, ioprio;
  struct sched_param param;
  cpu_set_t cpus;
};
static struct own_attributes start_attributes;

static void read_attributes(struct own_attributes *a) {
  memset(a, 0, sizeof *a);
  for (int r = 0; r < RLIM_NLIMITS; r++) getrlimit(r, &a->limits[r]);
  errno = 0;
  a->nice = getpriority(PRIO_PROCESS, 0);
  if (errno != 0) a->nice = 0x7fff;
  a->policy = sched_getscheduler(0);
  sched_getparam(0, &a->param);
  a->ioprio = (int)syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
  if (sched_getaffinity(0, sizeof a->cpus, &a->cpus) != 0) CPU_ZERO(&a->cpus);
}

static int attributes_unchanged(void) {
  struct own_attributes now;
  read_attributes(&now);
  return memcmp(&now, &start_attributes, sizeof now) == 0;
}

/* What is left in a place (the mount points bwrap made and the directories on the way to them): names, kinds,
 * modes, owners and inodes, depth first, without leaving the device. Equal before and after a call, or 'D'. */
static uint64_t print_at(int dirfd, dev_t dev, uint64_t hash, int depth) {
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return hash ^ 0xdead;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) return hash ^ 0xbad;
    hash = mix(hash, e->d_name, strlen(e->d_name) + 1);
    uint64_t fields[5] = {st.st_mode, st.st_uid, st.st_ino, st.st_dev == dev, (uint64_t)depth};
    hash = mix(hash, fields, sizeof fields);
    if (!S_ISDIR(st.st_mode) || st.st_dev != dev) continue;
    int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    hash = sub < 0 ? hash ^ 0xbad : print_at(sub, dev, mix_xattrs(hash, sub), depth + 1);
  }
  closedir(d);
  return hash;
}

static uint64_t print_of(const char *place) {
  int fd = open(place, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return 0xbad;
  /* The place itself too: its mode, owner and attributes (a default ACL on /tmp would shape every later file). */
  uint64_t fields[3] = {st.st_mode, st.st_uid, st.st_gid};
  uint64_t hash = mix_xattrs(mix(14695981039346656037ULL, fields, sizeof fields), fd);
  return print_at(fd, st.st_dev, hash, 0);
}

/* Empties a directory of the sandbox's own tmpfs, never leaving its device: a scope bound below it (its mount point,
 * which cannot be unlinked, and the directories bwrap made on the way) stays untouched. Counts what it could not
 * remove. A tree deeper than the descriptors allow fails to open: counted, so the sandbox is dropped (fail safe). */
static int wipe_at(int dirfd, dev_t dev) {
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return 1;
  }
  int left = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (unlinkat(dirfd, e->d_name, 0) == 0 || errno == EBUSY) continue; /* EBUSY: a file bound over itself */
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) {
      left++;
      continue;
    }
    if (st.st_dev != dev) continue; /* a mount point of the plan: never entered */
    /* No process of the call is left, so nothing can swap the name between this and the open. */
    if ((st.st_mode & 0700) != 0700) fchmodat(dirfd, e->d_name, st.st_mode | 0700, 0);
    int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) {
      left++;
      continue;
    }
    int inner = wipe_at(sub, dev);
    left += inner;
    /* ENOTEMPTY with nothing left inside: it holds a mount point (kept by the snapshot compare, not here). */
    if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0 && !(errno == ENOTEMPTY && inner == 0) && errno != EBUSY) left++;
  }
  closedir(d);
  return left;
}

/* Whether a directory tree holds anything but directories on its own device (mount points below it not entered). */
static int holds_at(int dirfd, dev_t dev) {
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return 1;
  }
  int found = 0;
  struct dirent *e;
  while (!found && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) found = 1;
    else if (st.st_dev != dev) continue; /* a mount point of the plan */
    else if (!S_ISDIR(st.st_mode)) found = 1;
    else {
      int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      found = sub < 0 ? 1 : holds_at(sub, dev);
    }
  }
  closedir(d);
  return found;
}

static int holds_entries(const char *place) {
  int fd = open(place, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return 1;
  return holds_at(fd, st.st_dev);
}

static int wipe(const char *place) {
  int fd = open(place, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return 1;
  return wipe_at(fd, st.st_dev);
}

/* When the init started: every place and kept directory shows it as its access and change times after each call, so
 * that the times a call sets (`touch -d` on /dev/shm or a directory on the way to a mount point) never reach the next. */
static struct timespec start_time[2];

/* Sets the start time on a directory of the sandbox's own tmpfs and on every directory below it on that device (the
 * made places, the kept directories); mount points of the plan (the user's scopes) are never touched. Counts failures. */
static int reset_times_at(int dirfd, dev_t dev) {
  int failed = futimens(dirfd, start_time) != 0;
  DIR *d = fdopendir(dirfd);
  if (d == NULL) {
    close(dirfd);
    return 1;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      failed++;
      continue;
    }
    if (!S_ISDIR(st.st_mode) || st.st_dev != dev) continue;
    int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    failed += sub < 0 ? 1 : reset_times_at(sub, dev);
  }
  closedir(d);
  return failed;
}

static int reset_times(const char *place) {
  int fd = open(place, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return 1;
  return reset_times_at(fd, st.st_dev);
}

/* Removes every SysV shared memory segment, semaphore set and message queue of the sandbox's IPC namespace; returns
 * how many were listed (0 on a second pass means all are gone). */
static int remove_sysv(void) {
  static const char *const tables[3] = {"/proc/sysvipc/shm", "/proc/sysvipc/sem", "/proc/sysvipc/msg"};
  int listed = 0;
  for (int kind = 0; kind < 3; kind++) {
    FILE *f = fopen(tables[kind], "re");
    if (f == NULL) return 1; /* cannot list: cannot prove none is left */
    char line[512];
    if (fgets(line, sizeof line, f) == NULL) { /* the header line */
      fclose(f);
      return 1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
      int key, id;
      if (sscanf(line, "%d %d", &key, &id) != 2) continue;
      listed++;
      if (kind == 0) shmctl(id, IPC_RMID, NULL);
      if (kind == 1) semctl(id, 0, IPC_RMID);
      if (kind == 2) msgctl(id, IPC_RMID, NULL);
    }
    fclose(f);
  }
  return listed;
}

/* After every process of the call is gone: true when the sandbox is as it was at start. */
static int restore(void) {
  int clean = 1;
  for (int i = 0; i < nempty; i++) clean &= wipe(empty_places[i]) == 0;
  /* Compared before the made places are made again: each is new (a new inode) after every call. */
  for (int i = 0; i < nempty; i++) clean &= print_of(empty_places[i]) == start_print[i];
  for (int i = 0; i < nmade; i++) clean &= mkdir(made_places[i], 0755) == 0;
  for (int i = 0; i < nempty; i++) clean &= reset_times(empty_places[i]) == 0;
  remove_sysv();
  clean &= remove_sysv() == 0;
  clean &= attributes_unchanged();
  return clean;
}

static void reset_and_exec(const struct call_header *h, const struct call_limit *limits, const int fds[3], char *cwd, char **argv, char **envp) {
  for (int i = 0; i < 3; i++)
    if (dup2(fds[i], i) != i) _exit(126); /* dup2 clears close-on-exec on 0..2 */
  syscall(SYS_close_range, 3, ~0U, 0); /* the channel and anything else: the command holds only its stdio */
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL); /* SIGKILL and SIGSTOP fail: they are default anyway */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  umask(h->umask & 0777);
  for (uint32_t i = 0; i < h->nlimits; i++) {
    struct rlimit value = {limits[i].soft, limits[i].hard};
    if (setrlimit((int)limits[i].resource, &value) != 0) _exit(126);
  }
  if (chdir(cwd) != 0) _exit(126);
  execve(argv[0], argv, envp);
  _exit(127);
}

/* Splits the body's strings into cwd, argv and envp; 0 when they are not all there. */
static int split_strings(char *p, char *end, uint32_t nargs, uint32_t nenv, char **cwd, char **argv, char **envp) {
  char **slots[3] = {cwd, argv, envp};
  uint32_t counts[3] = {1, nargs, nenv};
  for (int s = 0; s < 3; s++) {
    for (uint32_t i = 0; i < counts[s]; i++) {
      char *nul = memchr(p, 0, (size_t)(end - p));
      if (p >= end || nul == NULL) return 0;
      slots[s][i] = p;
      p = nul + 1;
    }
  }
  argv[nargs] = NULL;
  envp[nenv] = NULL;
  return p == end;
}

/* Waits for the command or a 'K'; then kills every other process of the namespace and reaps to ECHILD. */
static int run_to_end(pid_t pid) {
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (pidfd < 0) kill(-1, SIGKILL); /* cannot watch it: end it rather than wait blind */
  struct pollfd watch[2] = {{pidfd, POLLIN, 0}, {CTL, POLLIN, 0}};
  while (pidfd >= 0) {
    if (poll(watch, 2, -1) < 0) continue; /* EINTR: no handler is installed, but be safe */
    if (watch[0].revents) break;
    if (watch[1].revents) {
      char k;
      ssize_t n = recv(CTL, &k, 1, 0);
      kill(-1, SIGKILL); /* 'K', or the host went away: the call ends either way */
      if (n <= 0 || k != 'K') _exit(n <= 0 ? 0 : 2);
    }
  }
  if (pidfd >= 0) close(pidfd);
  int status = 0, other;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  kill(-1, SIGKILL); /* everything the command left, as bwrap's init ending would */
  while (waitpid(-1, &other, 0) > 0 || errno == EINTR) {}
  return status; /* ECHILD: every process of the namespace but this one is gone */
}

static void serve(void) {
  static char body[MAX_BODY + 1];
  static char *argv[MAX_STRINGS + 1], *envp[MAX_STRINGS + 1];
  for (;;) {
    char kind, cbuf[CMSG_SPACE(3 * sizeof(int))];
    struct iovec iov = {&kind, 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t n = recvmsg(CTL, &msg, MSG_CMSG_CLOEXEC);
    if (n <= 0) _exit(0); /* the host closed the channel: the sandbox ends */
    int fds[3] = {-1, -1, -1}, nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        if (nfds == 3) memcpy(fds, CMSG_DATA(c), sizeof fds);
      }
    if (kind == 'K' && nfds == 0) continue; /* a kill that crossed the reply: nothing runs */
    uint32_t length;
    if (kind != 'C' || nfds != 3 || (msg.msg_flags & MSG_CTRUNC) || recv(CTL, &length, sizeof length, MSG_WAITALL) != (ssize_t)sizeof length) _exit(2);
    if (length < sizeof(struct call_header) || length > MAX_BODY || recv(CTL, body, length, MSG_WAITALL) != (ssize_t)length) _exit(2);
    struct call_header h;
    memcpy(&h, body, sizeof h);
    size_t limits_size = (size_t)h.nlimits * sizeof(struct call_limit);
    if (h.nlimits > MAX_LIMITS || h.nargs < 1 || h.nargs > MAX_STRINGS || h.nenv > MAX_STRINGS || sizeof h + limits_size > length) _exit(2);
    struct call_limit limits[MAX_LIMITS];
    memcpy(limits, body + sizeof h, limits_size);
    char *cwd;
    if (!split_strings(body + sizeof h + limits_size, body + length, h.nargs, h.nenv, &cwd, argv, envp)) _exit(2);
    pid_t pid = fork();
    if (pid == 0) reset_and_exec(&h, limits, fds, cwd, argv, envp);
    for (int i = 0; i < 3; i++) close(fds[i]);
    int status = pid < 0 ? (126 << 8) : run_to_end(pid);
    reply(restore() ? 'X' : 'D', status);
  }
}

int main(int argc, char **argv) {
  prctl(PR_SET_DUMPABLE, 0); /* first: no process of a call may ptrace this one or open its descriptors */
  syscall(SYS_close_range, 4, ~0U, 0); /* only stdio and the channel: nothing bwrap or the host left open */
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL); /* an inherited SIG_IGN would pass to every command */
  fcntl(CTL, F_SETFL, fcntl(CTL, F_GETFL) & ~O_NONBLOCK);
  umask(0); /* its own modes are the ones it names; each command gets the umask of its call */
  clock_gettime(CLOCK_REALTIME, &start_time[0]);
  start_time[1] = start_time[0];
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--empty") == 0 && nempty < MAX_PLACES) empty_places[nempty++] = argv[i + 1];
    else if (strcmp(argv[i], "--make") == 0 && nmade < MAX_PLACES) made_places[nmade++] = argv[i + 1];
    else return 2;
  }
  if (argc % 2 != 1) return 2;
  /* A place to empty must be the sandbox's own fresh tmpfs: it holds nothing but the directories bwrap made on the way
   * to mount points. One that holds anything else is not ours (a scope bound over it, the user's files): the init
   * ends without touching it, and the sandbox never starts. Nothing is removed before the host has verified it. */
  for (int i = 0; i < nempty; i++)
    if (holds_entries(empty_places[i])) return 3;
  /* Start as every later call will: bwrap's own HOME gone (it is empty), fingerprinted, HOME made. */
  for (int i = 0; i < nmade; i++)
    if (rmdir(made_places[i]) != 0 && errno != ENOENT) return 2;
  for (int i = 0; i < nempty; i++) start_print[i] = print_of(empty_places[i]);
  read_attributes(&start_attributes);
  for (int i = 0; i < nmade; i++)
    if (mkdir(made_places[i], 0755) != 0) return 2;
  for (int i = 0; i < nempty; i++)
    if (reset_times(empty_places[i]) != 0) return 2;
  reply('R', 0); /* the namespace is built: the host verifies it before the first call */
  serve();
}

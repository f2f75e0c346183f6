/* Prototype of the warm sandbox's init (PID 1 of the sandbox, bwrap --as-pid-1).
 * Reads one call at a time from fd 3 (a unix stream socket; a length, then): header, strings, and the command's stdin/stdout/stderr by
 * SCM_RIGHTS. Forks the command (rlimits, cwd, env, fds), waits for it; when it exits, SIGKILLs every other process of
 * the PID namespace (kill(-1) from init spares only init) and reaps until ECHILD, so nothing of the call is left; then
 * empties the sandbox's own writable places (/tmp, /dev/shm, SysV IPC) and replies with the status.
 * A one-byte 'K' message while a call runs kills the call. Non-dumpable: no process of a call can ptrace it or open
 * /proc/1/fd/3; as the namespace's init it gets no signal from inside that it has no handler for (it installs none). */
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CTL 3
#define MAXMSG (256 * 1024)

struct header { uint32_t nargs, nenv; uint64_t cpu, fsize; };

/* Empties a directory of the sandbox's own tmpfs, never leaving its device: a scope bound below /tmp (its mount point
 * and the directories bwrap made on the way) stays, untouched; anything else that cannot be removed is counted. */
static int wipe_at(int dirfd, dev_t dev) {
  DIR *d = fdopendir(dirfd);
  if (d == NULL) { close(dirfd); return 1; }
  int left = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (unlinkat(dirfd, e->d_name, 0) == 0) continue;
    if (errno == EBUSY) continue; /* a file bound over itself: a mount point of the plan */
    struct stat st;
    if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) { left++; continue; }
    if (st.st_dev != dev) continue; /* another mount: never entered */
    /* no process of the call is left, so nothing can swap the name between this and the open */
    if ((st.st_mode & 0700) != 0700) fchmodat(dirfd, e->d_name, 0700, 0);
    int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) { left++; continue; }
    int inner = wipe_at(sub, dev);
    left += inner;
    if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0 && !(errno == ENOTEMPTY && inner == 0) && errno != EBUSY) left++;
  }
  closedir(d);
  return left;
}

static int wipe(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) return -1;
  return wipe_at(fd, st.st_dev) == 0 ? 0 : -1;
}

static void remove_sysv_shm(void) {
  /* the prototype lists shm only; semaphores and queues are the same loop over /proc/sysvipc/{sem,msg} */
  FILE *f = fopen("/proc/sysvipc/shm", "re");
  if (f == NULL) return;
  char line[512];
  if (fgets(line, sizeof line, f) == NULL) { fclose(f); return; }
  while (fgets(line, sizeof line, f) != NULL) {
    int key, id;
    if (sscanf(line, "%d %d", &key, &id) == 2) shmctl(id, IPC_RMID, NULL);
  }
  fclose(f);
}

int main(void) {
  prctl(PR_SET_DUMPABLE, 0);
  syscall(SYS_close_range, 4, ~0U, 0); /* only the channel and stdio: nothing bwrap or the host left open */
  static char buf[MAXMSG];
  if (write(CTL, "R", 1) != 1) return 1; /* the namespace is built: the host verifies it before the first call */
  for (;;) {
    char cbuf[CMSG_SPACE(3 * sizeof(int))];
    uint32_t total;
    struct iovec iov = {&total, sizeof total};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    ssize_t n = recvmsg(CTL, &msg, MSG_CMSG_CLOEXEC | MSG_WAITALL);
    if (n <= 0) return 0; /* the host closed the channel: the sandbox ends */
    int fds[3] = {-1, -1, -1};
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(3 * sizeof(int))) memcpy(fds, CMSG_DATA(c), sizeof fds);
    if (n != sizeof total || total < sizeof(struct header) || total >= MAXMSG || fds[0] < 0 || (msg.msg_flags & MSG_CTRUNC)) return 2; /* the host never sends this: end */
    n = recv(CTL, buf, total, MSG_WAITALL);
    if (n != (ssize_t)total) return 2;
    struct header h;
    memcpy(&h, buf, sizeof h);
    buf[n] = 0;
    char *strings = buf + sizeof h, *end = buf + n;
    char *argv[h.nargs + 1], *envp[h.nenv + 1];
    char *cwd = strings, *p = cwd + strlen(cwd) + 1;
    for (uint32_t i = 0; i < h.nargs && p < end; i++, p += strlen(p) + 1) argv[i] = p;
    argv[h.nargs] = NULL;
    for (uint32_t i = 0; i < h.nenv && p < end; i++, p += strlen(p) + 1) envp[i] = p;
    envp[h.nenv] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
      for (int i = 0; i < 3; i++) dup2(fds[i], i); /* dup2 clears close-on-exec on 0..2 */
      syscall(SYS_close_range, 3, ~0U, 0);
      struct rlimit cpu = {h.cpu, h.cpu + 1}, fsize = {h.fsize, h.fsize};
      if (setrlimit(RLIMIT_CPU, &cpu) != 0 || setrlimit(RLIMIT_FSIZE, &fsize) != 0) _exit(126);
      if (chdir(cwd) != 0) _exit(126);
      execve(argv[0], argv, envp);
      _exit(127);
    }
    for (int i = 0; i < 3; i++) close(fds[i]);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    struct pollfd pf[2] = {{pidfd, POLLIN, 0}, {CTL, POLLIN, 0}};
    for (;;) {
      if (poll(pf, 2, -1) < 0 && errno == EINTR) continue;
      if (pf[0].revents) break;
      if (pf[1].revents) {
        char k;
        if (recv(CTL, &k, 1, 0) <= 0) { kill(-1, SIGKILL); return 0; }
        kill(-1, SIGKILL); /* 'K': the host's timeout or cancel */
      }
    }
    close(pidfd);
    int status = 0, st;
    waitpid(pid, &status, 0);
    kill(-1, SIGKILL); /* everything the command left, as bwrap's init ending would */
    while (waitpid(-1, &st, 0) > 0 || errno == EINTR) {}
    /* ECHILD: every process of the namespace but this one is gone */
    int w1 = wipe("/tmp"), w2 = mkdir("/tmp/home", 0755), w3 = wipe("/dev/shm");
    int clean = w1 == 0 && w2 == 0 && w3 == 0;
    if (!clean) dprintf(2, "warm-init: wipe /tmp %d, mkdir /tmp/home %d (%s), wipe /dev/shm %d\n", w1, w2, strerror(errno), w3);
    remove_sysv_shm();
    dprintf(CTL, "%c %d\n", clean ? 'X' : 'D', status);
  }
}

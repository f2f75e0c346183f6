// The system calls node lacks for handing a call to the warm sandbox's init (native/warm-init.c): a unix stream
// socket pair (the channel), an anonymous pipe (a command's stdout or stderr), and a send with descriptors attached
// (SCM_RIGHTS), and a sealed in-memory copy of a program (memfd_create with every seal). src/host/executors/confine/fd-passing.ts is its typed face. Every descriptor made here is
// close-on-exec; a function returns what the system call gave, or -errno, and throws only on bad arguments.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_PASSED 8
#define SEND_WAIT_MS 5000

static napi_value number(napi_env env, int64_t value) {
  napi_value result;
  napi_create_int64(env, value, &result);
  return result;
}

/* [a, b], or -errno. */
static napi_value pair_or_error(napi_env env, int result, const int pair[2]) {
  if (result != 0) return number(env, -errno);
  napi_value array;
  napi_create_array_with_length(env, 2, &array);
  napi_set_element(env, array, 0, number(env, pair[0]));
  napi_set_element(env, array, 1, number(env, pair[1]));
  return array;
}

/* socketpair() -> [a, b]: AF_UNIX SOCK_STREAM, both ends blocking. */
static napi_value make_socketpair(napi_env env, napi_callback_info info) {
  (void)info;
  int pair[2];
  return pair_or_error(env, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), pair);
}

/* pipe() -> [read end, write end]. */
static napi_value make_pipe(napi_env env, napi_callback_info info) {
  (void)info;
  int pair[2];
  return pair_or_error(env, pipe2(pair, O_CLOEXEC), pair);
}

/* sealed_copy(bytes) -> fd, or -errno: a memfd holding the bytes, sealed against every change (the warm sandbox's
 * init runs from it: read once, nothing written to the package on disk afterwards reaches a sandbox). */
static napi_value sealed_copy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data;
  size_t length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 || napi_get_buffer_info(env, argv[0], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "sealedCopy: expected a buffer");
    return NULL;
  }
  int fd = memfd_create("zotbox-warm-init", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return number(env, -errno);
  size_t written = 0;
  while (written < length) {
    ssize_t n = write(fd, (const char *)data + written, length - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = n < 0 ? errno : EIO;
      close(fd);
      return number(env, -error);
    }
    written += (size_t)n;
  }
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    int error = errno;
    close(fd);
    return number(env, -error);
  }
  return number(env, fd);
}

static int send_all(int fd, const char *data, size_t length, const int *passed, uint32_t count) {
  char control[CMSG_SPACE(MAX_PASSED * sizeof(int))];
  memset(control, 0, sizeof control);
  size_t sent = 0;
  while (sent < length) {
    struct iovec iov = {(void *)(data + sent), length - sent};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (sent == 0 && count > 0) { /* the descriptors ride on the first byte */
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(count * sizeof(int));
      struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(count * sizeof(int));
      memcpy(CMSG_DATA(c), passed, count * sizeof(int));
    }
    ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n > 0) {
      sent += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    /* node may have made the descriptor non-blocking: wait for room, boundedly (the init reads as it goes) */
    struct pollfd room = {fd, POLLOUT, 0};
    if (n < 0 && errno == EAGAIN && poll(&room, 1, SEND_WAIT_MS) == 1) continue;
    return n < 0 && errno != EAGAIN ? -errno : -ETIMEDOUT;
  }
  return 0;
}

/* send(fd, buffer, [descriptors]) -> 0 once all of buffer is sent, or -errno. */
static napi_value send_with_descriptors(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd;
  void *data;
  size_t length;
  uint32_t count;
  bool is_array = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3 || napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
      napi_get_buffer_info(env, argv[1], &data, &length) != napi_ok || napi_is_array(env, argv[2], &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, argv[2], &count) != napi_ok || count > MAX_PASSED || length == 0) {
    napi_throw_type_error(env, NULL, "send(fd, non-empty buffer, [at most 8 descriptors])");
    return NULL;
  }
  int passed[MAX_PASSED];
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    if (napi_get_element(env, argv[2], i, &item) != napi_ok || napi_get_value_int32(env, item, &passed[i]) != napi_ok) {
      napi_throw_type_error(env, NULL, "send: a descriptor is not a number");
      return NULL;
    }
  }
  return number(env, send_all(fd, data, length, passed, count));
}

static napi_value init_module(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"socketpair", NULL, make_socketpair, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pipe", NULL, make_pipe, NULL, NULL, NULL, napi_enumerable, NULL},
      {"send", NULL, send_with_descriptors, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sealedCopy", NULL, sealed_copy, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init_module)

/* Prototype addon: the three system calls node lacks for handing a call to the warm sandbox's init. */
#define _GNU_SOURCE
#include <node_api.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static napi_value pair(napi_env env, int a, int b) {
  napi_value arr, va, vb;
  napi_create_array_with_length(env, 2, &arr);
  napi_create_int32(env, a, &va); napi_create_int32(env, b, &vb);
  napi_set_element(env, arr, 0, va); napi_set_element(env, arr, 1, vb);
  return arr;
}
static napi_value fail(napi_env env, const char *what) { napi_throw_error(env, NULL, what); return NULL; }

static napi_value Socketpair(napi_env env, napi_callback_info info) {
  (void)info; int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return fail(env, strerror(errno));
  return pair(env, sv[0], sv[1]);
}
static napi_value Pipe(napi_env env, napi_callback_info info) {
  (void)info; int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return fail(env, strerror(errno));
  return pair(env, p[0], p[1]);
}
/* send(fd, buffer, [fd0, fd1, fd2]) */
static napi_value Send(napi_env env, napi_callback_info info) {
  size_t argc = 3; napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int fd; void *data; size_t len; uint32_t nfds;
  napi_get_value_int32(env, argv[0], &fd);
  napi_get_buffer_info(env, argv[1], &data, &len);
  napi_get_array_length(env, argv[2], &nfds);
  if (nfds > 8) return fail(env, "too many fds");
  int fds[8];
  for (uint32_t i = 0; i < nfds; i++) { napi_value v; napi_get_element(env, argv[2], i, &v); napi_get_value_int32(env, v, &fds[i]); }
  char cbuf[CMSG_SPACE(8 * sizeof(int))];
  struct iovec iov = {data, len};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
  if (nfds > 0) {
    msg.msg_control = cbuf; msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
  }
  ssize_t n;
  do n = sendmsg(fd, &msg, MSG_NOSIGNAL); while (n < 0 && errno == EINTR);
  if (n < 0) return fail(env, strerror(errno));
  return NULL;
}
static napi_value Init(napi_env env, napi_value exports) {
  napi_value f;
  napi_create_function(env, "socketpair", NAPI_AUTO_LENGTH, Socketpair, NULL, &f); napi_set_named_property(env, exports, "socketpair", f);
  napi_create_function(env, "pipe", NAPI_AUTO_LENGTH, Pipe, NULL, &f); napi_set_named_property(env, exports, "pipe", f);
  napi_create_function(env, "send", NAPI_AUTO_LENGTH, Send, NULL, &f); napi_set_named_property(env, exports, "send", f);
  return exports;
}
NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)

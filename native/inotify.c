// zotbox's one native module (issue 21 §9): three Linux system calls, so that
// the confinement's walk of the write scopes can learn from the kernel which
// directories changed (src/host/executors/confine/inotify.ts wraps it; events are
// read with fs.readSync on the descriptor and parsed there). Node's fs.watch
// cannot serve: it drops IN_Q_OVERFLOW, so a lost event would pass silently.
// Each function returns what the system call returned, or -errno: the caller
// decides; nothing here keeps state, allocates, or throws except on bad arguments.
#include <errno.h>
#include <limits.h>
#include <node_api.h>
#include <stdint.h>
#include <sys/inotify.h>

static napi_value number(napi_env env, int64_t value) {
  napi_value result;
  napi_create_int64(env, value, &result);
  return result;
}

static int int_argument(napi_env env, napi_value value, int32_t *out) {
  return napi_get_value_int32(env, value, out) == napi_ok;
}

/* init() -> a descriptor (non-blocking, close-on-exec), or -errno. */
static napi_value init(napi_env env, napi_callback_info info) {
  (void)info;
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  return number(env, fd < 0 ? -errno : fd);
}

/* addWatch(fd, path, mask) -> a watch descriptor, or -errno (ENOSPC: the user's watch limit). */
static napi_value add_watch(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t fd, mask;
  char path[PATH_MAX];
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3 || !int_argument(env, argv[0], &fd) || !int_argument(env, argv[2], &mask) ||
      napi_get_value_string_utf8(env, argv[1], path, sizeof path, &length) != napi_ok || length >= sizeof path - 1) {
    napi_throw_type_error(env, NULL, "addWatch(fd, path, mask): a descriptor, a path shorter than PATH_MAX and a mask");
    return NULL;
  }
  int wd = inotify_add_watch(fd, path, (uint32_t)mask);
  return number(env, wd < 0 ? -errno : wd);
}

/* removeWatch(fd, wd) -> 0, or -errno. */
static napi_value remove_watch(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd, wd;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 2 || !int_argument(env, argv[0], &fd) || !int_argument(env, argv[1], &wd)) {
    napi_throw_type_error(env, NULL, "removeWatch(fd, wd): two integers");
    return NULL;
  }
  return number(env, inotify_rm_watch(fd, wd) < 0 ? -errno : 0);
}

static napi_value module_init(napi_env env, napi_value exports) {
  napi_property_descriptor functions[] = {
      {"init", NULL, init, NULL, NULL, NULL, napi_enumerable, NULL},
      {"addWatch", NULL, add_watch, NULL, NULL, NULL, napi_enumerable, NULL},
      {"removeWatch", NULL, remove_watch, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, module_init)

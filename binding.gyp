{
  "targets": [
    {
      "target_name": "zotbox_inotify",
      "sources": ["native/inotify.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    },
    {
      "target_name": "zotbox_fd_passing",
      "sources": ["native/fd-passing.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    },
    {
      "target_name": "zotbox_warm_init",
      "type": "executable",
      "sources": ["native/warm-init.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror", "-O2"]
    }
  ]
}

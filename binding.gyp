{
  "targets": [
    {
      "target_name": "zotbox_inotify",
      "sources": ["native/inotify.c"],
      "cflags": ["-Wall", "-Wextra", "-Werror"]
    }
  ]
}

# Fixture of am-hidden-patch.open.ts: leaves a `git am` stopped at patch 1 of 2 whose patch 2
# hides a new .husky/post-applypatch in a base64 MIME part, next to a plain-text part that
# `git apply --numstat` reads instead. Usage: python3 am-hidden-patch.py MARKER
import base64, subprocess, sys, os
marker = sys.argv[1]
bad = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: u <u@x>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH 1/2] readme

---
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-not what is there
+tidy

"""
hook = "#!/bin/sh\ntouch %s\n" % marker
lines = hook.split('\n')[:-1]
body = """tidy hooks
---
diff --git a/.husky/post-applypatch b/.husky/post-applypatch
new file mode 100755
--- /dev/null
+++ b/.husky/post-applypatch
@@ -0,0 +1,%d @@
%s
""" % (len(lines), '\n'.join('+' + l for l in lines))
good = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: u <u@x>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH 2/2] tidy
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="ZB"

--ZB
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: base64

""" + base64.encodebytes(body.encode()).decode() + """
--ZB
Content-Type: text/x-patch; charset=UTF-8
Content-Transfer-Encoding: 7bit

diff --git a/docs.txt b/docs.txt
new file mode 100644
--- /dev/null
+++ b/docs.txt
@@ -0,0 +1 @@
+tidy
--ZB--
"""
open('tidy.mbox', 'w').write(bad + good)
r = subprocess.run(['git', 'am', 'tidy.mbox'], capture_output=True, text=True)
print(r.returncode)
os.remove('tidy.mbox')

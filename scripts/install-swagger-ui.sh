#!/usr/bin/env bash
# Installs Swagger UI's distribution (the files the gateway serves at /docs) into
# .tools/swagger-ui (git-ignored), once per version. Prints nothing when it is already there.
#
# Swagger UI comes from PyPI, pinned: drf-spectacular-sidecar ships swagger-ui-dist's files as
# they are published on npm (its 2026.10.1 carries Swagger UI 5.33.1, which renders OpenAPI
# 3.1). Only its static files are used; nothing of Django is installed.
#   scripts/install-swagger-ui.sh && gateway ... --docs-folder .tools/swagger-ui
set -euo pipefail
cd "$(dirname "$0")/.."

package=drf-spectacular-sidecar==2026.10.1
folder=.tools/swagger-ui
stamp=$folder/.installed-from
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$package" ]; then
  exit 0
fi
echo "Installing Swagger UI ($package) into $folder"
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$download" "$package"
python3 - "$download" "$folder" <<'PY'
import pathlib, shutil, sys, zipfile
download, folder = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wheel = next(download.glob("*.whl"))
prefix = "drf_spectacular_sidecar/static/drf_spectacular_sidecar/swagger-ui-dist/"
shutil.rmtree(folder, ignore_errors=True)
folder.mkdir(parents=True)
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if name.startswith(prefix) and not name.endswith("/") and not name.endswith(".map"):
            (folder / name[len(prefix):]).write_bytes(archive.read(name))
PY
echo "$package" >"$stamp"

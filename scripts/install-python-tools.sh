#!/usr/bin/env bash
# Installs the pinned Python tools of deploy/python-tools.txt into .tools/venv (git-ignored),
# once per change of that file. Prints nothing when they are already there.
#   scripts/install-python-tools.sh && .tools/venv/bin/check-jsonschema --version
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.tools/venv
requirements=deploy/python-tools.txt
stamp=$venv/.installed-from
if [ -f "$stamp" ] && cmp -s "$stamp" "$requirements"; then
  exit 0
fi
echo "Installing Python tools ($requirements) into $venv"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"

#!/usr/bin/env bash
# Renders the web app's icon (clients/web/icon.svg) as the PNGs its manifest names for phones'
# home screens (192 and 512 pixels), with Debian's headless Chromium. Run it after changing the
# SVG and commit the PNGs.
set -euo pipefail
cd "$(dirname "$0")/../.."
for size in 192 512; do
  chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
    --window-size="$size,$size" --screenshot="clients/web/icons/icon-$size.png" "file://$PWD/clients/web/icon.svg" 2>/dev/null
done

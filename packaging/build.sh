#!/usr/bin/env bash
# Build a standalone folder of the app with PyInstaller into dist/campaign1813/.
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install --quiet "pyinstaller>=6.0" ..
pyinstaller --noconfirm --distpath ../dist --workpath ../build campaign1813.spec
echo "built ../dist/campaign1813/"

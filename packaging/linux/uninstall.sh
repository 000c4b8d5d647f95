#!/bin/sh
# Take away what install.sh installed. Campaigns, settings and the error log are the user's and
# stay (~/.local/share/campaign1813, ~/.config/campaign1813, ~/.local/state/campaign1813).
# Usage: PREFIX/lib/campaign1813/uninstall.sh  (or ./uninstall.sh PREFIX from the unpacked folder)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
  case $1 in /*) prefix=$1 ;; *) prefix=$(pwd)/$1 ;; esac
  home=$prefix/lib/campaign1813
else
  home=$here
  prefix=$(dirname "$(dirname "$home")")
fi
list=$home/installed-files
if [ ! -f "$list" ]; then
  echo "uninstall.sh: $home holds no installed copy (no $list)" >&2
  exit 1
fi
while read -r file; do
  rm -f "$file"
done < "$list"
rm -rf "$home"
if command -v update-mime-database >/dev/null && [ -d "$prefix/share/mime/packages" ]; then
  update-mime-database "$prefix/share/mime"
fi
if command -v update-desktop-database >/dev/null && [ -d "$prefix/share/applications" ]; then
  update-desktop-database -q "$prefix/share/applications" || true
fi
echo "removed the 1813 Campaign Umpire from $prefix"

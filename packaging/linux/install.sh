#!/bin/sh
# Install the 1813 Campaign Umpire from this folder: for you alone (into ~/.local, the default)
# or, run as root with PREFIX=/usr/local, for everyone. Usage: ./install.sh [PREFIX]
#   PREFIX/lib/campaign1813/          this folder, the programs and their libraries
#   PREFIX/bin/campaign1813, campaign1813-gui      links to the programs
#   PREFIX/share/...                  the menu entry, icons, the .c1813 file type, metainfo
# ./uninstall.sh (also kept in PREFIX/lib/campaign1813/) takes all of it away again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${PREFIX:-$HOME/.local}}
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
home=$prefix/lib/campaign1813
if [ "$here" != "$home" ]; then
  rm -rf "$home.new"
  mkdir -p "$prefix/lib"
  cp -R "$here" "$home.new"
  rm -rf "$home"
  mv "$home.new" "$home"
fi
list=$home/installed-files
: > "$list"
mkdir -p "$prefix/bin"
for program in campaign1813 campaign1813-gui; do
  ln -sf "$home/$program" "$prefix/bin/$program"
  echo "$prefix/bin/$program" >> "$list"
done
# the desktop's files, the menu entry pointing at the installed window program
(cd "$home/share" && find . -type f) | while read -r file; do
  file=${file#./}
  mkdir -p "$(dirname "$prefix/share/$file")"
  case $file in
    applications/*.desktop)
      sed -e "s|^Exec=.*|Exec=\"$home/campaign1813-gui\" %f|" \
          -e "s|^TryExec=.*|TryExec=$home/campaign1813-gui|" \
          "$home/share/$file" > "$prefix/share/$file" ;;
    *) cp "$home/share/$file" "$prefix/share/$file" ;;
  esac
  echo "$prefix/share/$file" >> "$list"
done
# the desktop's caches, where its tools are installed
if command -v update-mime-database >/dev/null; then
  update-mime-database "$prefix/share/mime"
fi
if command -v update-desktop-database >/dev/null; then
  update-desktop-database -q "$prefix/share/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null && [ -f "$prefix/share/icons/hicolor/index.theme" ]; then
  gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" || true
fi
echo "installed in $home; the programs are $prefix/bin/campaign1813 and $prefix/bin/campaign1813-gui"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "($prefix/bin is not on your PATH)" ;; esac

"""Use a built bundle as a user would, with a fresh profile (``make bundle-check``).

Usage: python packaging/check_bundle.py dist/campaign1813

Run by the project's virtual environment (``make bundle-check``), whose packages read what the
bundle writes. Each check prints ``ok`` or ``FAIL`` with the reason; the last line counts them,
and the exit status is 1 if any failed:

- the programs: both there, and the command line says its version;
- the contents: every module of the package is in each program (but those left out on
  purpose, ``campaign1813.bundle.LEFT_OUT``), and every file the application reads from its
  package is in the folder;
- the window's first start, offscreen, on a fresh profile: it makes the 1813 campaign in the
  data folder and opens it, and no ``errors.log`` is written;
- the command line: new, order, end-day, status, export oob --pdf (read back), export setup
  --svg, autoresolve;
- an older campaign (the version-1 file of ``tests/fixtures``), from the command line (its diary
  word for word) and given to the window on its command line: upgraded either way;
- the desktop: on Linux install.sh into a scratch folder, the menu entry, file type and icons
  there, then uninstall.sh; on macOS the .app's Info.plist;
- the keyring: the bundled command line's hidden ``--keyring-backend`` diagnostic beside the same
  from the virtual environment: keyring's backends (found through its package's entry points,
  which a bundle must carry) all there and loaded, and the backend in use the system's; where
  the machine has no system keyring (the fail backend in the virtual environment too), it says
  so and checks the backends are bundled all the same;
- the start of the window from the bundle beside the same from the virtual environment (the
  time until the window is shown, wall and CPU, runs taken in turn), and the folder's size.
"""

from __future__ import annotations

import json
import os
import plistlib
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from PyInstaller.archive.readers import CArchiveReader
from pypdf import PdfReader

from campaign1813 import __version__
from campaign1813.bundle import APP_ID, LEFT_OUT, PROGRAMS, data_folders
from campaign1813.campaign.store.version import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "fixtures" / "golden-v1.c1813"
GOLDEN_DIARY = ROOT / "tests" / "fixtures" / "golden-v1.diary.txt"
NAME = "campaign1813"
WINDOWS, MACOS = sys.platform == "win32", sys.platform == "darwin"
LINUX = not (WINDOWS or MACOS)
TIMEOUT = 240          # seconds a program may take before it counts as hung
TIMED_RUNS = 5         # runs of each window, taken in turn
SHOWN = "window shown after "


class CheckFailed(Exception):
    """A check that did not pass, with what was seen."""


def program(bundle: Path, name: str) -> Path:
    """A program of the bundle."""
    return bundle / (f"{name}.exe" if WINDOWS else name)


def run(command: list[str | Path], env: dict[str, str], cwd: Path | None = None,
        ok: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a program to its end; with ``ok``, a non-zero status is a failure."""
    done = subprocess.run([str(c) for c in command], env=env, cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=TIMEOUT)
    if ok and done.returncode != 0:
        raise CheckFailed(f"{' '.join(map(str, command))} ended with status {done.returncode}:"
                          f"\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done


def fresh_profile(home: Path) -> dict[str, str]:
    """The environment of a user who never ran the application: a new home and data, config,
    state and cache folders (on Windows the user's known folders stay the runner's own)."""
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env.pop(name, None)
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"),
               XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
               XDG_CACHE_HOME=str(home / "cache"), QT_QPA_PLATFORM="offscreen")
    env.pop("CAMPAIGN1813_DEBUG", None)
    return env


def user_folders(env: dict[str, str]) -> tuple[Path, Path]:
    """The default campaign and the error log's folder, as the application finds them in this
    environment (the application's own functions, asked with its variables)."""
    code = ("from campaign1813.ui.app import default_campaign_path, error_log_dir\n"
            "print(default_campaign_path()); print(error_log_dir())")
    lines = run([sys.executable, "-c", code], env).stdout.splitlines()
    return Path(lines[0]), Path(lines[1])


def schema_version(path: Path) -> int:
    """The schema version a campaign file says it has."""
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT schema_version FROM document").fetchone()[0])
    finally:
        con.close()


def no_error_log(log_dir: Path) -> None:
    """No error was written to the user's error log."""
    log = log_dir / "errors.log"
    if log.exists():
        raise CheckFailed(f"{log} was written:\n{log.read_text(encoding='utf-8')[-3000:]}")


# -- the checks -----------------------------------------------------------------------------

def check_programs(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """Both programs are there; the command line says its version."""
    for each in PROGRAMS:
        if not program(bundle, each.name).is_file():
            raise CheckFailed(f"no program {program(bundle, each.name)}")
    said = run([program(bundle, "campaign1813"), "--version"], env).stdout.strip()
    if said != f"campaign1813 {__version__}":
        raise CheckFailed(f"campaign1813 --version said {said!r}")
    return said


def package_modules() -> set[str]:
    """Every module of the package's source, by name."""
    found = set()
    for path in (ROOT / "campaign1813").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def check_contents(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """Each program carries every module of the package, but those left out on purpose and the
    scripts read as files; the files read from the package are in the folder."""
    internal = bundle / "_internal"
    files_folders = [f for f in data_folders() if f.python_too]
    as_files = {m for m in package_modules() for f in files_folders
                if (m + ".").startswith(f"{f.package}.{f.folder}.")}
    wanted = {m for m in package_modules() - as_files
              if not any((m + ".").startswith(left + ".") for left in LEFT_OUT)}
    for each in PROGRAMS:
        archive = CArchiveReader(str(program(bundle, each.name)))
        pyz = next(name for name, entry in archive.toc.items() if name.endswith(".pyz"))
        carried = set(archive.open_embedded_archive(pyz).toc)
        missing = sorted(wanted - carried)
        if missing:
            raise CheckFailed(f"{each.name} lacks {len(missing)} modules: {', '.join(missing)}")
    missing_files = []
    for folder in data_folders():
        source = ROOT.joinpath(*folder.package.split("."), folder.folder)
        for path in source.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" and not folder.python_too:
                continue
            if not (internal / path.relative_to(ROOT)).is_file():
                missing_files.append(str(path.relative_to(ROOT)))
    if missing_files:
        raise CheckFailed(f"files not in the bundle: {', '.join(sorted(missing_files))}")
    return f"{len(wanted)} modules in each program; every data file and migration"


def check_first_start(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """The window's first start makes the 1813 campaign in the data folder and opens it."""
    default, log_dir = user_folders(env)
    if default.exists():
        raise CheckFailed(f"{default} is there before the first start")
    done = run([program(bundle, "campaign1813-gui"), "--quit-after-start"], env)
    no_error_log(log_dir)
    if "Traceback" in done.stderr:
        raise CheckFailed(f"the window wrote a traceback:\n{done.stderr[-3000:]}")
    if not default.is_file():
        raise CheckFailed(f"the first start made no campaign at {default}")
    info = run([program(bundle, "campaign1813"), "info", default], env).stdout
    if "The 1813 Campaign" not in info:
        raise CheckFailed(f"campaign1813 info on the first campaign said:\n{info}")
    return f"made and opened {default}"


def check_command_line(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """A campaign from the command line: orders, a day, a battle, its papers, its result."""
    cli = program(bundle, "campaign1813")
    folder = scratch / "cli"
    folder.mkdir()

    def say(*words: str) -> str:
        return run([cli, *words], env, cwd=folder).stdout

    say("new", "spring.c1813", "--name", "Spring 1813", "--start", "1813-05-01")
    say("order", "spring.c1813", "Vistula Polish Corps", "Attack", "Olot")
    say("order", "spring.c1813", "4 Spanish Corps", "Attack", "Gerona")
    day = say("end-day", "spring.c1813")
    if "Battle: the battle of Gerona" not in day:
        raise CheckFailed(f"end-day scheduled no battle at Gerona:\n{day}")
    status = say("status", "spring.c1813")
    if "Vistula Polish Corps" not in status or "Magdeburg" not in status:
        raise CheckFailed(f"status does not show the campaign:\n{status[:2000]}")
    say("export", "oob", "spring.c1813", "--army", "Second French Army", "--pdf", "davout.pdf")
    pages = PdfReader(folder / "davout.pdf").pages
    text = " ".join(" ".join(page.extract_text().split()) for page in pages)
    if "Davout" not in text or "5 Corps" not in text:
        raise CheckFailed(f"davout.pdf does not read as Davout's orders of battle:\n{text[:800]}")
    say("export", "setup", "spring.c1813", "--battle", "1", "--svg", "gerona.svg")
    if not ET.parse(folder / "gerona.svg").getroot().tag.endswith("svg"):
        raise CheckFailed("gerona.svg is not an SVG")
    say("autoresolve", "spring.c1813", "1", "--seed", "7")
    battles = say("battles", "spring.c1813")
    if "to be fought" in battles:
        raise CheckFailed(f"the battle is still to be fought after autoresolve:\n{battles}")
    return (f"a day, a battle at Gerona auto-resolved; davout.pdf ({len(pages)} "
            f"page{'' if len(pages) == 1 else 's'}) reads back")


def check_old_file_cli(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """A version-1 campaign opens from the command line upgraded, its diary word for word."""
    old = scratch / "old-cli.c1813"
    shutil.copy(GOLDEN, old)
    diary = run([program(bundle, "campaign1813"), "diary", old], env).stdout
    if diary != GOLDEN_DIARY.read_text(encoding="utf-8"):
        raise CheckFailed("the diary of the version-1 file is not the one it had")
    if schema_version(old) != SCHEMA_VERSION:
        raise CheckFailed(f"the file is at version {schema_version(old)}, not {SCHEMA_VERSION}")
    return f"version 1 → {SCHEMA_VERSION}, the diary as it was"


def check_old_file_window(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """A version-1 campaign named on the window's command line opens upgraded."""
    _default, log_dir = user_folders(env)
    old = scratch / "old-window.c1813"
    shutil.copy(GOLDEN, old)
    run([program(bundle, "campaign1813-gui"), "--quit-after-start", old], env)
    no_error_log(log_dir)
    if schema_version(old) != SCHEMA_VERSION:
        raise CheckFailed(f"the file is at version {schema_version(old)}, not {SCHEMA_VERSION}")
    return f"version 1 → {SCHEMA_VERSION} in the window"


def check_linux_desktop(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """install.sh into a scratch prefix: programs, menu entry, file type, icons; then
    uninstall.sh leaves nothing of them."""
    prefix = scratch / "prefix"
    run(["sh", bundle / "install.sh", prefix], env)
    home = prefix / "lib" / "campaign1813"
    said = run([prefix / "bin" / "campaign1813", "--version"], env).stdout.strip()
    if said != f"campaign1813 {__version__}":
        raise CheckFailed(f"the installed campaign1813 --version said {said!r}")
    desktop = prefix / "share" / "applications" / f"{APP_ID}.desktop"
    execs = [line for line in desktop.read_text(encoding="utf-8").splitlines()
             if line.startswith("Exec=")]
    if execs != [f'Exec="{home}/campaign1813-gui" %f'] or not (home / "campaign1813-gui").is_file():
        raise CheckFailed(f"the menu entry runs {execs}, not the installed window")
    for size in (16, 32, 256):
        icon = prefix / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
        if not icon.is_file():
            raise CheckFailed(f"no icon {icon}")
    said_more = []
    if shutil.which("update-mime-database"):
        globs = (prefix / "share" / "mime" / "globs2").read_text(encoding="utf-8")
        if "application/x-campaign1813:*.c1813" not in globs:
            raise CheckFailed("update-mime-database did not take *.c1813 as a campaign")
        said_more.append("the file type registered")
    for tool, args in (("desktop-file-validate", [desktop]),
                       ("appstreamcli", ["validate", "--no-net", "--pedantic",
                                         prefix / "share" / "metainfo" /
                                         f"{APP_ID}.metainfo.xml"])):
        if shutil.which(tool):
            run([tool, *args], env)
            said_more.append(f"{tool} passes")
    run([home / "uninstall.sh"], env)
    left = sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*")
                  if p.is_file() and "campaign1813" in p.name)
    if home.exists() or (prefix / "bin" / "campaign1813").exists() or left:
        raise CheckFailed(f"uninstall.sh left {left or home}")
    return "installed, run, uninstalled; " + ", ".join(said_more or ["no desktop tools here"])


def check_macos_app(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """The .app names the window as its program and opens .c1813 files."""
    app = bundle.parent / "1813 Campaign Umpire.app"
    info = plistlib.loads((app / "Contents" / "Info.plist").read_bytes())
    if not (app / "Contents" / "MacOS" / info["CFBundleExecutable"]).is_file():
        raise CheckFailed(f"{app} has no program {info['CFBundleExecutable']}")
    types = info["UTExportedTypeDeclarations"][0]["UTTypeTagSpecification"]
    if types["public.filename-extension"] != ["c1813"]:
        raise CheckFailed(f"{app} declares {types}")
    run([app / "Contents" / "MacOS" / "campaign1813", "--version"], env)
    return f"{app.name} runs {info['CFBundleExecutable']} and opens .c1813"


def timed_start(command: list[str | Path], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds from starting a window to its being shown (CPU as the program
    itself counts it, wall when its word arrives); for a program that cannot say it, the wall
    time to its end and no CPU time."""
    started = time.perf_counter()
    child = subprocess.Popen([str(c) for c in command], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    shown: tuple[float, float] | None = None
    for line in child.stdout:
        if line.startswith(SHOWN) and shown is None:
            shown = (time.perf_counter() - started, float(line[len(SHOWN):].split()[0]))
    if child.wait(TIMEOUT) != 0:
        raise CheckFailed(f"{' '.join(map(str, command))} ended with status {child.returncode}")
    if shown is None:  # a windowed program with no standard output: the time to its end
        return time.perf_counter() - started, float("nan")
    return shown


FAIL_BACKEND = "keyring.backends.fail.Keyring"  # keyring's stand-in where no backend is viable
KEYRING = ("import sys\nfrom campaign1813.ui.console import KEYRING_DIAGNOSTIC, main\n"
           "sys.exit(main([KEYRING_DIAGNOSTIC]))")


def check_keyring(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """keyring's backends are in the bundle and found (its entry points), and the bundle keeps
    a password where the virtual environment would: the system's keyring, if it has one."""
    bundled = json.loads(run([program(bundle, NAME), "--keyring-backend"], env).stdout)
    here = json.loads(run([sys.executable, "-c", KEYRING], env).stdout)
    if bundled["entry_points"] != here["entry_points"]:
        raise CheckFailed(f"the bundle's keyring finds the backends {bundled['entry_points']}, "
                          f"the virtual environment's {here['entry_points']}")
    if bundled["viable"] != here["viable"]:
        raise CheckFailed(f"the bundle's keyring can use {bundled['viable']}, the virtual "
                          f"environment's {here['viable']}")
    if bundled["in_use"] != here["in_use"]:
        raise CheckFailed(f"the bundle keeps passwords in {bundled['in_use']}, the virtual "
                          f"environment in {here['in_use']}")
    loaded = sorted(m.rsplit(".", 1)[-1] for m, said in bundled["entry_points"].items()
                    if said == "loaded")
    if "chainer" not in loaded:
        raise CheckFailed(f"the bundle's keyring has no chainer backend: {bundled}")
    if here["in_use"] == FAIL_BACKEND:
        return (f"no system keyring on this machine ({FAIL_BACKEND} in the virtual environment "
                f"too); the bundle carries and loads keyring's backends {', '.join(loaded)}")
    return f"passwords kept in {bundled['in_use']}, as from the virtual environment"


def check_start_times(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """The window from the bundle beside the window from the virtual environment, each opening
    the campaign of its first start, in turn."""
    starts = {
        "bundle": [program(bundle, "campaign1813-gui"), "--quit-after-start"],
        "venv": [sys.executable, "-m", "campaign1813.ui.app", "--quit-after-start"],
    }
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in starts}
    for _ in range(TIMED_RUNS):
        for name, command in starts.items():
            times[name].append(timed_start(command, env))
    median = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
              for k, v in times.items()}
    (bw, bc), (vw, vc) = median["bundle"], median["venv"]
    return (f"to a shown window, median of {TIMED_RUNS} each: bundle {bw:.2f} s wall, "
            f"{bc:.2f} s CPU; virtual environment {vw:.2f} s wall, {vc:.2f} s CPU; "
            f"bundle/venv {bw / vw:.2f}× wall, {bc / vc:.2f}× CPU")


def check_size(bundle: Path, env: dict[str, str], scratch: Path) -> str:
    """The folder's size on disk (files counted once)."""
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink()]
    size = sum(p.stat().st_size for p in files)
    return f"{bundle.name}/: {size / 2**20:.0f} MiB in {len(files)} files"


def checks() -> list[Callable[[Path, dict[str, str], Path], str]]:
    """The checks for this platform, in order."""
    found = [check_programs, check_contents, check_first_start, check_command_line,
             check_old_file_cli, check_old_file_window]
    if LINUX:
        found.append(check_linux_desktop)
    if MACOS:
        found.append(check_macos_app)
    return [*found, check_keyring, check_start_times, check_size]


def main(argv: list[str]) -> int:
    """Run every check on the bundle folder named in ``argv``; 1 if any failed."""
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bundle = Path(argv[0]).resolve()
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="campaign1813-check-") as folder:
        scratch = Path(folder)
        env = fresh_profile(scratch / "home")
        for check in checks():
            name = check.__name__.removeprefix("check_").replace("_", " ")
            began = time.perf_counter()
            try:
                said = check(bundle, env, scratch)
            except (CheckFailed, subprocess.TimeoutExpired, OSError, KeyError) as exc:
                failed += 1
                print(f"FAIL {name}: {exc}", flush=True)
            else:
                passed += 1
                print(f"ok   {name} ({time.perf_counter() - began:.1f} s): {said}", flush=True)
    print(f"bundle-check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The check before the window opens: Qt's xcb plugin's missing libraries named in one line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from reader import platform_check
from reader.cli import main
from reader.platform_check import check, missing_libraries, missing_message, package_for

# verbatim from `ldd libqxcb.so libQt6XcbQpa.so.6` on a Debian 12 lacking two packages
LDD_OUTPUT = """\
/v/Qt/plugins/platforms/libqxcb.so:
\tlinux-vdso.so.1 (0x00007f217f7a8000)
\tlibQt6XcbQpa.so.6 => /v/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f217f6da000)
\tlibGL.so.1 => /lib/x86_64-linux-gnu/libGL.so.1 (0x00007f217f64a000)
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007f217f5f7000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f217f5f0000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f217f5e8000)
\tlibxcb-keysyms.so.1 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f217d81e000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f217f7aa000)
/v/Qt/lib/libQt6XcbQpa.so.6:
\tlinux-vdso.so.1 (0x00007fb48debe000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007fb48dde6000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
"""

EXPECTED = (
    "paper-reader: the window needs system libraries that are missing: "
    "libxcb-icccm.so.4, libxcb-keysyms.so.1. "
    "Install them with: sudo apt-get install libxcb-icccm4 libxcb-keysyms1"
)

X11 = {"DISPLAY": ":0"}


def never_called(files):
    raise AssertionError(f"ldd was run on {files}")


@pytest.fixture
def qt_tree(tmp_path: Path) -> Path:
    """A Qt folder laid out as PySide6's wheel has it, with empty files."""
    qt = tmp_path / "Qt"
    (qt / "plugins" / "platforms").mkdir(parents=True)
    (qt / "lib").mkdir()
    (qt / "plugins" / "platforms" / "libqxcb.so").write_bytes(b"")
    (qt / "lib" / "libQt6XcbQpa.so.6").write_bytes(b"")
    return qt


@pytest.fixture
def with_apt(monkeypatch):
    real_which = shutil.which
    monkeypatch.setattr(
        shutil,
        "which",
        lambda name, *a, **k: (
            "/usr/bin/apt-get" if name == "apt-get" else real_which(name, *a, **k)
        ),
    )


def real_plugin() -> Path:
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file() or shutil.which("ldd") is None:
        pytest.skip("needs ldd and PySide6's bundled xcb plugin")
    return plugin


def test_qt_folder_is_pyside6_s_bundled_qt():
    assert platform_check.qt_folder() == real_plugin().parents[2]


# -- reading ldd -------------------------------------------------------------------


def test_missing_libraries_are_read_from_ldd_output_once_each_in_order():
    assert missing_libraries(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_found_libraries_and_loader_lines_are_not_missing():
    text = "\tlibfoo.so.1 => /lib/libfoo.so.1 (0x1)\n\tlinux-vdso.so.1 (0x2)\n\tstatically linked\n"
    assert missing_libraries(text) == []
    assert missing_libraries("") == []


def test_the_check_turns_ldd_output_into_the_one_line(qt_tree, with_apt):
    seen: list[list[Path]] = []

    def runner(files):
        seen.append(list(files))
        return LDD_OUTPUT

    assert check(X11, "linux", qt_tree, runner) == EXPECTED
    assert seen == [[qt_tree / "plugins/platforms/libqxcb.so", qt_tree / "lib/libQt6XcbQpa.so.6"]]


def test_nothing_missing_is_no_problem(qt_tree):
    found = "\n".join(line for line in LDD_OUTPUT.splitlines() if "not found" not in line)
    assert check(X11, "linux", qt_tree, lambda files: found) is None


def test_real_ldd_reports_what_a_moved_plugin_cannot_find(tmp_path, qt_tree, with_apt):
    """A copy of the plugin outside PySide6 loses Qt's own libraries (found through
    $ORIGIN): the real ldd says "not found" for them, and the check names them."""
    plugin = real_plugin()
    shutil.copy(plugin, qt_tree / "plugins/platforms/libqxcb.so")
    (qt_tree / "lib" / "libQt6XcbQpa.so.6").unlink()  # only the plugin is looked at
    output = platform_check.run_ldd([qt_tree / "plugins/platforms/libqxcb.so"])
    assert output is not None
    assert {"libQt6XcbQpa.so.6", "libQt6Gui.so.6", "libQt6Core.so.6"} <= set(
        missing_libraries(output)
    )
    message = check(X11, "linux", qt_tree)
    assert message is not None
    assert message.startswith("paper-reader: the window needs system libraries that are missing: ")
    assert "libQt6XcbQpa.so.6" in message and "\n" not in message
    assert "find the package of" in message.lower()


def test_on_this_machine_the_check_is_none_or_one_well_formed_line():
    plugin = real_plugin()
    qt = plugin.parents[2]
    message = check(X11, "linux")
    truth = missing_libraries(
        subprocess.run(
            ["ldd", str(plugin), *map(str, sorted((qt / "lib").glob("libQt6XcbQpa.so*"))[:1])],
            capture_output=True,
            text=True,
        ).stdout
    )
    if not truth:
        assert message is None
        return
    assert message is not None and "\n" not in message
    match = re.fullmatch(
        r"paper-reader: the window needs system libraries that are missing: (.+?)\. (.*)", message
    )
    assert match, message
    assert match.group(1).split(", ") == truth
    assert all(package_for(s) in match.group(2) for s in truth if s in platform_check.PACKAGES)


# -- when ldd cannot tell ----------------------------------------------------------


def fake_ldd(tmp_path: Path, monkeypatch, script: str) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ldd").write_text(f"#!/bin/sh\n{script}\n")
    (bin_dir / "ldd").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))


def test_no_ldd_is_no_problem(qt_tree, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert platform_check.run_ldd([qt_tree / "lib/libQt6XcbQpa.so.6"]) is None
    assert check(X11, "linux", qt_tree) is None


def test_a_failing_ldd_is_no_problem(qt_tree, tmp_path, monkeypatch):
    fake_ldd(tmp_path, monkeypatch, "echo '\tlibxcb-icccm.so.4 => not found'; exit 1")
    assert check(X11, "linux", qt_tree) is None


def test_a_hanging_ldd_is_given_up(qt_tree, tmp_path, monkeypatch):
    fake_ldd(tmp_path, monkeypatch, "exec /bin/sleep 30")
    monkeypatch.setattr(platform_check, "LDD_TIMEOUT", 0.3)
    started = time.monotonic()
    assert check(X11, "linux", qt_tree) is None
    assert time.monotonic() - started < 10


def test_the_fake_ldd_is_really_used(qt_tree, tmp_path, monkeypatch, with_apt):
    """The two tests above prove something: the same fake, exiting 0, is believed."""
    fake_ldd(tmp_path, monkeypatch, "echo '\tlibxcb-icccm.so.4 => not found'")
    assert check(X11, "linux", qt_tree) == (
        "paper-reader: the window needs system libraries that are missing: "
        "libxcb-icccm.so.4. Install them with: sudo apt-get install libxcb-icccm4"
    )


def test_a_pyside6_without_the_bundled_plugin_is_not_checked(tmp_path):
    assert check(X11, "linux", tmp_path / "Qt", never_called) is None


# -- packages ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libxcb-xinerama.so.0", "libxcb-xinerama0"),
        ("libxcb-randr.so.0", "libxcb-randr0"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libxcb-image.so.0", "libxcb-image0"),
        ("libxcb-shape.so.0", "libxcb-shape0"),
        ("libxcb-xkb.so.1", "libxcb-xkb1"),
        ("libxcb-xfixes.so.0", "libxcb-xfixes0"),
        ("libEGL.so.1", "libegl1"),
        ("libGL.so.1", "libgl1"),
        ("libfontconfig.so.1", "libfontconfig1"),
        ("libdbus-1.so.3", "libdbus-1-3"),
        ("libgthread-2.0.so.0", "libglib2.0-0"),
        ("libsomething-new.so.7", "libsomething-new.so.7"),
    ],
)
def test_package_for(soname, package):
    assert package_for(soname) == package


def test_one_package_for_two_of_its_libraries_is_named_once():
    line = missing_message(["libglib-2.0.so.0", "libgthread-2.0.so.0"])
    assert line.endswith("sudo apt-get install libglib2.0-0")


def test_an_unknown_library_is_named_but_never_passed_to_apt_get():
    line = missing_message(["libxcb-icccm.so.4", "libsomething-new.so.7"])
    assert line == (
        "paper-reader: the window needs system libraries that are missing: "
        "libxcb-icccm.so.4, libsomething-new.so.7. Install them with: sudo apt-get install "
        "libxcb-icccm4; find the package of libsomething-new.so.7 with apt-file search"
    )
    only = missing_message(["libsomething-new.so.7"])
    assert "apt-get install" not in only
    assert only.endswith(". Find the package of libsomething-new.so.7 with apt-file search")


def test_without_apt_get_the_packages_are_named_as_debian_s(qt_tree, monkeypatch):
    line = missing_message(["libxcb-icccm.so.4"], has_apt=False)
    assert "sudo" not in line
    assert line.endswith("Install the packages that provide them (on Debian/Ubuntu: libxcb-icccm4)")
    real_which = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "apt-get" else real_which(name)
    )
    assert check(X11, "linux", qt_tree, lambda files: LDD_OUTPUT) == (
        "paper-reader: the window needs system libraries that are missing: "
        "libxcb-icccm.so.4, libxcb-keysyms.so.1. Install the packages that provide them "
        "(on Debian/Ubuntu: libxcb-icccm4 libxcb-keysyms1)"
    )


# -- when to check -----------------------------------------------------------------


@pytest.mark.parametrize(
    "env",
    [
        {"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "minimal"},
        {"QT_QPA_PLATFORM": "vnc:size=800x600"},
        # Qt tries Wayland first in a Wayland session, and needs no xcb there
        {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"},
        {"WAYLAND_DISPLAY": "wayland-0"},
        {"XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"},
        {"DISPLAY": ":0", "QT_QPA_PLATFORM_PLUGIN_PATH": "/opt/qt/plugins/platforms"},
    ],
)
def test_no_check_off_xcb(env, qt_tree):
    assert check(env, "linux", qt_tree, never_called) is None


@pytest.mark.parametrize("platform", ["darwin", "win32", "cygwin"])
def test_no_check_off_linux(platform, qt_tree):
    assert check({}, platform, qt_tree, never_called) is None
    assert check(X11, platform, qt_tree, never_called) is None


@pytest.mark.parametrize(
    "env",
    [
        X11,
        {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "xcb:nograb", "DISPLAY": ":1"},
        {"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"},
    ],
)
def test_xcb_is_checked(env, qt_tree, with_apt):
    assert check(env, "linux", qt_tree, lambda files: LDD_OUTPUT) == EXPECTED


def test_no_display_is_said_before_any_ldd(qt_tree):
    line = check({}, "linux", qt_tree, never_called)
    assert line is not None and "\n" not in line
    assert line.startswith("paper-reader: there is no display")
    assert "neither DISPLAY nor WAYLAND_DISPLAY is set" in line
    assert "QT_QPA_PLATFORM=offscreen" in line
    forced = check(
        {"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"}, "linux", qt_tree, never_called
    )
    assert forced is not None and "QT_QPA_PLATFORM=xcb needs DISPLAY" in forced


def test_the_module_does_not_import_qt():
    code = (
        "import sys, reader.platform_check as p; p.check(); "
        "print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"},
    ).stdout
    assert out.strip() == "[]"


# -- the command line --------------------------------------------------------------


@pytest.fixture
def fake_window(monkeypatch):
    """reader.ui.app replaced: `runs` lists each folder a window was opened on."""
    runs: list[Path] = []
    fake = types.ModuleType("reader.ui.app")
    fake.run = lambda folder, lang=None: runs.append(folder) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "reader.ui.app", fake)
    monkeypatch.setattr("reader.core.collector.hold", lambda: None)
    return runs


def test_a_problem_stops_the_window_with_one_line_and_exit_1(
    monkeypatch, fake_window, library_dir, capsys
):
    monkeypatch.setattr(platform_check, "check", lambda: "paper-reader: the window needs X")
    assert main(["--data-dir", str(library_dir)]) == 1
    out, err = capsys.readouterr()
    assert err == "paper-reader: the window needs X\n" and out == ""
    assert fake_window == []
    assert not library_dir.exists()


def test_no_problem_opens_the_window(monkeypatch, fake_window, library_dir, capsys):
    monkeypatch.setattr(platform_check, "check", lambda: None)
    assert main(["--data-dir", str(library_dir)]) == 0
    assert fake_window == [library_dir]
    assert capsys.readouterr().err == ""


def test_the_real_program_without_a_display_says_so_and_opens_nothing(library_dir):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE"}
    }
    code = (
        "import sys\nfrom reader.cli import main\nrc = main(sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'reader.ui'))))\n"
        "sys.exit(rc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--data-dir", str(library_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("paper-reader: there is no display")
    assert done.stderr.count("\n") == 1
    assert done.stdout.strip() == "[]"
    assert not library_dir.exists()
    via_module = subprocess.run(
        [sys.executable, "-m", "reader", "--data-dir", str(library_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert via_module.returncode == 1 and via_module.stderr == done.stderr

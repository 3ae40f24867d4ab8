"""numba's compiled kernels in a directory per version of the kernels' sources
(`strategy.kernel_cache`): any change of a module with kernels, or of the constants they read,
gives another directory (numba alone would load a kernel whose callee in another file changed);
processes started from this one use the same one."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from fivedice.strategy import kernel_cache as kc

PACKAGE = Path(kc.__file__).resolve().parent


def _imports_numba(tree: ast.Module) -> bool:
    return any(
        (isinstance(node, ast.ImportFrom) and node.module == "numba")
        or (isinstance(node, ast.Import) and any(a.name == "numba" for a in node.names))
        for node in tree.body
    )


def test_the_sources_are_every_module_with_kernels_and_every_constant_they_import() -> None:
    modules = {path: ast.parse(path.read_text()) for path in sorted(PACKAGE.rglob("*.py"))}
    with_kernels = {path for path, tree in modules.items() if _imports_numba(tree)}
    sources = set(kc.kernel_sources())
    assert with_kernels <= sources and {PACKAGE / "kernel.py", PACKAGE / "turn_cache.py"} <= sources
    # A constant a kernel module imports from another strategy module may be frozen into its
    # compiled code: that module's text must be hashed too.
    for path in with_kernels:
        for node in ast.walk(modules[path]):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "fivedice.strategy."
            ):
                constants = [alias.name for alias in node.names if alias.name.isupper()]
                source = PACKAGE.joinpath(*node.module.split(".")[2:]).with_suffix(".py")
                assert not constants or source in sources, (path.name, node.module, constants)


def test_a_change_of_any_kernel_source_gives_another_directory() -> None:
    usual = kc.kernel_hash()
    assert usual == kc.code_version() and usual == kc.kernel_hash()  # (stable)
    seen = {usual}
    for source in kc.kernel_sources():

        def edited(path: Path, source: Path = source) -> bytes:
            text = path.read_bytes()
            return text + b"\n# changed\n" if path == source else text

        changed = kc.kernel_hash(read=edited)
        assert changed not in seen, source.name
        seen.add(changed)
        assert kc.kernel_cache_dir({}, changed) != kc.kernel_cache_dir({}, usual)

    def other_module_edited(path: Path) -> bytes:  # a module without kernels
        text = path.read_bytes()
        return text + b"\n# changed\n" if path.name == "guide.py" else text

    assert kc.kernel_hash(read=other_module_edited) == usual


def test_the_directory_is_under_numba_cache_dir_or_the_user_cache(tmp_path: Path) -> None:
    digest = kc.code_version()
    name = f"fivedice-kernels-{digest}"
    assert kc.kernel_cache_dir({}).parent.name == "kernels"
    assert kc.kernel_cache_dir({}).name == name
    assert kc.kernel_cache_dir({"NUMBA_CACHE_DIR": str(tmp_path)}) == tmp_path / name
    # A process started by a fivedice process of other sources: the same root, its own hash.
    inherited = {"NUMBA_CACHE_DIR": str(tmp_path / "fivedice-kernels-0123456789abcdef")}
    assert kc.kernel_cache_dir(inherited) == tmp_path / name


def test_using_a_new_directory_prunes_the_old_unused_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = SimpleNamespace(CACHE_DIR="")  # numba's config, when numba is imported already
    monkeypatch.setitem(sys.modules, "numba.core.config", config)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    old, recent = (
        tmp_path / "fivedice-kernels-0000000000000000",
        tmp_path / "fivedice-kernels-1111111111111111",
    )
    unrelated = tmp_path / "something-else"
    for folder in (old, recent, unrelated):
        folder.mkdir()
    long_ago = time.time() - kc.PRUNE_AFTER_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(unrelated, (long_ago, long_ago))
    directory = kc.use_kernel_cache()
    assert directory == tmp_path / f"fivedice-kernels-{kc.code_version()}" and directory.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(directory) == config.CACHE_DIR
    assert not old.exists() and recent.exists() and unrelated.exists()
    # Used again (its child processes too): the same directory, nothing else touched.
    assert kc.use_kernel_cache() == directory and recent.exists()


@pytest.mark.processes
def test_a_process_importing_fivedice_compiles_its_kernels_into_that_directory(
    tmp_path: Path,
) -> None:
    script = (
        "import numba; from fivedice.strategy import kernel;"
        "kernel.upper_value_size(3);"  # a small kernel, compiled and saved
        "print(numba.config.CACHE_DIR)"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", script], env=environment, check=True, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    directory = tmp_path / f"fivedice-kernels-{kc.code_version()}"
    assert out.stdout.strip() == str(directory)
    assert list(directory.rglob("kernel.upper_value_size-*.nbi"))
    assert list(directory.rglob("kernel.upper_value_size-*.nbc"))

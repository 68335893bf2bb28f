"""``pip install clients/python`` as a user runs it, without any package index: the package's own build
backend (_build/backend.py) must build a wheel and an sdist from the standard library alone."""
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "_build"))
try:
    import backend
except ImportError:  # Python < 3.11 without tomli: pip would fetch it from an index, which these tests must not.
    backend = None

ENV = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def pip_install(source: str, target: str, *how: str) -> None:
    """pip with no index at all: any build requirement it had to fetch would fail the install."""
    cmd = [sys.executable, "-m", "pip", *how, "install", "--no-index", "--no-deps", *(("--target", target) if target else ()), source]
    done = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"pip install {source} failed:\n{done.stdout}\n{done.stderr}")


def installed(target: str, code: str, python: str = sys.executable) -> str:
    """Runs ``code`` in a fresh interpreter that sees only the installed copy (not this checkout)."""
    env = {**ENV, "PYTHONPATH": target}
    done = subprocess.run([python, "-c", code], env=env, cwd=target, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return done.stdout.strip()


CHECK = (
    "import importlib.metadata as m, pathlib, svc_client as s; "
    "print(pathlib.Path(s.__file__).parent.parent, m.version('svc-client'), "
    "pathlib.Path(s.__file__).with_name('py.typed').exists(), s.Svc.__name__, s.Budgets.__name__)"
)


@unittest.skipIf(backend is None, "reading pyproject.toml needs Python 3.11+ (tomllib) or tomli")
class Packaging(unittest.TestCase):
    def test_pip_installs_the_project_directory_offline(self):
        with tempfile.TemporaryDirectory() as tmp:
            pip_install(str(PROJECT), tmp)
            where, version, typed, *names = installed(tmp, CHECK).split()
            self.assertEqual(Path(where).resolve(), Path(tmp).resolve())
            self.assertEqual(version, backend._project()["version"])
            self.assertEqual((typed, names), ("True", ["Svc", "Budgets"]))

    def test_pip_install_e_uses_the_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
            python = os.path.join(venv, "bin", "python")
            pip_install("-e" + str(PROJECT), "", "--python", python)
            where, version, *_ = installed(tmp, CHECK, python).split()
            self.assertEqual(Path(where).resolve(), PROJECT)
            self.assertEqual(version, backend._project()["version"])

    def test_the_wheel_holds_the_package_and_a_consistent_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            name = backend.build_wheel(tmp)
            self.assertEqual(name, "svc_client-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(tmp, name)) as zf:
                names = set(zf.namelist())
                record = zf.read("svc_client-0.1.0.dist-info/RECORD").decode()
                metadata = zf.read("svc_client-0.1.0.dist-info/METADATA").decode()
            modules = {p.relative_to(PROJECT).as_posix() for p in (PROJECT / "svc_client").glob("*.py")}
            self.assertLessEqual(modules | {"svc_client/py.typed"}, names)
            self.assertFalse([n for n in names if "__pycache__" in n or n.startswith(("tests/", "_build/"))])
            self.assertEqual({line.split(",")[0] for line in record.splitlines()}, names)
            self.assertIn("Name: svc-client", metadata)
            self.assertIn("Requires-Python: >=3.8", metadata)
            self.assertNotIn("Requires-Dist", metadata)
            # The same sources give the same wheel, byte for byte.
            again = tempfile.mkdtemp(dir=tmp)
            backend.build_wheel(again)
            self.assertEqual(Path(tmp, name).read_bytes(), Path(again, name).read_bytes())

    def test_the_sdist_installs_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            name = backend.build_sdist(tmp)
            with tarfile.open(os.path.join(tmp, name)) as tf:
                members = set(tf.getnames())
            for f in ("pyproject.toml", "README.md", "PKG-INFO", "_build/backend.py", "svc_client/__init__.py", "svc_client/py.typed"):
                self.assertIn(f"svc_client-0.1.0/{f}", members)
            site = os.path.join(tmp, "site")
            pip_install(os.path.join(tmp, name), site)
            self.assertIn("0.1.0", installed(site, CHECK))


if __name__ == "__main__":
    unittest.main()

"""A PEP 517 build backend in the standard library, so ``pip install clients/python`` needs no download:
setuptools, the usual backend, is fetched from the package index into pip's isolated build environment,
which fails on a machine without one (and setuptools older than 70.1 also needs ``wheel``). It builds a
pure-Python wheel of ``svc_client`` and an sdist, with the metadata of pyproject.toml's [project] table.
"""
import base64
import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

try:
    import tomllib
except ImportError:  # Python < 3.11: pyproject.toml's [build-system] requires tomli there.
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "svc_client"
# The earliest time a zip entry can carry: the same sources give the same archive, byte for byte.
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name(project: dict) -> str:
    """The distribution name as file names spell it (PEP 427: runs of -_. become _)."""
    return project["name"].replace("-", "_").replace(".", "_")


def _metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"License: {project['license']['text']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    readme = (ROOT / project["readme"]).read_text(encoding="utf-8")
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + readme


def _package_files() -> List[Path]:
    """The package's modules and its py.typed marker (PEP 561), never compiled caches."""
    files = [p for p in (ROOT / PACKAGE).rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".typed")]
    return sorted(files)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def _write_dist_info(project: dict, directory: str) -> Tuple[str, Dict[str, bytes]]:
    dist_info = f"{_dist_name(project)}-{project['version']}.dist-info"
    files = {
        f"{dist_info}/METADATA": _metadata(project).encode("utf-8"),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: svc-client _build/backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist_info}/top_level.txt": f"{PACKAGE}\n".encode("ascii"),
    }
    if directory:
        for name, data in files.items():
            path = Path(directory) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    return dist_info, files


def _zip_entry(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, EPOCH)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


get_requires_for_build_editable = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    return _write_dist_info(_project(), metadata_directory)[0]


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def _wheel(wheel_directory: str, entries: Dict[str, bytes]) -> str:
    """A py3-none-any wheel of ``entries`` plus the dist-info and its RECORD."""
    project = _project()
    dist_info, meta_files = _write_dist_info(project, "")
    entries = {**entries, **meta_files}
    record_name = f"{dist_info}/RECORD"
    record = "\n".join([_record_line(n, d) for n, d in entries.items()] + [f"{record_name},,", ""])
    name = f"{_dist_name(project)}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as zf:
        for n, d in entries.items():
            _zip_entry(zf, n, d)
        _zip_entry(zf, record_name, record.encode("utf-8"))
    return name


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    return _wheel(wheel_directory, {p.relative_to(ROOT).as_posix(): p.read_bytes() for p in _package_files()})


def build_editable(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    """PEP 660 (``pip install -e``): a .pth file puts this checkout on sys.path, so edits take effect at once."""
    return _wheel(wheel_directory, {f"{PACKAGE}.pth": f"{ROOT}\n".encode("utf-8")})


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    sources = [ROOT / "pyproject.toml", ROOT / project["readme"], Path(__file__).resolve(), *_package_files()]
    sources += sorted(p for p in (ROOT / "tests").glob("*.py"))
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tf:

        def add(arcname: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{base}/{arcname}")
            info.size = len(data)
            info.mode = 0o644
            tf.addfile(info, io.BytesIO(data))

        for p in sources:
            add(p.relative_to(ROOT).as_posix(), p.read_bytes())
        add("PKG-INFO", _metadata(project).encode("utf-8"))
    return name

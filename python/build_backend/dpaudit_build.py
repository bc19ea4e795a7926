"""A PEP 517 build backend in the standard library only, for the dpaudit package.

pip builds a package in an isolated environment and installs its build requirements there first, from a package
index; with `requires = []` and this backend it needs none, so `pip install ./python` works offline. It writes a pure
Python wheel (PEP 427: the package's files, then METADATA, WHEEL and RECORD in the .dist-info directory, RECORD with
each file's SHA-256 in URL-safe base64 and its size), an editable wheel (PEP 660: a .pth file naming this directory)
and a source archive.
"""
import base64
import hashlib
import os
import tarfile
import zipfile

NAME = "dpaudit"
VERSION = "0.2.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "py3-none-any"
DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: Audit differential-privacy claims from Python "
            "with dp-audit: score arrays, scenarios, reports\nRequires-Python: >=3.8\n" % (NAME, VERSION))


def _wheel():
    return "Wheel-Version: 1.0\nGenerator: dpaudit_build\nRoot-Is-Purelib: true\nTag: %s\n" % TAG


def _package_files():
    root = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py"):
            yield os.path.join(NAME, name), os.path.join(root, name)


def _write_wheel(directory, entries):
    """entries: (archive name, bytes). Adds the dist-info files and RECORD; returns the wheel's file name."""
    entries = list(entries) + [(DIST_INFO + "/METADATA", _metadata().encode()),
                               (DIST_INFO + "/WHEEL", _wheel().encode())]
    record = []
    filename = "%s-%s-%s.whl" % (NAME, VERSION, TAG)
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in entries:
            z.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))
        record.append(DIST_INFO + "/RECORD,,")
        z.writestr(DIST_INFO + "/RECORD", "\n".join(record) + "\n")
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    path = os.path.join(metadata_directory, DIST_INFO)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "METADATA"), "w") as f:
        f.write(_metadata())
    with open(os.path.join(path, "WHEEL"), "w") as f:
        f.write(_wheel())
    return DIST_INFO


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = []
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            entries.append((arcname, f.read()))
    return _write_wheel(wheel_directory, entries)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [("%s.pth" % NAME, (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, VERSION)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as t:
        for name in ("pyproject.toml", "README.md", "build_backend", NAME):
            path = os.path.join(HERE, name)
            if os.path.exists(path):
                t.add(path, arcname=base + "/" + name,
                      filter=lambda info: None if "__pycache__" in info.name else info)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        import io
        t.addfile(info, io.BytesIO(data))
    return filename

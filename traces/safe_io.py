"""Reading user files and writing results for the scripts in traces/ (standard library only).

Every file a user names goes through here, so that each script answers right or refuses with
one line naming the path:

* `open_input` / `read_bytes` / `read_json` / `input_chunks` read **regular files only**: a
  FIFO, a device, a socket or a folder is refused by `os.stat` before opening, and the file is
  opened with O_NONBLOCK and checked again with `os.fstat` on the open descriptor, so that a
  FIFO swapped in between the two cannot block the reader. At most `cap + 1` bytes are read;
  a larger file is refused.
* `read_json` refuses what Python's json module would accept but a result cannot hold:
  NaN / Infinity literals, duplicate keys (which value would count?), invalid UTF-8, a
  byte-order mark and nesting deeper than the interpreter's recursion limit.
* `write_output` writes to a temporary file in the target's folder (tempfile.mkstemp), flushes
  and fsyncs it and renames it over the target, so that a reader sees the old file or the new
  one, never a part; on any error (a full disk, a file size limit, a read-only folder) the
  temporary file is removed, the old file is left as it was and `OutputError` says why. An
  existing target that is not a regular file (a folder, a device such as /dev/null, a FIFO, a
  socket, a symbolic link to one of those or to nothing) is refused before anything is written;
  a symbolic link to a regular file is followed (the file it names is replaced); a missing
  folder is created.
"""

import codecs
import json
import os
import stat
import tempfile

MIB = 1 << 20
# Caps for files that are read whole: profiles, layer tables, throughput tables.
JSON_CAP = 256 * MIB


class InputError(Exception):
    """A user file that cannot be read as asked; the message names the path."""


class OutputError(Exception):
    """An output that cannot be written; the message names the path."""


def describe_mode(mode):
    """What a file of this st_mode is, in words."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def open_input(path, what="input"):
    """A read-only descriptor of the regular file `path`; InputError otherwise, never blocks."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:
        raise InputError("%s: cannot read the %s: %s" % (path, what, _reason(e)))
    if not stat.S_ISREG(st.st_mode):
        raise InputError("%s: is %s (expected the %s as a regular file)"
                         % (path, describe_mode(st.st_mode), what))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise InputError("%s: cannot read the %s: %s" % (path, what, _reason(e)))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # replaced between stat and open
        os.close(fd)
        raise InputError("%s: is %s (expected the %s as a regular file)"
                         % (path, describe_mode(st.st_mode), what))
    return fd


def input_chunks(path, cap, what="input", chunk=4 * MIB):
    """Yield the bytes of the regular file `path` in chunks; InputError past `cap` bytes."""
    fd = open_input(path, what)
    total = 0
    try:
        if os.fstat(fd).st_size > cap:
            raise _too_large(path, what, cap)
        while True:
            try:
                data = os.read(fd, min(chunk, cap + 1 - total))
            except OSError as e:
                raise InputError("%s: cannot read the %s: %s" % (path, what, _reason(e)))
            if not data:
                return
            total += len(data)
            if total > cap:
                raise _too_large(path, what, cap)
            yield data
    finally:
        os.close(fd)


def _too_large(path, what, cap):
    return InputError("%s: the %s is larger than %d MiB (the limit)" % (path, what, cap // MIB))


def read_bytes(path, cap, what="input"):
    """The whole regular file `path`, at most `cap` bytes."""
    return b"".join(input_chunks(path, cap, what))


def decode_utf8(data, path, what="input"):
    """UTF-8 text of `data`; InputError naming the byte offset of an invalid sequence."""
    if data.startswith(codecs.BOM_UTF8):
        raise InputError("%s: the %s starts with a UTF-8 byte-order mark (expected plain UTF-8 "
                         "JSON)" % (path, what))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s: the %s is not UTF-8 (invalid byte at offset %d)"
                         % (path, what, e.start))


class JsonValueError(ValueError):
    """A value that JSON text may hold but our inputs must not (NaN, duplicate keys)."""


def _no_constant(name):
    raise JsonValueError("%s literal (expected a finite number)" % name)


def _unique_pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise JsonValueError("duplicate key %s" % json.dumps(k))
        out[k] = v
    return out


def strict_decoder():
    """json.JSONDecoder refusing NaN/Infinity literals and duplicate keys."""
    return json.JSONDecoder(object_pairs_hook=_unique_pairs, parse_constant=_no_constant)


def parse_json(text, path, what="input"):
    """Parse JSON text strictly (see strict_decoder); InputError with the position."""
    try:
        value, end = strict_decoder().raw_decode(text, _skip_ws(text, 0))
        if _skip_ws(text, end) != len(text):
            raise InputError("%s: the %s has extra data after the JSON value (character %d)"
                             % (path, what, end))
        return value
    except json.JSONDecodeError as e:
        raise InputError("%s: the %s is not valid JSON: %s (line %d column %d)"
                         % (path, what, e.msg, e.lineno, e.colno))
    except RecursionError:
        raise InputError("%s: the %s is nested too deeply (more levels than this Python can "
                         "parse)" % (path, what))
    except ValueError as e:  # JsonValueError, or an integer of more than 4300 digits
        raise InputError("%s: the %s holds an invalid value: %s" % (path, what, e))


def read_json(path, what="input", cap=JSON_CAP):
    """The JSON document in the regular file `path` (at most `cap` bytes), strictly parsed."""
    return parse_json(decode_utf8(read_bytes(path, cap, what), path, what), path, what)


def _skip_ws(text, pos):
    n = len(text)
    while pos < n and text[pos] in " \t\n\r":
        pos += 1
    return pos


def show(v):
    """A value as JSON text, at most 60 characters, for an error message."""
    try:
        text = json.dumps(v)
    except (TypeError, ValueError, RecursionError):
        text = "a %s" % type(v).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _reason(e):
    return e.strerror if isinstance(e, OSError) and e.strerror else str(e)


def output_target(path):
    """The file that writing `path` replaces or creates; OutputError if that is not allowed."""
    if not path:
        raise OutputError("output path is empty")
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        lst = None
    except (OSError, ValueError) as e:
        raise OutputError("%s: cannot write: %s" % (path, _reason(e)))
    target = path
    if lst is not None and stat.S_ISLNK(lst.st_mode):
        try:
            st = os.stat(path)
        except OSError:
            raise OutputError("%s: is a symbolic link to a missing file (expected a regular "
                              "file or a new path)" % path)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError("%s: is a symbolic link to %s (expected a regular file or a new "
                              "path)" % (path, describe_mode(st.st_mode)))
        target = os.path.realpath(path)
    elif lst is not None and not stat.S_ISREG(lst.st_mode):
        raise OutputError("%s: is %s (expected a regular file or a new path)"
                          % (path, describe_mode(lst.st_mode)))
    folder = os.path.dirname(os.path.abspath(target))
    try:
        os.makedirs(folder, exist_ok=True)  # as the scripts always did (profile_all.sh OUT=)
    except OSError as e:
        raise OutputError("%s: cannot create its folder: %s" % (path, _reason(e)))
    return target


def write_output(path, data, what="output"):
    """Replace or create the regular file `path` with `data` (str: UTF-8), atomically."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    replace_with(path, lambda fd, tmp: _write_all(fd, data), what)


def replace_with(path, fill, what="output"):
    """Create a temporary file beside `path`, let `fill(fd, tmp_path)` write it, fsync it and
    rename it over `path`. Any failure removes the temporary file and leaves `path` as it was."""
    target = output_target(path)
    folder = os.path.dirname(os.path.abspath(target))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(target) + ".",
                                   suffix=".tmp")
        try:
            fill(fd, tmp)
            os.fsync(fd)
        finally:
            os.close(fd)
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
        _fsync_folder(folder)
    except OSError as e:
        raise OutputError("%s: cannot write the %s: %s (nothing written; an existing file is "
                          "left as it was)" % (path, what, _reason(e)))
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _fsync_folder(folder):
    """Make the rename durable (best effort: some file systems refuse fsync on a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""The events of a Chrome-trace JSON file, one at a time (standard library only).

A torch.profiler trace is one JSON object whose `traceEvents` array holds every event; real
traces reach hundreds of megabytes. `events(path)` reads the file in chunks through
safe_io.input_chunks (regular files only, size-capped) and yields the array's elements one by
one, each parsed by the standard json module's decoder (`raw_decode` on the buffered text), so
memory holds one chunk and one event, not the document, and time is linear in the file size.
The other top-level values are parsed and dropped. A bare array of events is accepted as well,
and a gzip-compressed file is decompressed as it is read.

Parsing is as strict as safe_io.parse_json: no NaN/Infinity literals, no duplicate keys, UTF-8
only, nesting within the interpreter's recursion limit; every error is a StreamError naming the
file and the character offset or event index.
"""

import codecs
import itertools
import json
import re
import zlib

import safe_io

MIB = safe_io.MIB
# A trace larger than this is refused before more is read.
TRACE_CAP = 4096 * MIB
# One event, and one top-level value other than traceEvents, at most.
EVENT_CAP = 16 * MIB
OTHER_CAP = 256 * MIB

_WS = re.compile(r"[ \t\n\r]*")


class StreamError(Exception):
    """Malformed trace text; the message names the file and where."""


def _gunzipped(chunks, path, cap, chunk):
    """The file's bytes, decompressed as they are read when it is gzip (torch.profiler's
    tensorboard_trace_handler writes `.pt.trace.json.gz`); the cap holds for the text too, so
    a small file cannot expand without bound."""
    first = next(chunks, None)
    if first is None or not first.startswith(b"\x1f\x8b"):
        if first is not None:
            yield first
        yield from chunks
        return
    unzip = zlib.decompressobj(wbits=31)
    total = 0
    for data in itertools.chain([first], chunks):
        while data and not unzip.eof:
            try:
                out = unzip.decompress(data, chunk)
            except zlib.error as e:
                raise StreamError("%s: not a valid gzip file (%s)" % (path, e))
            data = unzip.unconsumed_tail
            total += len(out)
            if total > cap:
                raise StreamError("%s: decompresses to more than %d MiB (expected a trace of "
                                  "at most that size)" % (path, cap // MIB))
            yield out
        if unzip.eof and (data or unzip.unused_data):
            raise StreamError("%s: data after the end of the gzip stream (expected one gzip "
                              "member)" % path)
    if not unzip.eof:
        raise StreamError("%s: the gzip stream ends early (a truncated file?)" % path)


class _Text:
    """Decoded text of the file, read on demand: `buf[pos:]` is what is not consumed yet."""

    def __init__(self, path, cap, chunk):
        self.path = path
        self.chunks = _gunzipped(safe_io.input_chunks(path, cap, "trace", chunk), path, cap,
                                 chunk)
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.json = safe_io.strict_decoder()
        self.buf = ""
        self.pos = 0
        self.base = 0  # characters consumed before buf
        self.bytes = 0
        self.eof = False

    def fill(self):
        """Append the next chunk; False at the end of the file."""
        if self.eof:
            return False
        data = next(self.chunks, None)
        try:
            if data is None:
                self.eof = True
                text = self.decoder.decode(b"", final=True)
            else:
                if self.bytes == 0 and data.startswith(codecs.BOM_UTF8):
                    raise StreamError("%s: starts with a UTF-8 byte-order mark (expected plain "
                                      "UTF-8 JSON)" % self.path)
                text = self.decoder.decode(data)
        except UnicodeDecodeError as e:
            raise StreamError("%s: not UTF-8 (invalid byte at offset %d)"
                              % (self.path, self.bytes + e.start))
        self.bytes += len(data or b"")
        self.base += self.pos
        self.buf = self.buf[self.pos:] + text
        self.pos = 0
        return True

    def peek(self):
        """The next character after white space, "" at the end of the file."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.fill():
                return ""

    def expect(self, ch, where):
        if self.peek() != ch:
            raise StreamError("%s: character %d: expected '%s' %s"
                              % (self.path, self.base + self.pos, ch, where))
        self.pos += 1

    def value(self, cap, where):
        """The next JSON value, read further until it is complete (at most `cap` characters)."""
        self.peek()
        last = None
        while True:
            try:
                v, end = self.json.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as e:
                # Either the value goes on in the next chunk or it is malformed: an error that
                # stays where it was after more text arrived is real (an unterminated string
                # reports its start, so it is given text up to the cap).
                here = (e.msg, e.pos)
                real = self.eof or (here == last and not e.msg.startswith("Unterminated"))
                if real or not self._more(cap, where):
                    raise StreamError("%s: %s: not valid JSON: %s (character %d)"
                                      % (self.path, where, e.msg, self.base + e.pos))
                last = here
                continue
            except RecursionError:
                raise StreamError("%s: %s: nested too deeply (more levels than this Python can "
                                  "parse)" % (self.path, where))
            except ValueError as e:  # NaN, duplicate key, an integer of > 4300 digits
                raise StreamError("%s: %s: %s" % (self.path, where, e))
            # A number at the end of the buffer may go on in the next chunk.
            if end == len(self.buf) and isinstance(v, (int, float)) and self._more(cap, where):
                continue
            self.pos = end
            return v

    def _more(self, cap, where):
        if len(self.buf) - self.pos > cap:
            raise StreamError("%s: %s: larger than %d MiB (the limit for one value)"
                              % (self.path, where, cap // MIB))
        return self.fill()


def _array(text, where):
    """Yield the elements of the array that starts at the next character."""
    text.expect("[", where)
    if text.peek() == "]":
        text.pos += 1
        return
    i = 0
    while True:
        yield text.value(EVENT_CAP, "traceEvents[%d]" % i)
        c = text.peek()
        if c not in (",", "]"):
            raise StreamError("%s: after traceEvents[%d] (character %d): expected ',' or ']'"
                              % (text.path, i, text.base + text.pos))
        text.pos += 1
        if c == "]":
            return
        i += 1


def events(path, cap=TRACE_CAP, chunk=4 * MIB):
    """Yield the elements of the trace's traceEvents array (or of a bare top-level array)."""
    text = _Text(path, cap, chunk)
    c = text.peek()
    if c == "[":
        yield from _array(text, "the top-level array")
    elif c == "{":
        yield from _object_events(text)
    else:
        raise StreamError("%s: %s (expected a JSON object with a traceEvents array)"
                          % (path, "empty file" if c == "" else
                             "character %d: not a JSON object" % (text.base + text.pos)))
    if text.peek() != "":
        raise StreamError("%s: character %d: extra data after the JSON value"
                          % (path, text.base + text.pos))


def _object_events(text):
    text.pos += 1
    keys = set()
    done = text.peek() == "}"
    if done:
        text.pos += 1
    while not done:
        if text.peek() != '"':
            raise StreamError("%s: character %d: expected a key string"
                              % (text.path, text.base + text.pos))
        key = text.value(EVENT_CAP, "a top-level key")
        if key in keys:
            raise StreamError("%s: duplicate top-level key %s" % (text.path, json.dumps(key)))
        keys.add(key)
        text.expect(":", "after a top-level key")
        if key == "traceEvents":
            if text.peek() != "[":
                raise StreamError("%s: traceEvents is not an array (expected the array of "
                                  "trace events)" % text.path)
            yield from _array(text, "traceEvents")
        else:
            text.value(OTHER_CAP, "top-level value %s" % json.dumps(key)[:60])
        c = text.peek()
        if c not in (",", "}"):
            raise StreamError("%s: character %d: expected ',' or '}' in the top-level object"
                              % (text.path, text.base + text.pos))
        text.pos += 1
        done = c == "}"
    if "traceEvents" not in keys:
        raise StreamError("%s: no traceEvents array (expected a torch.profiler Chrome trace)"
                          % text.path)

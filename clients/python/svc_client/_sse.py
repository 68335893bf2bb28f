"""Server-Sent Events as the WHATWG spec reads them: lines end in \\n, \\r\\n or \\r (a \\r\\n split across
two reads is one line end), ``data:`` lines of one event join with \\n, a blank line ends an event,
``:`` lines are comments. Bytes are decoded incrementally, so a character split across reads survives."""
import codecs
from typing import List, Tuple


class SseParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._buf = ""
        self._pending_cr = False
        self._data: List[str] = []
        self._event = ""

    def push(self, data: bytes) -> List[Tuple[str, str]]:
        """The (event, data) pairs completed by these bytes."""
        return self._lines(self._decoder.decode(data))

    def end(self) -> List[Tuple[str, str]]:
        """The events completed by the end of the stream (an unterminated last event is dropped)."""
        return self._lines(self._decoder.decode(b"", final=True))

    def _lines(self, text: str) -> List[Tuple[str, str]]:
        if self._pending_cr and text.startswith("\n"):
            text = text[1:]
        self._pending_cr = False
        buf = self._buf + text
        out: List[Tuple[str, str]] = []
        start = 0
        i = 0
        n = len(buf)
        while i < n:
            c = buf[i]
            if c == "\n" or c == "\r":
                self._line(buf[start:i], out)
                if c == "\r":
                    if i + 1 == n:
                        self._pending_cr = True
                    elif buf[i + 1] == "\n":
                        i += 1
                start = i + 1
            i += 1
        self._buf = buf[start:]
        return out

    def _line(self, line: str, out: List[Tuple[str, str]]) -> None:
        if line == "":
            if self._data:
                out.append((self._event or "message", "\n".join(self._data)))
            self._data = []
            self._event = ""
            return
        if line.startswith(":"):
            return
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value

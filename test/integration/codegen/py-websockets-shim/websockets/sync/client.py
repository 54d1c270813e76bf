"""A minimal RFC 6455 client with the surface of websockets.sync.client (tests only; see README.md)."""
import base64, os, select, socket, struct
from urllib.parse import urlsplit


class ConnectionClosed(Exception):
    pass


class ClientConnection:
    def __init__(self, sock, rest):
        self.sock, self.buf, self.closed = sock, rest, False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def send(self, message):
        if self.closed:
            raise ConnectionClosed("the socket is closed")
        self._frame(0x1, message.encode() if isinstance(message, str) else message)

    def _read(self, n, timeout):
        while len(self.buf) < n:
            if timeout is not None:
                ready, _, _ = select.select([self.sock], [], [], timeout)
                if not ready:
                    raise TimeoutError()
            data = self.sock.recv(65536)
            if not data:
                self.closed = True
                raise ConnectionClosed("the server closed the connection")
            self.buf += data
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _has_frame(self):
        # Whether a whole frame is buffered already (so recv(timeout=0) can return it).
        if len(self.buf) < 2:
            return False
        n, at = self.buf[1] & 0x7F, 2
        if n == 126:
            if len(self.buf) < 4:
                return False
            n, at = struct.unpack(">H", self.buf[2:4])[0], 4
        elif n == 127:
            if len(self.buf) < 10:
                return False
            n, at = struct.unpack(">Q", self.buf[2:10])[0], 10
        return len(self.buf) >= at + n

    def recv(self, timeout=None):
        parts = []
        while True:
            wait = None if timeout is None or self._has_frame() else timeout
            if wait is not None and len(self.buf) == 0:
                ready, _, _ = select.select([self.sock], [], [], wait)
                if not ready:
                    raise TimeoutError()
            # Once a frame has started it is read whole.
            b0, b1 = self._read(2, None)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2, None))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8, None))[0]
            payload = self._read(n, None)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                self.closed = True
                raise ConnectionClosed(payload[2:].decode(errors="replace"))
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if b0 & 0x80:
                data = b"".join(parts)
                return data.decode() if (opcode or 0x1) == 0x1 else data

    def close(self):
        if not self.closed:
            try:
                self._frame(0x8, struct.pack(">H", 1000))
            except OSError:
                pass
            self.closed = True
        self.sock.close()


def connect(uri, additional_headers=None, subprotocols=None, max_size=None, **_):
    url = urlsplit(uri)
    if url.scheme != "ws":
        raise ValueError("this stand-in speaks plain ws:// only")
    sock = socket.create_connection((url.hostname, url.port or 80))
    key = base64.b64encode(os.urandom(16)).decode()
    path = url.path + ("?" + url.query if url.query else "")
    lines = [f"GET {path} HTTP/1.1", f"Host: {url.netloc}", "Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if subprotocols:
        lines.append("Sec-WebSocket-Protocol: " + ", ".join(subprotocols))
    for name, value in (additional_headers or {}).items():
        lines.append(f"{name}: {value}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionClosed("closed during the handshake")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    status = head.split(b"\r\n", 1)[0].decode()
    if " 101 " not in status + " ":
        raise ConnectionClosed(f"the upgrade was refused: {status} {rest.decode(errors='replace')}")
    return ClientConnection(sock, rest)

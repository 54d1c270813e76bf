# A paced "sound card" for ALSA's file plugin (tests and benchmarks only): the plugin writes into
# a FIFO, and this reads it at 48 kHz stereo S16 in real time through a one-page pipe (~21 ms, the
# card's own buffer), so the writer is held back as by a device. It logs, on CLOCK_MONOTONIC (ns),
# each change between sound and silence (zero samples) read, so a benchmark can time a flush to
# silence. A short read (the writer late) is an underrun: the card keeps its clock.
#   python3 fifo-sink.py <fifo> <log>   (runs until killed; a writer closing and reopening is fine)
import os, sys, time, fcntl

path, out = sys.argv[1], sys.argv[2]
BPS = 48000 * 4
F_SETPIPE_SZ = 1031
log = open(out, 'w', buffering=1)


def session(fd):
    start = None
    consumed = 0
    sound = False
    pending = b''
    while True:
        time.sleep(0.001)
        now = time.monotonic_ns()
        if start is None:
            try:
                b = os.read(fd, 4096)
            except BlockingIOError:
                continue
            if not b:
                continue  # no writer yet
            start, pending = now, b
            continue
        due = (now - start) * BPS // 1_000_000_000 - consumed
        due -= due % 4
        if due <= 0:
            continue
        data = pending[:due]
        pending = pending[due:]
        while len(data) < due:
            try:
                b = os.read(fd, due - len(data))
            except BlockingIOError:
                break
            if not b:
                log.write(f'{now} closed\n')
                return
            data += b
        consumed += due
        if not data:
            continue
        nz = any(data)
        if nz != sound:
            sound = nz
            log.write(f'{now} {"sound" if nz else "silence"}\n')


while True:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        fcntl.fcntl(fd, F_SETPIPE_SZ, 4096)
    except OSError:
        pass
    session(fd)
    os.close(fd)

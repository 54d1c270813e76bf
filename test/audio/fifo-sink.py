# A paced "sound card" for ALSA's file plugin (tests and benchmarks only): the plugin writes into
# a FIFO, and this reads it in real time, so the writer is held back as by a device. It logs, on
# CLOCK_MONOTONIC (ns, the clock of Node's process.hrtime), each change between sound and silence
# (zero samples), so a benchmark can time a flush to its last non-silent sample.
#   python3 fifo-sink.py <fifo> <log> [bytes_per_second frame_bytes]   (runs until killed; a writer closing and reopening is fine)
#
# What the clock measures: a pipe holds whole pages and the writer keeps it full, so a sample sits
# in the pipe up to its size / bytes_per_second before this "plays" it. At 48 kHz stereo S16
# (192 kB/s) one page is 21 ms, more than the figure being measured; so the harness has ALSA's plug
# widen each frame (16 channels of S32 at 48 kHz, 3 MB/s: a page is 1.3 ms) and this reads at that
# byte rate. The pipe gets two pages (PIPE_BYTES): a writer can only refill a page once it has been
# read to its end, so with one page the card ran dry for the writer's wake-up every 1.3 ms (0.1-0.3
# ms each time, 15-25 % of the time: a systematic underrun that stretched every figure); with two it
# writes one while this reads the other, and the pipe holds up to 2.7 ms. Each log line says how many
# bytes sat in the pipe when the change was read (FIONREAD): the rig's own share, so a figure can be
# read as "left ALSA by" (arrival minus that) or "played by" (arrival).
# A change is timed to its sample: a read covers the last `len(data)` bytes of the card's clock,
# so the byte at offset k of it played (len - k) / rate before the read. A short read (the writer
# late) is an underrun: the card keeps its clock.
# Log lines: <ns> sound|silence|underrun|fed|closed <bytes in the pipe> <byte position in the stream> <bytes the
# writer failed to deliver in time (underruns) since it opened>.
import os, sys, time, fcntl, array, termios

path, out = sys.argv[1], sys.argv[2]
BPS = int(sys.argv[3]) if len(sys.argv) > 3 else 48000 * 4
FRAME = int(sys.argv[4]) if len(sys.argv) > 4 else 4
F_SETPIPE_SZ = 1031
PIPE_BYTES = 8192  # two pages: see "What the clock measures"
log = open(out, 'w', buffering=1)

# A card's DMA never waits for the scheduler: on a busy machine a late reader would starve the
# writer behind its 2.7 ms pipe and stretch every figure. Real-time priority when allowed (root in
# the test container); what was applied goes to <log>.sched for the benchmark to report.
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(20))
    sched = 'SCHED_FIFO 20'
except (PermissionError, AttributeError, OSError):
    sched = 'normal'
with open(out + '.sched', 'w') as f:
    f.write(sched)


def in_pipe(fd):
    buf = array.array('i', [0])
    try:
        fcntl.ioctl(fd, termios.FIONREAD, buf, True)
    except OSError:
        return -1
    return buf[0]


def session(fd):
    start = None
    consumed = 0
    position = 0
    underrun = 0
    starved = False
    sound = False
    pending = b''
    while True:
        time.sleep(0.0005)
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
        due -= due % FRAME
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
                log.write(f'{now} closed 0 {position} {underrun}\n')
                return
            data += b
        consumed += due
        short = due - len(data)
        underrun += short
        # An underrun episode starts and ends with a line, so a reader can tell which stretch was starved.
        if short > 0 and not starved:
            starved = True
            log.write(f'{now} underrun {in_pipe(fd)} {position} {underrun}\n')
        elif short == 0 and starved:
            starved = False
            log.write(f'{now} fed {in_pipe(fd)} {position} {underrun}\n')
        # Whole frames only (a frame is silent when all its bytes are zero): a part frame waits.
        cut = len(data) - len(data) % FRAME
        pending, data = data[cut:] + pending, data[:cut]
        if not data:
            continue
        n = len(data)
        # Where the sound ends: the frame after the last non-zero byte (n when the read ends in sound).
        end = -(-len(data.rstrip(b'\0')) // FRAME) * FRAME
        if not sound:
            first = (n - len(data.lstrip(b'\0'))) // FRAME * FRAME
            if first < n:
                sound = True
                log.write(f'{now - (n - first) * 1_000_000_000 // BPS} sound {in_pipe(fd)} {position + first} {underrun}\n')
        # Trailing silent frames end the sound (a zero run inside speech is logged too: a reader
        # wanting the end of a stretch takes the last change).
        if sound and end < n:
            sound = False
            log.write(f'{now - (n - end) * 1_000_000_000 // BPS} silence {in_pipe(fd)} {position + end} {underrun}\n')
        position += n


while True:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        fcntl.fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES)
    except OSError:
        pass
    session(fd)
    os.close(fd)

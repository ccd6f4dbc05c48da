// The Python fork server's program, run as `python -c SOURCE`: it imports the modules hook scripts
// use, keeps one spare run forked ahead (a stand-in for the shell and the script's process,
// waiting), hands each request to the spare and reports its exit status. It never runs user code
// itself: only the script's process does, as `__main__`. A string, so the build needs no data files.

/**
 * Control protocol, one JSON object per line. In (fd 0): {id, socket, token, cwd, env, argv,
 * script, executable}. Out (fd 1): {ready: pid} once, {id, pid} when the request went to a
 * stand-in for the shell leading its own session, {id, status} when it ended (status: exit code,
 * or minus the signal number when the stand-in itself was killed).
 */
export const PYTHON_FORK_SERVER = String.raw`
import os, sys, json, signal, selectors, socket, types, builtins
for _name in ("re", "json", "pathlib", "subprocess", "shlex", "time", "datetime", "typing", "collections",
              "tempfile", "hashlib", "base64", "urllib.parse", "shutil", "glob", "fnmatch", "textwrap",
              "string", "functools", "itertools", "dataclasses", "enum", "argparse", "traceback",
              "threading", "atexit", "io", "importlib.machinery", "stat", "errno", "uuid", "random"):
    try:
        __import__(_name)
    except Exception:
        pass
import atexit, threading, importlib.machinery, gc

# What is imported now is shared with every fork: kept out of the collector so that a run's
# collections do not write to (and so copy) the pages of objects it never uses.
gc.freeze()

# Variables this interpreter added to its own environment at start (C locale coercion): a
# spawned interpreter would add them too, so each run gets them unless its env has them.
_passed = set(n for n in sys.argv[1].split(",") if n) if len(sys.argv) > 1 else set()
_added = {k: v for k, v in os.environ.items() if k not in _passed}

_ctl_in, _ctl_out = os.dup(0), os.dup(1)
_null = os.open(os.devnull, os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
os.close(_null)
_wake_r, _wake_w = os.pipe()
os.set_blocking(_wake_r, False)
os.set_blocking(_wake_w, False)

def _send(message):
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(_ctl_out, data):]

def _exit_code(error):
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1

def _finish(code, interrupted):
    # What the interpreter does at exit: wait for threads, run atexit, flush the streams.
    try:
        threading._shutdown()
    except BaseException:
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            if stream is sys.stdout and code == 0:
                code = 120
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)

def _read_to_end(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)

def _stand_in(request_r, ready_w, selector):
    # In the place of /bin/sh -c: leads the new session and process group, waits for the script,
    # and exits as the shell would (128 + the signal's number when a signal ended the script).
    # Made ahead of its run (a spare), with the script's process already forked and waiting.
    os.setsid()
    os.write(ready_w, b"1")
    os.close(ready_w)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    selector.close()
    for fd in (_ctl_in, _ctl_out, _wake_r, _wake_w):
        os.close(fd)
    to_script, from_stand_in = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:
        try:
            to_script.close()
            os.close(request_r)
            _child(from_stand_in)
        finally:
            os._exit(127)
    from_stand_in.close()
    data = _read_to_end(request_r)
    os.close(request_r)
    if not data:
        # The fork server went away before this spare was used.
        os.kill(pid, signal.SIGKILL)
        os._exit(0)
    request = json.loads(data)
    # The streams are the shell's, and so the script's: held until the script ends, as sh holds them.
    for number in (0, 1, 2):
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(request["socket"])
        conn.sendall((request["token"] + " " + str(number) + "\n").encode())
        fd = conn.detach()
        os.dup2(fd, number)
        os.close(fd)
    socket.send_fds(to_script, [b"r"], [0, 1, 2])
    to_script.sendall(data)
    to_script.close()
    os.closerange(3, 65536)
    status = os.waitpid(pid, 0)[1]
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        # The shell names the signal that ended its command, except an interrupt or a broken pipe.
        if number not in (signal.SIGINT, signal.SIGPIPE):
            message = (signal.strsignal(number) or "Signal %d" % number) + (" (core dumped)" if os.WCOREDUMP(status) else "")
            os.write(2, (message + "\n").encode())
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))

def _child(from_stand_in):
    _, fds, _, _ = socket.recv_fds(from_stand_in, 1, 3)
    if len(fds) != 3:
        os._exit(0)
    data = b""
    while True:
        chunk = from_stand_in.recv(65536)
        if not chunk:
            break
        data += chunk
    from_stand_in.close()
    for number, fd in enumerate(fds):
        os.dup2(fd, number)
        os.close(fd)
    os.closerange(3, 65536)
    request = json.loads(data)
    os.chdir(request["cwd"])
    env = dict(_added)
    env.update(request["env"])
    os.environ.clear()
    os.environ.update(env)
    script = request["script"]
    sys.argv = list(request["argv"])
    sys.path[0] = os.path.dirname(os.path.realpath(script))
    try:
        with open(script, "rb") as handle:
            source = handle.read()
    except OSError as error:
        sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (request["executable"], script, error.errno, error.strerror))
        _finish(2, False)
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    sys.modules["__main__"] = main
    code, interrupted = 0, False
    try:
        exec(compile(source, script, "exec"), main.__dict__)
    except SystemExit as error:
        code = _exit_code(error)
    except BaseException as error:
        kind, value, tb = sys.exc_info()
        # The first frame is this function's: a spawned run's traceback starts at the script.
        sys.excepthook(kind, value.with_traceback(tb.tb_next), tb.tb_next)
        code, interrupted = 1, isinstance(error, KeyboardInterrupt)
    _finish(code, interrupted)

def _make_spare(selector):
    sys.stderr.flush()
    request_r, request_w = os.pipe()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(request_w)
            os.close(ready_r)
            _stand_in(request_r, ready_w, selector)
        finally:
            os._exit(127)
    os.close(request_r)
    os.close(ready_w)
    # Handed out only once it leads its own process group: a kill of the group then reaches it.
    os.read(ready_r, 1)
    os.close(ready_r)
    return pid, request_w

def _start(line, spare, selector):
    """Gives the request to the spare (a fresh one if it died), returns the run's pid."""
    for _attempt in (1, 2):
        if spare[0] is None:
            spare[0] = _make_spare(selector)
        pid, request_w = spare[0]
        spare[0] = None
        try:
            data = line
            while data:
                data = data[os.write(request_w, data):]
            os.close(request_w)
            return pid
        except BrokenPipeError:
            os.close(request_w)
    raise RuntimeError("no spare could take the request")

def _reap(children):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        run = children.pop(pid, None)
        if run is not None:
            _send({"id": run, "status": os.waitstatus_to_exitcode(status)})

def _serve():
    signal.set_wakeup_fd(_wake_w)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    selector = selectors.DefaultSelector()
    selector.register(_ctl_in, selectors.EVENT_READ, "control")
    selector.register(_wake_r, selectors.EVENT_READ, "children")
    children = {}
    pending = b""
    spare = [_make_spare(selector)]
    closing = False
    _send({"ready": os.getpid()})
    # After the daemon closes the control pipe (a retired server), runs already given out still
    # get their exit status; then the server ends.
    while not closing or children:
        for key, _ in selector.select():
            if key.data == "children":
                try:
                    while os.read(_wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                _reap(children)
                continue
            chunk = os.read(_ctl_in, 65536)
            if not chunk:
                closing = True
                selector.unregister(_ctl_in)
                if spare[0] is not None:
                    os.close(spare[0][1])
                    spare[0] = None
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                run = json.loads(line)["id"]
                pid = _start(line, spare, selector)
                children[pid] = run
                _send({"id": run, "pid": pid})
        _reap(children)
        # The next run's spare, made once this batch is answered.
        if spare[0] is None and not closing:
            spare[0] = _make_spare(selector)

_serve()
`;

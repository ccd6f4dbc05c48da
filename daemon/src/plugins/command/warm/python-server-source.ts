// The Python fork server's program, run as `python -c SOURCE`: it imports the modules hook
// scripts use, then forks one child per run request and reports each child's exit status. It
// never runs user code itself: only the forked child does, as `__main__`, with its own session.
// Kept as a string so the built daemon needs no data files beside its JavaScript.

/**
 * Control protocol, one JSON object per line. In (fd 0): {id, socket, token, cwd, env, argv,
 * script, executable}. Out (fd 1): {ready: pid} once, {id, pid} when a run's stand-in for the
 * shell leads its own session, {id, status} when it ended (status: exit code, or minus the
 * signal number when the stand-in itself was killed).
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

def _stand_in(request, ready_w, selector):
    # In the place of /bin/sh -c: leads the new session and process group, waits for the script,
    # and exits as the shell would (128 + the signal's number when a signal ended the script).
    os.setsid()
    os.write(ready_w, b"1")
    os.close(ready_w)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    selector.close()
    for fd in (_ctl_in, _ctl_out, _wake_r, _wake_w):
        os.close(fd)
    # The streams are the shell's, and so the script's: held until the script ends, as sh holds them.
    for number in (0, 1, 2):
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(request["socket"])
        conn.sendall((request["token"] + " " + str(number) + "\n").encode())
        fd = conn.detach()
        os.dup2(fd, number)
        os.close(fd)
    os.closerange(3, 65536)
    pid = os.fork()
    if pid == 0:
        try:
            _child(request)
        finally:
            os._exit(127)
    status = os.waitpid(pid, 0)[1]
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        # The shell names the signal that ended its command, except an interrupt or a broken pipe.
        if number not in (signal.SIGINT, signal.SIGPIPE):
            message = (signal.strsignal(number) or "Signal %d" % number) + (" (core dumped)" if os.WCOREDUMP(status) else "")
            os.write(2, (message + "\n").encode())
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))

def _child(request):
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

def _start(request, selector):
    sys.stderr.flush()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r)
            _stand_in(request, ready_w, selector)
        finally:
            os._exit(127)
    os.close(ready_w)
    # Reported only once the child leads its own process group: a kill of the group then reaches it.
    os.read(ready_r, 1)
    os.close(ready_r)
    return pid

def _reap(children):
    while children:
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
    _send({"ready": os.getpid()})
    while True:
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
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = _start(request, selector)
                children[pid] = request["id"]
                _send({"id": request["id"], "pid": pid})
        _reap(children)

_serve()
`;

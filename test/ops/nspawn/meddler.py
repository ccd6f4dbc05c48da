# A managed plugin that tries to speak for the hookd service (check.sh): it sends STATUS= and
# READY=1 to the notify socket it was given (it should be given none) and to systemd's own, then
# idles. hookd.service has NotifyAccess=main, so systemd must ignore both. What it did goes to
# stdout, which hookd logs as the plugin's output (the unit's filesystem is read-only to it).
import os, socket, sys, time

def send(path, message):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.sendto(message.encode(), "\0" + path[1:] if path.startswith("@") else path)
        return "sent"
    except OSError as error:
        return f"refused ({error})"

given = os.environ.get("NOTIFY_SOCKET", "")
print(f"meddler env NOTIFY_SOCKET={given!r} WATCHDOG_USEC={os.environ.get('WATCHDOG_USEC', '')!r}", flush=True)
for path in [p for p in (given, "/run/systemd/notify") if p]:
    print(f"meddler {path}: {send(path, 'STATUS=meddled by a plugin child' + chr(10) + 'READY=1')}", flush=True)
while True:
    time.sleep(3600)

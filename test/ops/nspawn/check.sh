#!/bin/bash
# Runs inside the systemd-nspawn container booted by test/ops/nspawn.test.ts, as a oneshot unit
# after boot: installs hookd as the README says (deploy/install.sh from the checkout), drives the
# real hookd.socket / hookd.service through systemctl and reports each step to /out/report.txt as
# "STEP <name> <value>" lines, then powers the container off.
exec >/out/report.txt 2>&1
SRC=/opt/hookd
BUF="timeout 30 $SRC/node_modules/.bin/buf"
SOCK=/run/hookd/hookd.sock
ADMIN=/run/hookd/admin/admin.sock
step() { echo "STEP $1 $2"; }
state() { echo "$(systemctl show hookd.service -P ActiveState)/$(systemctl show hookd.service -P SubState)"; }
health() { $BUF curl --protocol grpc --http2-prior-knowledge --unix-socket "$SOCK" -d '{"service":""}' http://localhost/grpc.health.v1.Health/Check 2>&1 | tr -d ' \n'; }
compact() { node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{try{console.log(JSON.stringify(JSON.parse(s)))}catch{console.log(s.replace(/\s+/g," "))}})'; }
evaluate() { # $1: the Bash command
  $BUF curl --protocol grpc --http2-prior-knowledge --unix-socket "$SOCK" \
    -d "{\"event\":{\"session\":{\"sessionId\":\"n\",\"agentId\":\"nspawn\"},\"call\":{\"callId\":\"c1\",\"rootCallId\":\"c1\",\"toolName\":\"Bash\",\"argumentsJson\":\"{\\\"command\\\":\\\"$1\\\"}\",\"sessionId\":\"n\",\"turn\":1,\"step\":1}}}" \
    http://localhost/hookd.v1.HookHost/EvaluatePreTool 2>&1 | compact
}
wait_for() { # $1: seconds, then a command that must succeed
  local until=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -ge $until ] && return 1; sleep 0.2; done
}

# --- install, as the README's Install section says (the checkout is built on the host; npm
# reaches the registry with the host's settings)
(set -a; . /out/host.env; cd "$SRC" && deploy/install.sh) > /out/install.log 2>&1
step install-exit "$?"
step hookd-on-path "$(command -v hookd)"
step hookd-runs "$(hookd --help 2>&1 | head -1)"
# The shipped config, as installed, with the example plugin in /etc/hookd/plugins.
step check-shipped-config "$(hookd check --config /etc/hookd/hookd.yaml >/out/check.log 2>&1; echo $?)"
# The test's own additions: its config (the installed example policy plus a managed plugin that
# tries to notify for the unit) and a short watchdog.
install -m 0644 "$SRC/test/ops/nspawn/hookd.yaml" /etc/hookd/hookd.yaml
install -D -m 0644 "$SRC/test/ops/nspawn/test.conf" /etc/systemd/system/hookd.service.d/test.conf
useradd --system --no-create-home --groups hookd-agents agent1
useradd --system --no-create-home outsider
systemctl daemon-reload
systemctl enable --now hookd.socket

# --- socket activation and readiness
step socket-active "$(systemctl is-active hookd.socket)"
step service-before-connect "$(systemctl is-active hookd.service)"
step socket-owner-before "$(stat -c %U:%G:%a $SOCK)"
# The first connection starts hookd; Type=notify makes systemd wait for READY=1.
step health "$(health)"
step evaluate-denied "$(evaluate 'rm -rf /')"
step evaluate-passed "$(evaluate 'ls')"
step service-after-connect "$(state)"
if [ "$(state)" != active/running ]; then
  # Nothing after this can pass: report why now instead of waiting out every later step.
  echo "--- journal"; journalctl -u hookd.service -u hookd.socket -o cat --no-pager | tail -80
  echo ABORTED; systemctl --no-block poweroff; exit 0
fi
step status-text "$(systemctl show hookd.service -P StatusText)"
step notify-access "$(systemctl show hookd.service -P NotifyAccess)"
step user "$(ps -o user= -p "$(systemctl show hookd.service -P MainPID)")"
step admin-mode "$(stat -c %a $ADMIN)"
# SocketGroup= survives the service's start: a member of hookd-agents connects, others cannot.
step socket-owner-after "$(stat -c %U:%G:%a $SOCK)"
step member-connects "$(setpriv --reuid=agent1 --regid=agent1 --init-groups $BUF curl --protocol grpc --http2-prior-knowledge --unix-socket $SOCK -d '{"service":""}' http://localhost/grpc.health.v1.Health/Check 2>&1 | tr -d ' \n')"
step outsider-refused "$(setpriv --reuid=outsider --regid=outsider --init-groups $BUF curl --protocol grpc --http2-prior-knowledge --unix-socket $SOCK -d '{"service":""}' http://localhost/grpc.health.v1.Health/Check >/dev/null 2>&1; echo $?)"

# --- a plugin child cannot speak for the unit (NotifyAccess=main; it gets no NOTIFY_SOCKET)
meddled() { journalctl -u hookd.service -o cat --no-pager | grep '"plugin":"meddler"' | grep -o 'meddler [^"]*' ; }
wait_for 30 sh -c "journalctl -u hookd.service -o cat --no-pager | grep -q 'meddler /run/systemd/notify'"
step meddler-env "$(meddled | grep -m1 'meddler env')"
step meddler-sent "$(meddled | grep -m1 'meddler /run/systemd/notify')"
step status-after-meddler "$(systemctl show hookd.service -P StatusText)"

# --- reload with a hosted session connected: turn 2 completes after it
node "$SRC/test/ops/nspawn/agent.mjs" /out > /out/agent.out 2>&1 &
AGENT=$!
wait_for 20 grep -q '^turn1 ' /out/agent.log
systemctl reload hookd.service
step reload-exit "$?"
step generation "$(hookd status --socket $ADMIN | grep '^config generation' | tr -s ' ')"
touch /out/agent-go
wait_for 20 grep -q '^turn2 ' /out/agent.log
step agent-turns "$(grep '^turn' /out/agent.log | tr '\n' ' ' | sed 's/ $//')"
step state-after-reload "$(state)"

# --- a refused reload fails `systemctl reload`, keeps serving, and its error is a warning
cp /etc/hookd/hookd.yaml /out/hookd.yaml.good
echo "listeners: [ { unix: 7 } ]" > /etc/hookd/hookd.yaml
systemctl reload hookd.service
step refused-reload-exit "$?"
cp /out/hookd.yaml.good /etc/hookd/hookd.yaml
step state-after-refused "$(state)"
step warnings "$(journalctl -u hookd.service -p warning -o cat --no-pager | grep -c 'config reload refused')"
step audit-lines "$(wc -l < /var/log/hookd/audit.jsonl 2>/dev/null || echo missing)"

# --- restart: the socket stays with systemd, no connection is refused
: > /out/restart.log
(for i in $(seq 1 40); do health >> /out/restart.log; echo >> /out/restart.log; done) &
LOAD=$!
sleep 0.3
systemctl restart hookd.service
wait $LOAD
step restart-answers "$(grep -c '"status":"SERVING"' /out/restart.log)/40"
step state-after-restart "$(state)"

# --- watchdog: a main process that stops answering is killed and restarted
OLD=$(systemctl show hookd.service -P MainPID)
kill -STOP "$OLD"
wait_for 30 sh -c "[ \"\$(systemctl show hookd.service -P MainPID)\" != \"$OLD\" ] && [ \"\$(systemctl is-active hookd.service)\" = active ]"
step watchdog-restarted "$([ "$(systemctl show hookd.service -P MainPID)" != "$OLD" ] && echo yes || echo no)"
step watchdog-journal "$(journalctl -u hookd.service -o cat --no-pager | grep -c 'Watchdog timeout')"

# --- stop with an open hosted session: within the grace period, result success
kill $AGENT 2>/dev/null; rm -f /out/agent.log /out/agent-go
node "$SRC/test/ops/nspawn/agent.mjs" /out > /out/agent.out 2>&1 &
AGENT=$!
wait_for 20 grep -q '^turn1 ' /out/agent.log
systemctl stop hookd.service
step stop-result "$(systemctl show hookd.service -P ActiveState)/$(systemctl show hookd.service -P Result)"
wait_for 10 grep -q '^ended ' /out/agent.log
step agent-ended "$(grep '^ended ' /out/agent.log)"
step journal-stopped "$(journalctl -u hookd.service -o cat --no-pager | grep -c '"msg":"hookd stopped"')"
step socket-after-stop "$(systemctl is-active hookd.socket)"
step security "$(systemd-analyze security hookd.service --no-pager 2>/dev/null | grep -o 'Overall exposure level for hookd.service: [0-9.]*' | awk '{print $NF}')"
kill $AGENT 2>/dev/null
echo "--- install"
tail -20 /out/install.log
echo "--- journal"
journalctl -u hookd.service -u hookd.socket -o cat --no-pager | tail -60
echo DONE
systemctl --no-block poweroff

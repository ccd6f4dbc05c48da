#!/bin/bash
# Runs inside the systemd-nspawn container booted by test/ops/nspawn.test.ts, as a oneshot unit
# after boot: drives the real hookd.socket / hookd.service through systemctl and reports each
# step to /out/report.txt as "STEP <name> <value>" lines, then powers the container off.
exec >/out/report.txt 2>&1
CLI=/opt/hookd/daemon/dist/cli.js
BUF=/opt/hookd/node_modules/.bin/buf
step() { echo "STEP $1 $2"; }

step socket-active "$(systemctl is-active hookd.socket)"
step service-before-connect "$(systemctl is-active hookd.service)"
# The first connection to the socket starts hookd (socket activation); Type=notify makes
# systemd wait for READY=1 before the unit is active.
step health "$($BUF curl --protocol grpc --http2-prior-knowledge --unix-socket /run/hookd/hookd.sock -d "{\"service\":\"\"}" http://localhost/grpc.health.v1.Health/Check | tr -d " \n")"
step evaluate "$($BUF curl --protocol grpc --http2-prior-knowledge --unix-socket /run/hookd/hookd.sock -d '{"event":{"session":{"sessionId":"n","agentId":"nspawn"},"call":{"callId":"c1","rootCallId":"c1","toolName":"Bash","argumentsJson":"{}","sessionId":"n","turn":1,"step":1}}}' http://localhost/hookd.v1.HookHost/EvaluatePreTool | tr -d ' \n')"
step service-after-connect "$(systemctl show hookd.service -P ActiveState)/$(systemctl show hookd.service -P SubState)"
step status-text "$(systemctl show hookd.service -P StatusText)"
step watchdog-usec "$(systemctl show hookd.service -P WatchdogUSec)"
step listeners "$(node $CLI status --socket /run/hookd/admin.sock | grep '^listeners' | tr -s ' ')"
step socket-mode "$(stat -c %a /run/hookd/hookd.sock)"
step admin-mode "$(stat -c %a /run/hookd/admin.sock)"
step user "$(ps -o user= -p "$(systemctl show hookd.service -P MainPID)")"
systemctl reload hookd.service
step reload-exit "$?"
step generation "$(node $CLI status --socket /run/hookd/admin.sock | grep '^config generation' | tr -s ' ')"
step state-after-reload "$(systemctl show hookd.service -P ActiveState)/$(systemctl show hookd.service -P SubState)"
step audit-lines "$(wc -l < /var/log/hookd/audit.jsonl 2>/dev/null || echo missing)"
systemctl stop hookd.service
step stop-result "$(systemctl show hookd.service -P ActiveState)/$(systemctl show hookd.service -P Result)"
step journal-stopped "$(journalctl -u hookd.service -o cat --no-pager | grep -c '"msg":"hookd stopped"')"
step socket-after-stop "$(systemctl is-active hookd.socket)"
echo "--- journal"
journalctl -u hookd.service -u hookd.socket -o cat --no-pager | tail -40
echo DONE
systemctl --no-block poweroff

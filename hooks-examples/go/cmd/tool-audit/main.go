// Command tool-audit is a hookd tool-result observer. It appends one JSON line per final tool
// result (time, session, call id, tool, ok, and a failure's code and message) to a log file.
//
// Usage:
//
//	tool-audit [--listen unix:PATH|HOST:PORT] [--log FILE]
//
// Without --listen it serves on the Unix socket named by $HOOKD_PLUGIN_SOCKET; without --log it
// appends to the file named by $HOOKD_TOOL_AUDIT_LOG.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

const logEnv = "HOOKD_TOOL_AUDIT_LOG"

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: unix socket from $"+hookd.SocketEnv+")")
	logPath := flag.String("log", os.Getenv(logEnv), "file to append JSON lines to (default: $"+logEnv+")")
	flag.Parse()

	if err := run(*listen, *logPath); err != nil {
		fmt.Fprintln(os.Stderr, "tool-audit:", err)
		os.Exit(1)
	}
}

func run(listen, logPath string) (err error) {
	if logPath == "" {
		return errors.New("no log file: pass --log or set " + logEnv)
	}
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return hookd.Serve(ctx, (&auditor{now: time.Now, w: f}).plugin(), hookd.WithAddress(listen))
}

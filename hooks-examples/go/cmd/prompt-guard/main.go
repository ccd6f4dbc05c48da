// Command prompt-guard is a hookd pre-step plugin. It rejects a step whose prompt text matches a
// deny rule (a regular expression) and otherwise enters it with the complete batch plus one
// context message noting the check.
//
// Usage:
//
//	prompt-guard [--listen unix:PATH|HOST:PORT] [--deny-file FILE] [--deny REGEXP]...
//
// Without --listen it serves on the Unix socket named by $HOOKD_PLUGIN_SOCKET. Without --deny-file
// or --deny it applies a built-in list (rm -rf /, curl|sh, fork bomb, raw disk writes).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"syscall"

	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: unix socket from $"+hookd.SocketEnv+")")
	denyFile := flag.String("deny-file", "", "file of deny rules, one regular expression a line ('#' starts a comment line)")
	var denies []string
	flag.Func("deny", "deny rule, a regular expression (repeatable)", func(expr string) error {
		denies = append(denies, expr)
		return nil
	})
	flag.Parse()

	if err := run(*listen, *denyFile, denies); err != nil {
		fmt.Fprintln(os.Stderr, "prompt-guard:", err)
		os.Exit(1)
	}
}

func run(listen, denyFile string, denies []string) error {
	rules, err := loadRules(denyFile, denies)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	return hookd.Serve(ctx, (&guard{rules: rules}).plugin(), hookd.WithAddress(listen))
}

// loadRules gathers the rules of denyFile and denies, or the default rules when both are empty.
func loadRules(denyFile string, denies []string) ([]rule, error) {
	var rules []rule
	if denyFile != "" {
		f, err := os.Open(denyFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if rules, err = parseRules(f); err != nil {
			return nil, fmt.Errorf("%s: %w", denyFile, err)
		}
	}
	for _, expr := range denies {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("--deny: %w", err)
		}
		rules = append(rules, rule{expr, re})
	}
	if denyFile == "" && len(denies) == 0 {
		return defaultRules, nil
	}
	return rules, nil
}

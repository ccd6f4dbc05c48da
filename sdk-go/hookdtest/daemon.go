package hookdtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// DaemonEnv names the hookd daemon StartDaemon runs: a path to the daemon's cli.js (run with
// node) or to a `hookd` executable. Unset, FindDaemon looks for daemon/dist/cli.js in the working
// directory and its parents (a checkout of the hookd repository, after `npm run build`), then
// next to this SDK's source when it is used from a checkout (a `replace` to its sdk-go), then for
// `hookd` on PATH.
const DaemonEnv = "HOOKD_DAEMON"

// readyWithin bounds how long a daemon may take to serve with its plugin healthy (a loaded CI
// machine starts node slowly); it is a bound, not an expectation.
const readyWithin = 90 * time.Second

// FindDaemon returns the command line that runs `hookd` (before its "serve" argument).
func FindDaemon() ([]string, error) {
	command := func(path string) []string {
		if strings.HasSuffix(path, ".js") {
			return []string{"node", path}
		}
		return []string{path}
	}
	if path := os.Getenv(DaemonEnv); path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("$%s: %w", DaemonEnv, err)
		}
		return command(path), nil
	}
	if dir, err := os.Getwd(); err == nil {
		for ; ; dir = filepath.Dir(dir) {
			cli := filepath.Join(dir, "daemon", "dist", "cli.js")
			if _, err := os.Stat(cli); err == nil {
				return command(cli), nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		// .../sdk-go/hookdtest/daemon.go -> .../daemon/dist/cli.js
		cli := filepath.Join(filepath.Dir(file), "..", "..", "daemon", "dist", "cli.js")
		if _, err := os.Stat(cli); err == nil {
			return command(filepath.Clean(cli)), nil
		}
	}
	if path, err := exec.LookPath("hookd"); err == nil {
		return command(path), nil
	}
	return nil, fmt.Errorf("no hookd daemon found: set $%s to daemon/dist/cli.js (run `npm run build` in the hookd repository) or put hookd on PATH", DaemonEnv)
}

// DaemonPlugin is the plugin StartDaemon configures: Remote or Managed.
type DaemonPlugin struct {
	name  string
	entry map[string]any
	start func(t testing.TB) // serves a Remote plugin before the daemon starts
}

// Remote serves plugin in the test (as Start does) and configures the daemon with it as a
// `kind: remote` plugin on that socket.
func Remote(plugin *hookd.Plugin, options ...hookd.ServeOption) DaemonPlugin {
	p := DaemonPlugin{name: plugin.Name, entry: map[string]any{"name": plugin.Name, "kind": "remote"}}
	p.start = func(t testing.TB) {
		client := Start(t, plugin, WithServeOptions(options...))
		p.entry["target"] = "unix://" + strings.TrimPrefix(client.Address(), "unix:")
	}
	return p
}

// Managed configures the daemon to start command (a built plugin) as the `kind: managed` plugin
// name, with HOOKD_PLUGIN_SOCKET set.
func Managed(name, command string, args ...string) DaemonPlugin {
	return DaemonPlugin{name: name, entry: map[string]any{"name": name, "kind": "managed", "command": command, "args": append([]string{}, args...), "startTimeoutMs": 60_000}}
}

// With adds fields to the plugin's config entry (e.g. "points" overrides, "env").
func (p DaemonPlugin) With(fields map[string]any) DaemonPlugin {
	for key, value := range fields {
		p.entry[key] = value
	}
	return p
}

// Daemon is a running `hookd serve` with one plugin, stopped when the test ends.
type Daemon struct {
	// Host is the agent-facing service; calls need Context's metadata (the agent's id).
	Host  hookdv1.HookHostClient
	Admin hookdv1.HookAdminClient
	// Target is the daemon's gRPC target ("unix:///.../hookd.sock").
	Target string
	// Plugin is the configured name of the plugin.
	Plugin string
	// Dir holds the config and the audit log (audit.jsonl).
	Dir string
}

// Context is ctx with the metadata that names Agent to the daemon.
func (d *Daemon) Context(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "x-hookd-agent", Agent)
}

// StartDaemon runs the daemon FindDaemon finds with plugin configured (required, so the daemon
// waits for it), on a Unix socket in a temporary directory, and returns once the daemon serves
// and reports the plugin healthy. The daemon is stopped with SIGTERM when the test ends; a daemon
// that cannot start fails the test with its output.
func StartDaemon(t testing.TB, plugin DaemonPlugin) *Daemon {
	t.Helper()
	command, err := FindDaemon()
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	if plugin.start != nil {
		plugin.start(t)
	}
	dir, err := os.MkdirTemp("", "hookdtest-daemon")
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "hookd.sock")
	entry := map[string]any{"required": true}
	for key, value := range plugin.entry {
		entry[key] = value
	}
	config := map[string]any{"listeners": []any{map[string]any{"unix": socket}}, "audit": map[string]any{"path": "audit.jsonl", "fsync": "never"}, "plugins": []any{entry}}
	data, err := json.MarshalIndent(config, "", "  ")
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	configPath := filepath.Join(dir, "hookd.json")
	if err := os.WriteFile(configPath, data, 0o600); err != nil {
		t.Fatalf("hookdtest: %v", err)
	}

	cmd := exec.Command(command[0], append(command[1:], "serve", "--config", configPath)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+dir)
	output := &daemonOutput{serving: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = output, output
	if err := cmd.Start(); err != nil {
		t.Fatalf("hookdtest: starting %v: %v", command, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	select {
	case <-output.serving:
	case <-exited:
		t.Fatalf("hookdtest: the daemon exited before serving:\n%s", output)
	case <-time.After(readyWithin):
		t.Fatalf("hookdtest: the daemon did not serve within %v:\n%s", readyWithin, output)
	}
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &Daemon{Host: hookdv1.NewHookHostClient(conn), Admin: hookdv1.NewHookAdminClient(conn), Target: "unix://" + socket, Plugin: plugin.name, Dir: dir}
	if err := d.waitHealthy(t.Context()); err != nil {
		t.Fatalf("hookdtest: %v\ndaemon output:\n%s", err, output)
	}
	return d
}

// waitHealthy polls ListPlugins until the plugin is described and serving (bounded).
func (d *Daemon) waitHealthy(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyWithin)
	defer cancel()
	var last *hookdv1.PluginStatus
	for {
		list, err := d.Admin.ListPlugins(ctx, &hookdv1.ListPluginsRequest{})
		if err == nil {
			for _, p := range list.GetPlugins() {
				if p.GetName() == d.Plugin {
					last = p
				}
			}
			if last.GetHealth() == hookdv1.PluginHealth_PLUGIN_HEALTH_SERVING && last.GetSubscriptions() == "described" {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("plugin %s not serving (last status %v, last error %v)", d.Plugin, last, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PreTool evaluates the pre-tool point (waterfall, guards, approval) for call in a session of its
// own, as an agent would, and returns the daemon's answer.
func (d *Daemon) PreTool(ctx context.Context, session string, call *hookdv1.ToolCall) (*hookdv1.EvaluatePreToolResponse, error) {
	s := Session(session)
	return d.Host.EvaluatePreTool(d.Context(ctx), &hookdv1.EvaluatePreToolRequest{Event: &hookdv1.PreToolEvent{Session: s, Call: InSession(call, s)}, AgentResolvesAsk: true})
}

// PostTool evaluates the post-tool point for call and result.
func (d *Daemon) PostTool(ctx context.Context, session string, call *hookdv1.ToolCall, result *hookdv1.ToolResult) (*hookdv1.EvaluatePostToolResponse, error) {
	s := Session(session)
	return d.Host.EvaluatePostTool(d.Context(ctx), &hookdv1.EvaluatePostToolRequest{Event: &hookdv1.PostToolEvent{Session: s, Call: InSession(call, s), Result: result}})
}

// daemonOutput keeps the daemon's output and closes serving once its "hookd serving" log line
// (a JSON line on stdout) has been written.
type daemonOutput struct {
	mu      sync.Mutex
	text    strings.Builder
	serving chan struct{}
	seen    bool
}

func (o *daemonOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.text.Write(p)
	if !o.seen && strings.Contains(o.text.String(), `"msg":"hookd serving"`) {
		o.seen = true
		close(o.serving)
	}
	return len(p), nil
}

func (o *daemonOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.text.String()
}

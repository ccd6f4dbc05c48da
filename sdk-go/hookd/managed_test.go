package hookd_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

const helperEnv = "HOOKD_SDK_TEST_HELPER"

// TestHelperProcess is not a test: run by TestManagedPluginStopsWhenTheDaemonDies as the
// "daemon" (role parent: starts the plugin and waits to be killed) and the managed plugin (role
// plugin: serves on $HOOKD_PLUGIN_SOCKET, logging to $HOOKD_SDK_TEST_LOG).
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "parent":
		child := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		child.Env = append(os.Environ(), helperEnv+"=plugin")
		if err := child.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(child.Process.Pid)
		select {} // until killed
	case "plugin":
		log, err := os.OpenFile(os.Getenv("HOOKD_SDK_TEST_LOG"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			os.Exit(2)
		}
		plugin := &hookd.Plugin{Name: "orphan", PreTool: passPreTool}
		err = hookd.Serve(context.Background(), plugin, hookd.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
		fmt.Fprintf(log, "serve returned %v\n", err)
		os.Exit(0)
	}
}

// In managed mode the plugin serves on the socket the daemon names and stops on its own once the
// daemon is gone, even when the daemon was SIGKILLed and could not stop it.
func TestManagedPluginStopsWhenTheDaemonDies(t *testing.T) {
	dir, err := os.MkdirTemp("", "managed")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket, logPath := filepath.Join(dir, "plugin.sock"), filepath.Join(dir, "plugin.log")

	parent := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	parent.Env = append(os.Environ(), helperEnv+"=parent", hookd.SocketEnv+"="+socket, "HOOKD_SDK_TEST_LOG="+logPath)
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pluginPid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("parent said %q", line)
	}
	t.Cleanup(func() { _ = syscall.Kill(pluginPid, syscall.SIGKILL) }) // only if the test failed

	conn, err := grpc.NewClient("unix:"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	// WaitForReady: the call waits until the plugin listens.
	health, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: hookd.HealthService}, grpc.WaitForReady(true))
	if err != nil || health.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", health, err)
	}
	if resp, err := hookdv1.NewHookPluginClient(conn).Describe(ctx, &hookdv1.DescribeRequest{}); err != nil || resp.GetManifest().GetName() != "orphan" {
		t.Fatalf("describe: %v %v", resp, err)
	}

	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	// Bounded wait for the plugin's own log to say it stopped (it checks its parent periodically).
	for !strings.Contains(readFile(logPath), "serve returned <nil>") {
		select {
		case <-ctx.Done():
			t.Fatalf("the plugin did not stop after its daemon died; its log:\n%s", readFile(logPath))
		case <-time.After(50 * time.Millisecond):
		}
	}
	if got := readFile(logPath); !strings.Contains(got, "the daemon that started this plugin is gone; stopping") {
		t.Fatalf("log:\n%s", got)
	}
	if _, err := os.Stat(socket); !os.IsNotExist(err) {
		t.Fatalf("socket still there after the plugin stopped: %v", err)
	}
}

func readFile(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

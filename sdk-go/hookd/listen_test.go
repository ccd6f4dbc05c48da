package hookd_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// Listen, Serve and ServeListener: sockets, the address, draining on shutdown, the grace period.

// shortDir returns a directory whose socket paths stay under the ~108-byte limit.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ps")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestListenReplacesStaleSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "p.sock")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close() // the file stays, as after a crash

	lis, err := hookd.Listen("unix:" + path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	lis.Close()
}

func TestListenRefusesLiveSocketAndOtherFiles(t *testing.T) {
	dir := shortDir(t)
	live, err := hookd.Listen("unix://" + filepath.Join(dir, "live.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := hookd.Listen("unix:" + filepath.Join(dir, "live.sock")); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("Listen over a live socket: err = %v", err)
	}

	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := hookd.Listen("unix:" + file); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a plain file: err = %v", err)
	}
}

func TestServeNeedsAnAddress(t *testing.T) {
	t.Setenv(hookd.SocketEnv, "")
	err := hookd.Serve(t.Context(), &hookd.Plugin{Name: "p", PreTool: passPreTool})
	if err == nil || !strings.Contains(err.Error(), hookd.SocketEnv) {
		t.Fatalf("err = %v, want one naming %s", err, hookd.SocketEnv)
	}
}

// slowPlugin answers PreTool once release is closed.
func slowPlugin(started, release chan struct{}) *hookd.Plugin {
	return &hookd.Plugin{Name: "slow", PreTool: func(context.Context, *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
		close(started)
		<-release
		return hookd.PreTool.Allow(), nil
	}}
}

// closeSignal is a listener that closes closed when it is closed: the server has begun to stop.
type closeSignal struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *closeSignal) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

func TestServeReportsHealthAndDrainsOnShutdown(t *testing.T) {
	addr := "unix:" + filepath.Join(shortDir(t), "p.sock")
	lis, err := hookd.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	plugin := slowPlugin(started, release)
	stopping := &closeSignal{Listener: lis, closed: make(chan struct{})}
	ctx, shutdown := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- hookd.ServeListener(ctx, stopping, plugin, hookd.WithGrace(10*time.Second)) }()

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	health := healthpb.NewHealthClient(conn)
	for _, service := range []string{"", "hookd.v1.HookPlugin"} {
		resp, err := health.Check(t.Context(), &healthpb.HealthCheckRequest{Service: service})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health of %q = %v, %v; want SERVING", service, resp, err)
		}
	}

	called := make(chan error, 1)
	go func() {
		resp, err := hookdv1.NewHookPluginClient(conn).PreTool(t.Context(), &hookdv1.PreToolRequest{})
		if err == nil && resp.GetDecision().GetAllow() == nil {
			err = fmt.Errorf("answer %v, want allow", resp)
		}
		called <- err
	}()
	<-started
	shutdown()
	<-stopping.closed // the server stopped accepting: shutdown has begun while the call is held
	// Not a synchronization: a Serve that did not wait for the call would return now, and this
	// window is how long it is given to show it.
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a call in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-called; err != nil {
		t.Errorf("in-flight call: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeCutsOpenStreamsAfterGrace(t *testing.T) {
	addr := "unix:" + filepath.Join(shortDir(t), "p.sock")
	lis, err := hookd.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, shutdown := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- hookd.ServeListener(ctx, lis, &hookd.Plugin{Name: "p", PreTool: passPreTool}, hookd.WithGrace(200*time.Millisecond))
	}()

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	watch, err := healthpb.NewHealthClient(conn).Watch(t.Context(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("watch = %v, %v; want SERVING", resp, err)
	}

	shutdown()
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("watch after shutdown = %v, %v; want NOT_SERVING", resp, err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve still waiting on an open stream long after its grace")
	}
}

// Package pluginserver serves a hookd HookPlugin the way the daemon expects of a remote or
// managed plugin: on the Unix socket named by HOOKD_PLUGIN_SOCKET (or an explicit address), next
// to the standard grpc.health.v1 service, draining in-flight calls when its context ends.
package pluginserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	hookdv1 "example.com/hookd/hooks-examples/go/gen/hookd/v1"
)

// SocketEnv is the environment variable through which the daemon hands a managed plugin the path
// of the Unix socket to serve on.
const SocketEnv = "HOOKD_PLUGIN_SOCKET"

// Grace is how long in-flight calls may take to finish after shutdown begins; open streams (such
// as a health Watch) are cut when it runs out. It stays under the 3 s the daemon gives a managed
// plugin between SIGTERM and SIGKILL by default.
const Grace = 2 * time.Second

// Run serves plugin until ctx ends, on listen when it is set and otherwise on the socket from
// SocketEnv.
func Run(ctx context.Context, listen string, plugin hookdv1.HookPluginServer) error {
	addr := listen
	if addr == "" {
		path := os.Getenv(SocketEnv)
		if path == "" {
			return fmt.Errorf("no address: pass --listen or set %s", SocketEnv)
		}
		addr = "unix:" + path
	}
	lis, err := Listen(addr)
	if err != nil {
		return err
	}
	slog.Info("serving", "address", lis.Addr().String())
	err = Serve(ctx, lis, plugin, Grace)
	slog.Info("stopped")
	return err
}

// Listen opens addr, which is either "unix:PATH" (also "unix://ABSOLUTE_PATH") or a TCP
// "HOST:PORT". A socket file left behind by a dead process is replaced; a live one is an error.
func Listen(addr string) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		return net.Listen("tcp", addr)
	}
	path = strings.TrimPrefix(path, "//")
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	return net.Listen("unix", path)
}

func removeStaleSocket(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket", path)
	}
	if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
		conn.Close()
		return fmt.Errorf("%s is in use by another server", path)
	}
	return os.Remove(path)
}

// Serve serves plugin and the health service on lis until ctx ends. It then reports NOT_SERVING,
// lets in-flight calls finish for up to grace, and returns nil once the server has stopped.
func Serve(ctx context.Context, lis net.Listener, plugin hookdv1.HookPluginServer, grace time.Duration) error {
	srv := grpc.NewServer()
	healthSrv := health.NewServer()
	healthpb.RegisterHealthServer(srv, healthSrv)
	hookdv1.RegisterHookPluginServer(srv, plugin)
	healthSrv.SetServingStatus(hookdv1.HookPlugin_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}

	healthSrv.Shutdown()
	drained := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(drained)
	}()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		srv.Stop()
		<-drained
	}
	return <-served
}

package hookd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// SocketEnv is the environment variable through which the daemon hands a managed plugin the
// path of the Unix socket to serve on: a bare filesystem path, not a URI.
const SocketEnv = "HOOKD_PLUGIN_SOCKET"

// HealthService is the grpc.health.v1 service name the daemon checks first (then "").
const HealthService = "hookd.v1.HookPlugin"

// DefaultGrace is how long calls in flight may finish once shutdown begins: under the 3 s the
// daemon gives a managed plugin between SIGTERM and SIGKILL by default.
const DefaultGrace = 2 * time.Second

// parentPoll is how often a managed plugin checks that the daemon that started it is alive.
const parentPoll = 500 * time.Millisecond

// ServeOption configures Serve and ServeListener.
type ServeOption func(*serveConfig)

type serveConfig struct {
	address     string
	grace       time.Duration
	grpcOptions []grpc.ServerOption
	onError     func(point hookdv1.Point, err error)
	logger      *slog.Logger
}

// WithAddress serves on addr ("unix:PATH", "unix:///ABSOLUTE_PATH" or TCP "HOST:PORT") instead of
// $HOOKD_PLUGIN_SOCKET. An empty addr changes nothing.
func WithAddress(addr string) ServeOption { return func(c *serveConfig) { c.address = addr } }

// WithGrace sets how long calls in flight may finish after shutdown begins (default DefaultGrace).
func WithGrace(grace time.Duration) ServeOption { return func(c *serveConfig) { c.grace = grace } }

// WithGRPCOptions adds options to the gRPC server (interceptors, credentials, limits).
func WithGRPCOptions(options ...grpc.ServerOption) ServeOption {
	return func(c *serveConfig) { c.grpcOptions = append(c.grpcOptions, options...) }
}

// WithErrorHandler receives every handler failure (an error, a panic, an invalid decision) before
// the daemon gets it as an error status. Default: one log line on the logger.
func WithErrorHandler(onError func(point hookdv1.Point, err error)) ServeOption {
	return func(c *serveConfig) { c.onError = onError }
}

// WithLogger sets the logger for lifecycle lines and, by default, handler failures (default
// slog.Default(), which a managed plugin's daemon picks up from stderr).
func WithLogger(logger *slog.Logger) ServeOption { return func(c *serveConfig) { c.logger = logger } }

func configure(options []ServeOption) *serveConfig {
	c := &serveConfig{grace: DefaultGrace, logger: slog.Default()}
	for _, option := range options {
		option(c)
	}
	if c.onError == nil {
		logger := c.logger
		c.onError = func(point hookdv1.Point, err error) {
			logger.Error("handler failed", "point", PointName(point), "error", err)
		}
	}
	return c
}

// Main serves plugin (see Serve) until SIGTERM or SIGINT and exits the process: 0 after a clean
// stop, 1 with the error on stderr otherwise. It is the whole main function of most plugins.
func Main(plugin *Plugin, options ...ServeOption) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	err := Serve(ctx, plugin, options...)
	stop()
	if err != nil {
		name := "hookd plugin"
		if plugin != nil && plugin.Name != "" {
			name = plugin.Name
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve validates plugin and serves it until ctx ends, on WithAddress's address or else on the
// socket path in $HOOKD_PLUGIN_SOCKET (managed mode: it also stops when the process that started
// it, the daemon, is gone). It then reports NOT_SERVING, lets calls in flight finish for up to the
// grace period and returns nil.
func Serve(ctx context.Context, plugin *Plugin, options ...ServeOption) error {
	c := configure(options)
	if _, err := plugin.Manifest(); err != nil {
		return err
	}
	addr, managed := c.address, false
	if addr == "" {
		path := os.Getenv(SocketEnv)
		if path == "" {
			return fmt.Errorf("no address: use hookd.WithAddress or set %s to a socket path", SocketEnv)
		}
		addr, managed = "unix:"+strings.TrimPrefix(path, "unix:"), true
	}
	lis, err := Listen(addr)
	if err != nil {
		return err
	}
	if managed {
		var stop context.CancelFunc
		ctx, stop = context.WithCancel(ctx)
		defer stop()
		go watchParent(ctx, os.Getppid(), stop, c.logger)
	}
	c.logger.Info("serving", "plugin", plugin.Name, "address", lis.Addr().String())
	err = serve(ctx, lis, plugin, c)
	c.logger.Info("stopped", "plugin", plugin.Name)
	return err
}

// ServeListener serves plugin on lis until ctx ends, as Serve does; lis is closed on return.
func ServeListener(ctx context.Context, lis net.Listener, plugin *Plugin, options ...ServeOption) error {
	return serve(ctx, lis, plugin, configure(options))
}

func serve(ctx context.Context, lis net.Listener, plugin *Plugin, c *serveConfig) error {
	manifest, err := plugin.Manifest()
	if err != nil {
		lis.Close()
		return err
	}
	srv := grpc.NewServer(c.grpcOptions...)
	healthSrv := health.NewServer() // "" starts SERVING
	healthSrv.SetServingStatus(HealthService, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, healthSrv)
	impl := &server{plugin: plugin, name: plugin.Name, manifest: manifest, onError: c.onError, draining: make(chan struct{})}
	hookdv1.RegisterHookPluginServer(srv, impl)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	healthSrv.Shutdown()
	close(impl.draining)
	drained := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(drained)
	}()
	timer := time.NewTimer(c.grace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		srv.Stop() // cancels the calls still running
		<-drained
	}
	return <-served
}

// watchParent calls stop once the process is no longer the child of parent: the daemon died (even
// by SIGKILL) and the plugin was re-parented.
func watchParent(ctx context.Context, parent int, stop context.CancelFunc, logger *slog.Logger) {
	ticker := time.NewTicker(parentPoll)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if os.Getppid() != parent {
				logger.Warn("the daemon that started this plugin is gone; stopping", "daemon_pid", parent)
				stop()
				return
			}
		}
	}
}

// Listen opens addr: "unix:PATH" (also "unix://ABSOLUTE_PATH") or a TCP "HOST:PORT". A socket
// file left behind by a dead process is replaced; one a live server answers on is an error.
func Listen(addr string) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		return net.Listen("tcp", addr)
	}
	path = strings.TrimPrefix(path, "//")
	if path == "" {
		return nil, fmt.Errorf("address %q: empty socket path", addr)
	}
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

// Package hookdtest tests hookd plugins written with the Go SDK, two ways:
//
//   - Start serves a plugin on a temporary Unix socket, exactly as Serve does for the daemon, and
//     returns a Client whose typed methods send one event and return the decision (over the
//     unary RPCs, or over the Attach stream with OverStream);
//   - StartDaemon runs a real hookd daemon (`hookd serve`, see FindDaemon) on a temporary socket
//     with the plugin configured, and returns its agent-facing HookHost client, so a test sees
//     the decisions the daemon makes of the plugin's answers.
//
// Events are built with the helpers of this package (ToolCall, PreToolEvent, Prompt, ...) or as
// hookdv1 literals; Kind names the variant of a decision ("deny", "accept", ...).
package hookdtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// Option configures Start.
type Option func(*startConfig)

type startConfig struct {
	stream  bool
	options []hookd.ServeOption
}

// OverStream makes the Client send its calls over one HookPlugin.Attach stream instead of the
// unary RPCs.
func OverStream() Option { return func(c *startConfig) { c.stream = true } }

// WithServeOptions passes options to hookd.ServeListener.
func WithServeOptions(options ...hookd.ServeOption) Option {
	return func(c *startConfig) { c.options = append(c.options, options...) }
}

// Client calls a plugin served by Start the way the daemon does.
type Client struct {
	t       testing.TB
	conn    *grpc.ClientConn
	address string
	stream  bool

	attachOnce sync.Once
	attach     *attachClient
	attachErr  error
}

// Start serves plugin with hookd.ServeListener on a fresh Unix socket and connects to it. The
// server is stopped, and its result checked, when the test ends. An invalid plugin fails the test.
func Start(t testing.TB, plugin *hookd.Plugin, options ...Option) *Client {
	t.Helper()
	config := &startConfig{}
	for _, option := range options {
		option(config)
	}
	address := socketAddress(t, "plugin.sock")
	lis, err := hookd.Listen(address)
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hookd.ServeListener(ctx, lis, plugin, config.options...) }()

	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	c := &Client{t: t, conn: conn, address: address, stream: config.stream}
	t.Cleanup(func() {
		if c.attach != nil {
			c.attach.close()
		}
		conn.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("hookdtest: serving %s: %v", plugin.Name, err)
		}
	})
	return c
}

// socketAddress is "unix:" + a path in a fresh short directory removed when the test ends
// (t.TempDir() can exceed the ~108-byte limit of a socket path).
func socketAddress(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hookdtest")
	if err != nil {
		t.Fatalf("hookdtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return "unix:" + filepath.Join(dir, name)
}

// Address is where the plugin listens ("unix:PATH").
func (c *Client) Address() string { return c.address }

// Conn is the client connection to the plugin (for raw HookPlugin or health calls).
func (c *Client) Conn() *grpc.ClientConn { return c.conn }

// Manifest is the plugin's Describe answer; a failed Describe fails the test.
func (c *Client) Manifest() *hookdv1.PluginManifest {
	c.t.Helper()
	resp, err := hookdv1.NewHookPluginClient(c.conn).Describe(c.t.Context(), &hookdv1.DescribeRequest{PluginName: "hookdtest"})
	if err != nil {
		c.t.Fatalf("hookdtest: Describe: %v", err)
	}
	return resp.GetManifest()
}

// call sends one point's request over the client's transport and fills response.
func (c *Client) call(ctx context.Context, point hookdv1.Point, method string, request, response proto.Message) error {
	if !c.stream {
		return c.conn.Invoke(ctx, "/hookd.v1.HookPlugin/"+method, request, response)
	}
	c.attachOnce.Do(func() { c.attach, c.attachErr = openAttach(c.conn) })
	if c.attachErr != nil {
		return fmt.Errorf("hookdtest: Attach: %w", c.attachErr)
	}
	return c.attach.call(ctx, point, request, response)
}

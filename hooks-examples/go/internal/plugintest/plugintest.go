// Package plugintest starts a HookPlugin server on a temporary Unix socket for tests and returns
// a connection to it, the way the daemon would connect.
package plugintest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	hookdv1 "example.com/hookd/hooks-examples/go/gen/hookd/v1"
	"example.com/hookd/hooks-examples/go/internal/pluginserver"
)

// Start serves plugin with pluginserver.Serve on a fresh Unix socket and dials it. The server is
// shut down, and Serve's result checked, when the test ends.
func Start(t *testing.T, plugin hookdv1.HookPluginServer) *grpc.ClientConn {
	t.Helper()
	// t.TempDir() can exceed the ~108-byte limit of a socket path; a short directory cannot.
	dir, err := os.MkdirTemp("", "plugin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	addr := "unix:" + filepath.Join(dir, "plugin.sock")

	lis, err := pluginserver.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- pluginserver.Serve(ctx, lis, plugin, pluginserver.Grace) }()

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return conn
}

// Package hookd is the Go SDK for hookd plugins: write one handler per extension point, and Serve
// runs them as an out-of-process plugin the daemon calls over gRPC.
//
//	plugin := &hookd.Plugin{
//		Name: "no-rm",
//		PreTool: func(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
//			if ev.GetCall().GetToolName() == "rm" {
//				return hookd.PreTool.Deny("rm is not allowed"), nil
//			}
//			return hookd.PreTool.Pass(), nil
//		},
//	}
//	hookd.Main(plugin) // serves on $HOOKD_PLUGIN_SOCKET until SIGTERM
//
// What the SDK does for the plugin:
//   - the manifest (Describe) is derived from the handlers that are set, with per-point options
//     from Plugin.Options; a plugin without handlers is refused;
//   - grpc.health.v1 reports SERVING for "" and "hookd.v1.HookPlugin" (the names the daemon
//     checks) until shutdown begins;
//   - both transports are served by the same handlers: the unary RPCs and the Attach stream
//     (calls run concurrently, are answered as they finish, and a cancel frame cancels the
//     handler's context);
//   - the handler's context carries the call's deadline and is cancelled when the daemon stops
//     waiting (a unary call's cancellation, a stream's cancel frame, the stream ending);
//   - a handler's error becomes the status the daemon reports as the call's failure (errors that
//     already are gRPC statuses pass unchanged); a panic, a nil decision or a decision with no
//     variant set is a failure too, never a silent pass;
//   - managed mode: without an explicit address it listens on $HOOKD_PLUGIN_SOCKET (a bare socket
//     path) and stops when the daemon that started it is gone.
//
// The generated protobuf package is github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1 (hookdv1);
// events and decisions are its types, built with the constructors in this package
// (hookd.PreTool.Deny, hookd.PostTool.ReplaceContent, ...).
package hookd

package hookdtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

const readmeMarker = "<!-- readme-plugin:"

// readmePlugin is the Go code block that follows the marker in sdk-go/README.md.
func readmePlugin(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), readmeMarker)
	if !ok {
		t.Fatalf("README.md has no %q marker", readmeMarker)
	}
	_, after, ok = strings.Cut(after, "```go\n")
	if !ok {
		t.Fatal("no ```go block after the marker")
	}
	code, _, ok := strings.Cut(after, "```\n")
	if !ok {
		t.Fatal("the ```go block after the marker is not closed")
	}
	return code
}

// buildModule writes main.go into a fresh module that requires the SDK through a replace
// directive, the way a plugin author outside this repository would, and builds it.
func buildModule(t *testing.T, code string) string {
	t.Helper()
	sdk, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/readme-plugin\n\ngo 1.26.0\n\nrequire github.com/hookd-dev/hookd/sdk-go v0.0.0\n\nreplace github.com/hookd-dev/hookd/sdk-go => " + sdk + "\n"
	sum, err := os.ReadFile(filepath.Join(sdk, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"go.mod": goMod, "go.sum": string(sum), "main.go": code} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	binary := filepath.Join(dir, "plugin")
	build := exec.Command("go", "build", "-mod=mod", "-o", binary, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the README plugin: %v\n%s", err, out)
	}
	return binary
}

func TestReadmePluginUnderARealDaemon(t *testing.T) {
	code := readmePlugin(t)
	if lines := strings.Count(code, "\n"); lines >= 40 {
		t.Errorf("the README plugin has %d lines; it is promised under 40", lines)
	}
	daemon := hookdtest.StartDaemon(t, hookdtest.Managed("go-guard", buildModule(t, code)))

	denied, err := daemon.PreTool(t.Context(), "readme-1", hookdtest.ToolCall("Bash", `{"command":"rm -rf /tmp/x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if denied.GetDecision().GetDeny().GetReason() != "rm -rf is not allowed here" || denied.GetTrace().GetDecidedBy() != "go-guard" {
		t.Fatalf("rm -rf: %v", denied)
	}
	allowed, err := daemon.PreTool(t.Context(), "readme-2", hookdtest.ToolCall("Bash", `{"command":"ls"}`))
	if err != nil {
		t.Fatal(err)
	}
	if hookdtest.Kind(allowed.GetDecision()) != "allow" {
		t.Fatalf("ls: %v", allowed)
	}

	output := hookdtest.Success(`"ok"`, "export TOKEN=abc123 and go")
	redacted, err := daemon.PostTool(t.Context(), "readme-3", hookdtest.ToolCall("Bash", `{"command":"env"}`), output)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, block := range redacted.GetResult().GetSuccess().GetContent() {
		seen = append(seen, block.GetText())
	}
	if strings.Join(seen, "\n") != "export TOKEN=[redacted] and go" || redacted.GetResult().GetSuccess().GetValueJson() != `"ok"` {
		t.Fatalf("post-tool result: %v", redacted)
	}

	// The daemon calls the SDK plugin over the Attach stream.
	list, err := daemon.Admin.ListPlugins(t.Context(), &hookdv1.ListPluginsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if p := list.GetPlugins()[0]; p.GetTransport() != "stream" || p.GetKind() != "managed" {
		t.Fatalf("plugin status: %v", p)
	}
}

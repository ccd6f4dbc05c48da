#!/usr/bin/env bash
# Regenerates the gRPC stubs of the Python and Go example plugins from proto/hookd/v1 with local
# tools only, deterministically (CI can regenerate and `git diff --exit-code` the result):
#   - Python: grpc_tools.protoc from .venv (scripts/setup-polyglot.sh installs it) writes the one
#     generated Python tree, the Python SDK's sdk-python/src/hookd_plugin/_gen/hookd/v1, with imports
#     rewritten to be package-relative so the SDK never puts a top-level `hookd` package on sys.path
#     and `pip install sdk-python` carries its own stubs; code on the raw stubs (the raw conformance
#     plugins, the bench's Python policy) imports them as `hookd_plugin.stubs`;
#   - Go: `buf generate` with sdk-go/buf.gen.yaml and protoc-gen-go / protoc-gen-go-grpc installed
#     at pinned versions into sdk-go/.bin, writing sdk-go/gen (package hookdv1 of the Go SDK, which
#     the Go examples and conformance plugins import).
set -euo pipefail

# protoc-gen-go is released with the protobuf runtime, so its version is read from sdk-go/go.mod.
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

die() {
  echo "gen-polyglot: $*" >&2
  exit 1
}

python=.venv/bin/python
"$python" -c 'import grpc_tools' 2>/dev/null ||
  die "grpcio-tools is not installed in .venv; run scripts/setup-polyglot.sh first"
command -v go >/dev/null || die "go not found; install Go 1.21 or later"
[[ -x node_modules/.bin/buf ]] || die "buf is not installed; run npm ci at the repository root"

protos=(proto/hookd/v1/*.proto)
mapfile -t services < <(grep -l '^service ' "${protos[@]}")

# Python: messages with .pyi type stubs for every file, service stubs only where there are
# services, with `from hookd.v1 import` made relative to the SDK's package. protoc does not write
# package markers, so the __init__.py files are written here.
sdk_gen=sdk-python/src/hookd_plugin/_gen
rm -rf "$sdk_gen"
mkdir -p "$sdk_gen/hookd/v1"
"$python" -m grpc_tools.protoc -I proto --python_out="$sdk_gen" --pyi_out="$sdk_gen" "${protos[@]}"
"$python" -m grpc_tools.protoc -I proto --grpc_python_out="$sdk_gen" "${services[@]}"
sed -i 's/^from hookd\.v1 import /from hookd_plugin._gen.hookd.v1 import /' "$sdk_gen"/hookd/v1/*.py "$sdk_gen"/hookd/v1/*.pyi
for init in "$sdk_gen/__init__.py" "$sdk_gen/hookd/__init__.py" "$sdk_gen/hookd/v1/__init__.py"; do
  echo '"""Generated from proto/hookd by scripts/gen-polyglot.sh. DO NOT EDIT."""' >"$init"
done
# The points' names as a Literal type for the SDK's signatures (a type cannot be read at import),
# taken from the (hookd.v1.point) options of the stubs just written.
"$python" - "$sdk_gen" <<'PY'
import sys
import types

# Only the generated package: the SDK's own modules import the file being written.
package = types.ModuleType("hookd_plugin")
package.__path__ = [sys.argv[1].removesuffix("/_gen")]
sys.modules["hookd_plugin"] = package
from hookd_plugin._gen.hookd.v1 import point_options_pb2, types_pb2

values = types_pb2.DESCRIPTOR.enum_types_by_name["Point"].values
names = [v.GetOptions().Extensions[point_options_pb2.point].name for v in values if v.number != 0]
body = ",\n".join(f'    "{name}"' for name in names)
with open(sys.argv[1] + "/hookd/v1/point_names.py", "w") as out:
    out.write(
        '"""Generated from the (hookd.v1.point) options of proto/hookd/v1 by scripts/gen-polyglot.sh. DO NOT EDIT."""\n\n'
        "from typing import Literal\n\n"
        f"#: The daemon's names of the points, in Point order.\nPointName = Literal[\n{body},\n]\n"
    )
PY

# Go: install the pinned plugins unless they are already there, then let buf run them.
gobin=$root/sdk-go/.bin
protoc_gen_go_version=$(cd sdk-go && go list -m -f '{{.Version}}' google.golang.org/protobuf)
install_plugin() { # NAME PACKAGE VERSION VERSION_OUTPUT
  if [[ "$("$gobin/$1" --version 2>/dev/null)" != "$4" ]]; then
    GOBIN=$gobin go install "$2@$3"
  fi
}
install_plugin protoc-gen-go google.golang.org/protobuf/cmd/protoc-gen-go \
  "$protoc_gen_go_version" "protoc-gen-go $protoc_gen_go_version"
install_plugin protoc-gen-go-grpc google.golang.org/grpc/cmd/protoc-gen-go-grpc \
  "$PROTOC_GEN_GO_GRPC_VERSION" "protoc-gen-go-grpc ${PROTOC_GEN_GO_GRPC_VERSION#v}"
PATH=$gobin:$PATH npx --no-install buf generate --template sdk-go/buf.gen.yaml

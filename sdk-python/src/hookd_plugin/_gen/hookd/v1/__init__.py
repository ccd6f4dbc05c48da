"""Generated from proto/hookd by scripts/gen-polyglot.sh. DO NOT EDIT."""

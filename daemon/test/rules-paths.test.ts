// The path functions of rules: `~` and `..` resolved against the session's cwd before a
// containment or glob test, so a path cannot climb out of a directory unseen.
import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import { normalizePath, pathMatches, pathWithin } from "../src/plugins/rules/functions.js";

describe("path.within / path.normalize / path.matches", () => {
  const cwd = "/home/dev/project";

  it.each([
    ["src/a.ts", ".", true],
    ["./src/../src/a.ts", cwd, true],
    ["../other/a.ts", ".", false],
    ["src/../../other", cwd, false],
    ["/home/dev/project-evil/x", cwd, false],
    ["/home/dev/project", cwd, true],
    ["/etc/passwd", "/", true],
    ["~/.ssh/id_rsa", "~/.ssh", true],
    ["~/.ssh/../.aws/credentials", "~/.ssh", false],
    ["$HOME", "~", true],
    ["${HOME}/.ssh/id_rsa", "~/.ssh", true],
    ["$HOME/x", cwd, false],
    ["a/$HOME", cwd, true],
  ])("%s within %s: %s", (path, dir, expected) => {
    expect(pathWithin(path, dir, cwd)).toBe(expected);
  });

  it("normalises against the cwd and the home directory", () => {
    expect(normalizePath("a/../b", cwd)).toBe("/home/dev/project/b");
    expect(normalizePath("~/x", cwd)).toBe(`${homedir()}/x`);
    expect(normalizePath("/a/./b//c/..", cwd)).toBe("/a/b");
  });

  it.each([
    [".env", ".env*", true],
    ["config/.env.local", ".env*", true],
    ["environment.ts", ".env*", false],
    ["src/deep/x.pem", "**/*.pem", true],
    [".git/config", ".git/**", true],
    ["sub/.git/hooks/pre-commit", "**/.git/hooks/*", true],
    ["~/.ssh/id_ed25519", "~/.ssh/*", true],
    ["../project/.git/HEAD", "/home/dev/project/.git/*", true],
  ])("%s matches %s: %s", (path, pattern, expected) => {
    expect(pathMatches(path, pattern, cwd)).toBe(expected);
  });
});

describe("a path that starts with a shell variable other than HOME", () => {
  it("cannot be placed: an error, never a path inside the cwd", () => {
    expect(() => pathWithin("$TMPDIR/x", "/home/dev/project", "/home/dev/project")).toThrow(/the path "\$TMPDIR\/x" starts with the shell variable \$TMPDIR, whose value a rule cannot know/);
    expect(() => pathWithin("${PROJECT}", "/", "/")).toThrow(/shell variable \$PROJECT/);
  });
});

describe("a session without a working directory", () => {
  it("a relative path or directory is an error, never resolved against /", () => {
    expect(() => pathWithin("/etc/passwd", "", "")).toThrow(/an empty path/);
    expect(() => pathWithin("src/a.ts", "/home/dev", "")).toThrow(/the relative path "src\/a.ts" cannot be resolved: the session has no working directory/);
    expect(() => pathMatches("x", "src/*.ts", "")).toThrow(/has no working directory/);
    expect(pathWithin("/home/dev/a", "/home/dev", "")).toBe(true);
  });
});

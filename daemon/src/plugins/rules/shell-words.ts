// shell.commands for rules: splits a shell command line into the simple commands it runs, as
// argv lists, the way a model's bypass attempts would be read by a shell: quotes and escapes
// removed, `&&` `||` `;` `|` `&` and newlines split, `$(…)` and backquotes run too, and wrappers
// (`env X=1`, `command`, `sudo`, `sh -c '…'`, `xargs`, ...) and paths like /bin/rm resolved.
// A splitter for reading policy, not a shell: no expansion of variables or globs.

/** The simple commands of a command line, each as argv with its wrappers and its program's directory removed. */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [];
  collect(line, commands, 0);
  return commands;
}

// Nested `sh -c` and `$(…)` deeper than this are left as they are (a hostile line could nest forever).
const MAX_DEPTH = 8;

function collect(line: string, into: string[][], depth: number): void {
  const { commands, substitutions } = split(line);
  for (const argv of commands) {
    for (const resolved of resolveCommand(argv, depth)) into.push(resolved);
  }
  if (depth >= MAX_DEPTH) return;
  for (const inner of substitutions) collect(inner, into, depth + 1);
}

/** Wrappers whose operands are a command to run: unwrapped to that command. */
function resolveCommand(argv: readonly string[], depth: number): string[][] {
  let words = [...argv];
  // `X=1 Y=2 cmd`: assignments before the program.
  while (words.length > 0 && isAssignment(words[0] ?? "")) words = words.slice(1);
  if (words.length === 0) return [];
  words[0] = programName(words[0] ?? "");
  const program = words[0];
  const rest = words.slice(1);
  switch (program) {
    case "env":
      return resolveCommand(skipOptions(rest, new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]), true), depth);
    case "command":
    case "builtin":
    case "exec":
    case "nohup":
    case "time":
    case "stdbuf":
      return resolveCommand(skipOptions(rest, new Set(["-a"]), false), depth);
    case "sudo":
    case "doas":
      return resolveCommand(skipOptions(rest, new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"]), false), depth);
    case "nice":
    case "ionice":
      return resolveCommand(skipOptions(rest, new Set(["-n", "-c", "--adjustment"]), false), depth);
    case "timeout":
      return resolveCommand(skipOptions(rest, new Set(["-s", "-k", "--signal", "--kill-after"]), false).slice(1), depth);
    case "xargs":
      return resolveCommand(skipOptions(rest, new Set(["-I", "-i", "-n", "-P", "-d", "-L", "-s", "-E", "-a", "--max-args", "--max-procs", "--delimiter"]), false), depth);
    case "sh":
    case "bash":
    case "zsh":
    case "dash":
    case "ksh":
    case "fish":
      return shellScript(program, rest, depth);
    case "eval":
      if (depth >= MAX_DEPTH) return [words];
      return nested(rest.join(" "), depth);
    default:
      return [words];
  }
}

/** `sh -c 'script'`, `bash -lc 'script'`: the script's commands; any other shell use stays as it is. */
function shellScript(program: string, rest: readonly string[], depth: number): string[][] {
  let index = 0;
  let runsString = false;
  while (index < rest.length && (rest[index] ?? "").startsWith("-") && rest[index] !== "--") {
    const option = rest[index] ?? "";
    if (!option.startsWith("--") && option.slice(1).includes("c")) runsString = true;
    if (option === "-o" || option === "+o") index += 1;
    index += 1;
  }
  if (rest[index] === "--") index += 1;
  const script = rest[index];
  if (!runsString || script === undefined || depth >= MAX_DEPTH) return [[program, ...rest]];
  return nested(script, depth);
}

function nested(script: string, depth: number): string[][] {
  const inner: string[][] = [];
  collect(script, inner, depth + 1);
  return inner;
}

/** Drops leading options (and the values of those in `withValue`), and for env its assignments too. */
function skipOptions(words: readonly string[], withValue: ReadonlySet<string>, assignments: boolean): string[] {
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? "";
    if (word === "--") return words.slice(index + 1);
    if (assignments && isAssignment(word)) {
      index += 1;
      continue;
    }
    if (!word.startsWith("-") || word === "-") break;
    index += withValue.has(word) ? 2 : 1;
  }
  return words.slice(index);
}

const isAssignment = (word: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);

/** `/bin/rm` and `./rm` run rm as far as a rule is concerned. */
function programName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 && slash < word.length - 1 ? word.slice(slash + 1) : word;
}

// ---- the tokenizer ---------------------------------------------------------------------------

interface Split {
  readonly commands: string[][];
  /** The text inside `$(…)` and backquotes, run before the command that holds it. */
  readonly substitutions: string[];
}

const REDIRECTION = /^[0-9]*(>>?|<<?<?|>&|<&|&>>?|>\|)$/;

function split(line: string): Split {
  const commands: string[][] = [];
  const substitutions: string[] = [];
  let argv: string[] = [];
  let word = "";
  let inWord = false;
  let skipNextWord = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (skipNextWord) skipNextWord = false;
    else if (REDIRECTION.test(word)) skipNextWord = true;
    else argv.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    skipNextWord = false;
    if (argv.length > 0) commands.push(argv);
    argv = [];
  };
  let i = 0;
  while (i < line.length) {
    const char = line[i] ?? "";
    if (char === "\\") {
      // A backslash-newline joins lines; any other escaped character is itself (`\rm` is rm).
      if (line[i + 1] === "\n") i += 2;
      else {
        word += line[i + 1] ?? "";
        inWord = true;
        i += 2;
      }
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? line.length : end;
      word += line.slice(i + 1, stop);
      inWord = true;
      i = stop + 1;
    } else if (char === '"') {
      i = doubleQuoted(line, i + 1, (text) => (word += text), substitutions);
      inWord = true;
    } else if (char === "$" && line[i + 1] === "(") {
      const end = closingParen(line, i + 2);
      substitutions.push(line.slice(i + 2, end));
      word += line.slice(i, end + 1);
      inWord = true;
      i = end + 1;
    } else if (char === "`") {
      const end = line.indexOf("`", i + 1);
      const stop = end < 0 ? line.length : end;
      substitutions.push(line.slice(i + 1, stop));
      word += line.slice(i, stop + 1);
      inWord = true;
      i = stop + 1;
    } else if (char === "#" && !inWord) {
      const end = line.indexOf("\n", i);
      i = end < 0 ? line.length : end;
    } else if (char === " " || char === "\t") {
      endWord();
      i += 1;
    } else if (char === "\n" || char === ";" || char === "&" || char === "|" || char === "(" || char === ")") {
      // `2>&1` and `&>` are redirections, not a background `&`.
      if (char === "&" && (word.endsWith(">") || word.endsWith("<")) && inWord) {
        word += char;
        i += 1;
        continue;
      }
      if (char === "&" && line[i + 1] === ">") {
        endWord();
        word = "&>";
        inWord = true;
        i += 2;
        continue;
      }
      endCommand();
      i += 1;
    } else if ((char === ">" || char === "<") && inWord && !/^[0-9]*$/.test(word)) {
      // `a>b`: the word before the redirection ends there.
      endWord();
      word = char;
      inWord = true;
      i += 1;
    } else {
      if (inWord && REDIRECTION.test(word) && char !== ">" && char !== "<") endWord();
      word += char;
      inWord = true;
      i += 1;
    }
  }
  endCommand();
  return { commands, substitutions };
}

/** Reads a double-quoted string from `start` (after the quote); returns the index after its closing quote. */
function doubleQuoted(line: string, start: number, append: (text: string) => void, substitutions: string[]): number {
  let i = start;
  while (i < line.length && line[i] !== '"') {
    const char = line[i] ?? "";
    if (char === "\\" && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1] ?? "")) {
      if (line[i + 1] !== "\n") append(line[i + 1] ?? "");
      i += 2;
    } else if (char === "$" && line[i + 1] === "(") {
      const end = closingParen(line, i + 2);
      substitutions.push(line.slice(i + 2, end));
      append(line.slice(i, end + 1));
      i = end + 1;
    } else if (char === "`") {
      const end = line.indexOf("`", i + 1);
      const stop = end < 0 ? line.length : end;
      substitutions.push(line.slice(i + 1, stop));
      append(line.slice(i, stop + 1));
      i = stop + 1;
    } else {
      append(char);
      i += 1;
    }
  }
  return i + 1;
}

/** The index of the `)` closing a `$(` whose content starts at `start`, skipping quotes and nested parentheses. */
function closingParen(line: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < line.length) {
    const char = line[i];
    if (char === "\\") i += 2;
    else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      i = end < 0 ? line.length : end + 1;
    } else if (char === '"') {
      i += 1;
      while (i < line.length && line[i] !== '"') i += line[i] === "\\" ? 2 : 1;
      i += 1;
    } else {
      if (char === "(") depth += 1;
      if (char === ")") depth -= 1;
      if (depth === 0) return i;
      i += 1;
    }
  }
  return line.length;
}

/*
 * hook-timer LOG EVENT COMMAND...: runs COMMAND (stdin, stdout and stderr passed through, its exit
 * status returned) and appends "EVENT <wall ms>" to LOG: how long the agent waited for its hook
 * process, measured around fork/exec/wait with CLOCK_MONOTONIC. Costs ~0.2 ms itself; used where
 * the agent does not report hook timings (Codex).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fputs("usage: hook-timer LOG EVENT COMMAND...\n", stderr);
    return 1;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[3], argv + 3);
    perror("hook-timer: exec");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
  FILE *log = fopen(argv[1], "a");
  if (log) {
    fprintf(log, "%s %.3f\n", argv[2], ms);
    fclose(log);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

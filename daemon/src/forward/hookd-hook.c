/*
 * hookd-hook: the compiled twin of `hookd hook` (forward/hook.ts), for agents that run a command
 * hook per event and want the cost of /bin/true rather than of starting Node. Same options, same
 * environment defaults, same output and exit codes. It only moves bytes: it POSTs stdin to the
 * daemon's hook endpoint in forwarder mode (x-hookd-forward: 1), and the daemon answers with the
 * text to print and the exit code (x-hookd-exit: 0 = stdout, 2 = stderr), so no JSON is parsed.
 *
 *   cc -O2 -o hookd-hook daemon/src/forward/hookd-hook.c
 *   hookd-hook --dialect AGENT [--event E] [--url http://HOST:PORT[/prefix] | --socket PATH]
 *              [--agent ID] [--timeout MS] [--fail-closed]
 *
 * Plain POSIX C99; no TLS (the endpoint listens on loopback or a Unix socket).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static const char *USAGE =
    "usage: hookd hook --dialect AGENT [--event E] [--url URL | --socket PATH] [--agent ID] [--timeout MS] [--fail-closed]\n";

static int fail_closed = 0;

/* hookd could not answer: a non-blocking error (exit 1), or a block with --fail-closed (exit 2). */
static void unavailable(const char *fmt, ...) {
  va_list args;
  fputs("hookd hook: hookd did not answer: ", stderr);
  va_start(args, fmt);
  vfprintf(stderr, fmt, args);
  va_end(args);
  fputc('\n', stderr);
  exit(fail_closed ? 2 : 1);
}

static void usage_error(const char *message, const char *detail) {
  fprintf(stderr, "hookd hook: %s%s\n%s", message, detail ? detail : "", USAGE);
  exit(1);
}

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "hookd hook: hookd did not answer: no answer within the timeout\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(fail_closed ? 2 : 1);
}

/* Appends to a growable buffer. */
struct buf {
  char *data;
  size_t len, cap;
};

static void buf_put(struct buf *b, const char *data, size_t len) {
  if (b->len + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + len + 1) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) unavailable("out of memory");
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
}

/* Appends what one read() gives; 0 at EOF. */
static ssize_t read_some(int fd, struct buf *b) {
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n > 0) buf_put(b, chunk, (size_t)n);
    if (n >= 0) return n;
    if (errno != EINTR) unavailable("read: %s", strerror(errno));
  }
}

static void read_all(int fd, struct buf *b) {
  while (read_some(fd, b) > 0) {
  }
}

static int connect_unix(const char *path) {
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr.sun_path) unavailable("%s: socket path too long", path);
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) unavailable("connect %s: %s", path, strerror(errno));
  return fd;
}

static int connect_tcp(const char *host, const char *port) {
  struct addrinfo hints, *found, *ai;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, port, &hints, &found);
  if (rc != 0) unavailable("%s: %s", host, gai_strerror(rc));
  int fd = -1;
  for (ai = found; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
    if (fd >= 0) close(fd);
    fd = -1;
  }
  if (fd < 0) unavailable("connect %s:%s: %s", host, port, strerror(errno));
  freeaddrinfo(found);
  return fd;
}

static void write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      unavailable("write: %s", strerror(errno));
    }
    data += n;
    len -= (size_t)n;
  }
}

/* The value of a response header (case-insensitive name), or NULL; `end` bounds the head. */
static const char *header_value(const char *head, const char *end, const char *name, size_t *len) {
  size_t name_len = strlen(name);
  for (const char *line = strstr(head, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
    const char *start = line + 2;
    if (start + name_len + 1 <= end && strncasecmp(start, name, name_len) == 0 && start[name_len] == ':') {
      const char *value = start + name_len + 1;
      while (*value == ' ' || *value == '\t') value++;
      const char *stop = strstr(value, "\r\n");
      *len = (size_t)((stop ? stop : end) - value);
      return value;
    }
  }
  return NULL;
}

/*
 * Reads one HTTP/1.1 answer: to the end of its body as Content-Length gives it, else to EOF. Not
 * waiting for the server to close the connection saves the agent a wake-up per event.
 */
static void read_response(int fd, struct buf *b) {
  size_t want = (size_t)-1;
  while (b->len < want && read_some(fd, b) > 0) {
    const char *end = want == (size_t)-1 ? strstr(b->data, "\r\n\r\n") : NULL;
    if (end) {
      size_t len = 0;
      const char *value = header_value(b->data, end, "content-length", &len);
      if (value) want = (size_t)(end + 4 - b->data) + strtoul(value, NULL, 10);
    }
  }
}

int main(int argc, char **argv) {
  const char *dialect = NULL, *event = NULL, *url = getenv("HOOKD_HOOK_URL"), *sock = getenv("HOOKD_HOOK_SOCKET");
  const char *agent = getenv("HOOKD_AGENT"), *token = getenv("HOOKD_TOKEN");
  long timeout_ms = 60000;
  if (url && !*url) url = NULL;
  if (sock && !*sock) sock = NULL;
  if (agent && !*agent) agent = NULL;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(USAGE, stdout);
      return 0;
    }
    char flag[32];
    const char *value = NULL;
    if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof flag) {
      memcpy(flag, arg, (size_t)(eq - arg));
      flag[eq - arg] = '\0';
      value = eq + 1;
    } else {
      snprintf(flag, sizeof flag, "%s", arg);
    }
    int takes_value = strcmp(flag, "--fail-closed") != 0;
    if (takes_value && !value) value = i + 1 < argc ? argv[++i] : NULL;
    if (takes_value && (!value || !*value)) {
      if (strcmp(flag, "--dialect") && strcmp(flag, "--event") && strcmp(flag, "--url") && strcmp(flag, "--socket") && strcmp(flag, "--agent") && strcmp(flag, "--timeout"))
        usage_error("unknown option ", arg);
      usage_error(flag, " needs a value");
    }
    if (!strcmp(flag, "--dialect")) {
      /* Passed through: the daemon knows its agents and names an unknown one (HTTP 400). */
      for (const char *c = value; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) usage_error("--dialect: expected an agent's name such as claude-code, got ", value);
      dialect = value;
    } else if (!strcmp(flag, "--event")) {
      for (const char *c = value; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z'))) usage_error("--event: expected a hook event name such as PreToolUse", NULL);
      event = value;
    } else if (!strcmp(flag, "--url")) {
      url = value;
      sock = NULL;
    } else if (!strcmp(flag, "--socket")) {
      sock = value;
      url = NULL;
    } else if (!strcmp(flag, "--agent")) {
      agent = value;
    } else if (!strcmp(flag, "--timeout")) {
      char *end;
      timeout_ms = strtol(value, &end, 10);
      if (*end || timeout_ms <= 0) usage_error("--timeout: expected a positive number of milliseconds", NULL);
    } else if (!strcmp(flag, "--fail-closed")) {
      fail_closed = 1;
    } else {
      usage_error("unknown option ", arg);
    }
  }
  if (!url && !sock) usage_error("give --url or --socket (or set HOOKD_HOOK_URL / HOOKD_HOOK_SOCKET)", NULL);

  signal(SIGALRM, on_alarm);
  struct itimerval timer = {{0, 0}, {timeout_ms / 1000, (timeout_ms % 1000) * 1000}};
  setitimer(ITIMER_REAL, &timer, NULL);
  signal(SIGPIPE, SIG_IGN);

  /* http://host:port[/prefix] -> host, port, prefix (IPv6 as [addr]). */
  char host[256] = "localhost", port[16] = "80", prefix[512] = "";
  if (url) {
    if (strncmp(url, "http://", 7) != 0) usage_error("--url: expected http://HOST:PORT[/prefix], got ", url);
    const char *h = url + 7, *slash = strchr(h, '/'), *hend = slash ? slash : h + strlen(h), *colon;
    if (*h == '[') {
      const char *close_bracket = memchr(h, ']', (size_t)(hend - h));
      if (!close_bracket) usage_error("--url: bad IPv6 host in ", url);
      snprintf(host, sizeof host, "%.*s", (int)(close_bracket - h - 1), h + 1);
      colon = close_bracket[1] == ':' ? close_bracket + 1 : NULL;
    } else {
      colon = memchr(h, ':', (size_t)(hend - h));
      snprintf(host, sizeof host, "%.*s", (int)((colon ? colon : hend) - h), h);
    }
    if (colon) snprintf(port, sizeof port, "%.*s", (int)(hend - colon - 1), colon + 1);
    if (slash) snprintf(prefix, sizeof prefix, "%s", slash);
    size_t plen = strlen(prefix);
    if (plen > 0 && prefix[plen - 1] == '/') prefix[plen - 1] = '\0';
  }

  struct buf body = {0}, request = {0}, response = {0};
  read_all(0, &body);
  char head[2048];
  int n = snprintf(head, sizeof head,
                   "POST %s/hooks%s%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nContent-Type: application/json\r\n"
                   "Content-Length: %zu\r\nx-hookd-forward: 1\r\n",
                   prefix, event ? "/" : "", event ? event : "", sock ? "localhost" : host, body.len);
  buf_put(&request, head, (size_t)n);
  /* Without --dialect the daemon takes its default agent. */
  if (dialect) {
    n = snprintf(head, sizeof head, "x-hookd-dialect: %s\r\n", dialect);
    buf_put(&request, head, (size_t)n);
  }
  if (agent) {
    n = snprintf(head, sizeof head, "x-hookd-agent: %s\r\n", agent);
    buf_put(&request, head, (size_t)n);
  }
  if (token && *token) {
    n = snprintf(head, sizeof head, "Authorization: Bearer %s\r\n", token);
    buf_put(&request, head, (size_t)n);
  }
  buf_put(&request, "\r\n", 2);
  if (body.len) buf_put(&request, body.data, body.len);

  int fd = sock ? connect_unix(sock) : connect_tcp(host, port);
  write_all(fd, request.data, request.len);
  read_response(fd, &response);
  close(fd);

  /* A gRPC listener speaks HTTP/2 only: its first frame (SETTINGS or GOAWAY) is no HTTP/1 status line. */
  if (response.len >= 9 && strncmp(response.data, "HTTP/", 5) != 0 && (response.data[3] == 0x04 || response.data[3] == 0x07))
    unavailable("%s answered in HTTP/2: that is hookd's gRPC socket, not its HTTP hook endpoint; give %s the address of http.listen",
                sock ? sock : url, sock ? "--socket" : "--url");
  const char *end_of_head = response.data ? strstr(response.data, "\r\n\r\n") : NULL;
  int status = 0;
  if (!end_of_head || sscanf(response.data, "HTTP/%*s %d", &status) != 1) unavailable("not an HTTP answer");
  const char *payload = end_of_head + 4;
  size_t payload_len = response.len - (size_t)(payload - response.data);
  if (status != 200) unavailable("HTTP %d: %.*s", status, (int)(payload_len > 500 ? 500 : payload_len), payload);
  size_t exit_len = 0;
  const char *exit_value = header_value(response.data, end_of_head, "x-hookd-exit", &exit_len);
  if (exit_value && exit_len == 1 && exit_value[0] == '2') {
    fwrite(payload, 1, payload_len, stderr);
    return 2;
  }
  if (!exit_value || exit_len != 1 || exit_value[0] != '0') unavailable("unexpected x-hookd-exit");
  fwrite(payload, 1, payload_len, stdout);
  return 0;
}

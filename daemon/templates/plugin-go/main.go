// Command {{name}} is a hookd plugin. Without flags it serves on the Unix socket the daemon names
// in $HOOKD_PLUGIN_SOCKET (a managed plugin); --listen unix:PATH or HOST:PORT serves elsewhere
// (a remote plugin you run yourself). SIGTERM or SIGINT stops it gracefully.
package main

import (
	"flag"

	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: $"+hookd.SocketEnv+")")
	flag.Parse()
	hookd.Main(new{{name_pascal}}(), hookd.WithAddress(*listen))
}

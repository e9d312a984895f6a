// Command skytui is a keyboard-driven terminal UI for a managed MariaDB
// service: services, backups, restores and replication.
//
//	skytui                 the TUI against the configured profile
//	skytui --demo          the TUI against an embedded sandbox
//	skytui auth login      store an API key in the keystore
//	skytui creds add …     store bucket credentials
//	skytui sandbox         serve the sandbox API on loopback
//	skytui version         print the version
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/skytui/skytui/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Execute(ctx, version)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "skytui:", err)
		os.Exit(1)
	}
}

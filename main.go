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
	"os"

	"github.com/skytui/skytui/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() { os.Exit(cli.Main(version)) }

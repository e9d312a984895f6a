//go:build !unix

package config

import "os"

// checkPermissions checks nothing where file modes are not Unix modes
// (Windows: the profile directory's ACLs already keep other users out).
func checkPermissions(string, *os.File) error { return nil }

//go:build !linux

package tui

import (
	"errors"
	"testing"
)

func keyctlUsable() error                                                       { return errors.New("the kernel keyring is Linux only") }
func keyctlExists(string) bool                                                  { return false }
func keyctlCleanup(*testing.T, map[string][]string, bool, func([]string) error) {}
